/// Features with the spatial indexes their queries need: every query can be combined with a `FeatureFilter`.
///
/// Immutable and `Sendable`: build it once from an array of features (from a store or from code) and query it
/// from any thread. Results are item indices into `features` (with distances where a query measures them), in a
/// deterministic order.
public struct FeatureIndex: Sendable {
    /// The indexed features; results refer to them by position.
    public let features: [Feature]
    /// The index over every feature's location.
    public let points: PointIndex
    /// Positions (in `features`) of the features that have a radius, in order.
    let circleItems: [Int]
    /// The index over those features' circles (item `i` is `features[circleItems[i]]`).
    let circles: CircleIndex

    /// Builds the indexes.
    /// - Complexity: O(n log n).
    public init(_ features: [Feature]) {
        self.features = features
        points = PointIndex(features.map(\.location))
        var circleItems: [Int] = []
        var circles: [Circle] = []
        for (position, feature) in features.enumerated() {
            // A feature's radius is validated > 0 and finite, so the circle always exists.
            if let radius = feature.radiusMeters, let circle = try? Circle(center: feature.location, radiusMeters: radius) {
                circleItems.append(position)
                circles.append(circle)
            }
        }
        self.circleItems = circleItems
        self.circles = CircleIndex(circles)
    }

    /// The number of features.
    public var count: Int { features.count }
}

/// One query result: a feature's position in the index and, for queries that measure, its distance.
public struct QueryHit: Hashable, Sendable {
    /// The position in `FeatureIndex.features`.
    public let item: Int
    /// The distance from the query point in metres (nil for box and geohash queries).
    public let distanceMeters: Double?

    /// Creates a hit.
    public init(item: Int, distanceMeters: Double?) {
        self.item = item
        self.distanceMeters = distanceMeters
    }
}
