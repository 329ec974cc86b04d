/// How precisely a `ClusterIndex` holds projected (Web Mercator, unit-square) positions while clustering.
///
/// supercluster rounds each input point's projection to a 32-bit float and keeps every level's positions in a
/// 32-bit KDBush; a neighbour search starts from an entry's 64-bit position and tests the others' 32-bit ones. A
/// float32 step is about 6e-8 of the world (about 2 m at the equator, 2 pixels of a 512-pixel tile at zoom 16), a
/// few per cent of the radius at high zooms, so the rounding changes which groups form; `.float32` reproduces it.
public enum ClusterPrecision: String, Hashable, Sendable, CaseIterable {
    /// supercluster's: points' projections rounded to float32; an entry (at its 64-bit position) takes the others
    /// whose float32-rounded positions lie within the radius. A cluster's centroid is the 64-bit mean of its children's
    /// positions as held (rounded for points, 64-bit for clusters).
    case float32
    /// Every position and distance in 64-bit doubles (a float64 supercluster).
    case float64

    /// A projected coordinate as this precision holds it.
    /// - Complexity: O(1).
    @inline(__always)
    func rounded(_ v: Double) -> Double {
        self == .float32 ? Double(Float(v)) : v
    }

    /// An upper bound on the distance (unit-square units) between a position in [0, 1]² and its rounded self:
    /// float32 rounds each coordinate by at most half a step of 2^-24, so by under 2^-24 in all.
    var roundingReach: Double { self == .float32 ? 0x1p-24 : 0 }
}
