import CairnCore

/// A circle for the containment workload: a place's check-in area.
public struct BenchCircle: Hashable, Sendable {
    /// The centre.
    public let center: Coordinate
    /// The radius, metres.
    public let radiusMeters: Double

    /// The circle of `radiusMeters` around `center`.
    /// - Complexity: O(1).
    public init(center: Coordinate, radiusMeters: Double) {
        self.center = center
        self.radiusMeters = radiusMeters
    }
}
