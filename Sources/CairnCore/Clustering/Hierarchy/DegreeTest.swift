/// Which cached coordinates on one axis lie surely inside a query's range, surely outside it, or neither (the
/// entry's exact position decides), with a margin far above the rounding of the projection and its inverse.
struct DegreeTest: AxisTest {
    private static let margin = 1e-9
    private var inLo: Double, inHi: Double, outLo: Double, outHi: Double
    private var inLo2 = Double.infinity, inHi2 = -Double.infinity, outLo2 = Double.infinity, outHi2 = -Double.infinity

    /// Every value inside.
    static let all = DegreeTest(inLo: -.infinity, inHi: .infinity, outLo: -.infinity, outHi: .infinity)

    private init(inLo: Double, inHi: Double, outLo: Double, outHi: Double) {
        (self.inLo, self.inHi, self.outLo, self.outHi) = (inLo, inHi, outLo, outHi)
    }

    /// Longitudes of unit-square x ranges (longitude = (x - 0.5) * 360, increasing with x).
    init(longitudes ranges: UnitXRanges) {
        let m = Self.margin
        let a0 = WebMercator.longitude(x: ranges.a0), a1 = WebMercator.longitude(x: ranges.a1)
        self.init(inLo: a0 + m, inHi: a1 - m, outLo: a0 - m, outHi: a1 + m)
        if ranges.b0 <= ranges.b1 {
            let b0 = WebMercator.longitude(x: ranges.b0), b1 = WebMercator.longitude(x: ranges.b1)
            (inLo2, inHi2, outLo2, outHi2) = (b0 + m, b1 - m, b0 - m, b1 + m)
        }
    }

    /// Latitudes of unit-square y in [y0, y1] (latitude decreases as y grows; y is clamped to [0, 1], so a bound
    /// at or beyond an edge of the square bounds nothing).
    init(latitudesFromY y0: Double, _ y1: Double) {
        let m = Self.margin
        let north = y0 <= 0 ? Double.infinity : WebMercator.latitude(y: y0)
        let south = y1 >= 1 ? -Double.infinity : WebMercator.latitude(y: y1)
        self.init(inLo: south + m, inHi: north - m, outLo: south - m, outHi: north + m)
    }

    @inline(__always)
    func includes(_ v: Double) -> Bool { (v >= inLo && v <= inHi) || (v >= inLo2 && v <= inHi2) }

    @inline(__always)
    func excludes(_ v: Double) -> Bool { !(v >= outLo && v <= outHi) && !(v >= outLo2 && v <= outHi2) }
}
