/// The test by which an entry takes another while a `ClusterIndex` is built or edited: the other's position, as
/// the precision holds it, within the radius of the entry's own 64-bit position; the shorter way round the
/// antimeridian when the options wrap it.
struct ClusterReach {
    let precision: ClusterPrecision
    let wrapsAntimeridian: Bool
    /// The radius of the zoom, squared (unit-square units).
    let radiusSquared: Double

    init(options: ClusterOptions, zoom: Int) {
        precision = options.precision
        wrapsAntimeridian = options.wrapsAntimeridian
        let r = options.unitRadius(zoom: zoom)
        radiusSquared = r * r
    }

    /// Squared distance between two positions, the shorter way round when wrapping.
    /// - Complexity: O(1).
    @inline(__always)
    func distanceSquared(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        guard !wrapsAntimeridian else { return ClusterNeighbourGrid.distanceSquared(x1, y1, x2, y2) }
        let dx = x1 - x2, dy = y1 - y2
        return dx * dx + dy * dy
    }

    /// Whether an entry at the 64-bit position (cx, cy) takes one at (x, y).
    /// - Complexity: O(1).
    @inline(__always)
    func takes(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> Bool {
        distanceSquared(cx, cy, precision.rounded(x), precision.rounded(y)) <= radiusSquared
    }

    /// The x of `other` shifted by a whole turn when that brings it nearer to `x` across the antimeridian (when
    /// wrapping): where a cluster's centroid takes it.
    /// - Complexity: O(1).
    @inline(__always)
    func unwrap(_ other: Double, near x: Double) -> Double {
        guard wrapsAntimeridian else { return other }
        let d = other - x
        return d > 0.5 ? other - 1 : (d < -0.5 ? other + 1 : other)
    }
}
