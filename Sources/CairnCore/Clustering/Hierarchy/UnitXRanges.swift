/// At most two closed ranges of unit-square x (two when a box crosses the antimeridian).
struct UnitXRanges {
    var a0: Double, a1: Double
    var b0: Double, b1: Double

    /// The x ranges of a longitude box; x = 0 stands for both -180 and 180.
    init(_ box: BoundingBox) {
        if box.west == -180, box.east == 180 {
            (a0, a1, b0, b1) = (0, 1, 1, 0)
            return
        }
        let w = WebMercator.x(longitude: box.west), e = WebMercator.x(longitude: box.east)
        if box.crossesAntimeridian {
            (a0, a1, b0, b1) = (w, 1, 0, e)
        } else if e >= 1 {
            // East edge on 180: x = 0 is the same meridian.
            (a0, a1, b0, b1) = (w, 1, 0, 0)
        } else {
            (a0, a1, b0, b1) = (w, e, 1, 0)
        }
    }

    init(_ a0: Double, _ a1: Double, _ b0: Double = 1, _ b1: Double = 0) {
        (self.a0, self.a1, self.b0, self.b1) = (a0, a1, b0, b1)
    }

    @inline(__always)
    func contains(_ x: Double) -> Bool { (x >= a0 && x <= a1) || (x >= b0 && x <= b1) }

    @inline(__always)
    func overlaps(_ lo: Double, _ hi: Double) -> Bool { (hi >= a0 && lo <= a1) || (hi >= b0 && lo <= b1) }

    /// The x ranges of a longitude box widened by `d` on each side, wrapping across the antimeridian.
    init(_ box: BoundingBox, widenedBy d: Double) {
        let arc = WebMercator.xArc(of: box) // the whole world: 0 to 1, which the arc takes as every x
        self.init(arcFrom: arc.west - d, to: arc.east + d)
    }

    /// The x ranges of the arc from `lo` to `hi` (which may reach below 0 or to 1 and past), cut at 0 and 1;
    /// x = 1 is x = 0, the same meridian.
    init(arcFrom lo: Double, to hi: Double) {
        if hi - lo >= 1 {
            self.init(0, 1)
        } else if lo < 0 {
            self.init(lo + 1, 1, 0, hi)
        } else if hi >= 1 {
            self.init(lo, 1, 0, hi - 1)
        } else {
            self.init(lo, hi)
        }
    }
}
