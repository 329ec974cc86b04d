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
    /// The index over the centres of those features.
    let circleCentres: PointIndex
    /// The largest radius among them, in metres (0 when there are none).
    let largestRadiusMeters: Double

    /// Builds the indexes.
    /// - Complexity: O(n log n).
    public init(_ features: [Feature]) {
        self.features = features
        points = PointIndex(features.lazy.map(\.location))
        var circleItems: [Int] = []
        var largest = 0.0
        for (position, feature) in features.enumerated() {
            if let radius = feature.radiusMeters {
                circleItems.append(position)
                largest = max(largest, radius)
            }
        }
        self.circleItems = circleItems
        circleCentres = PointIndex(circleItems.lazy.map { features[$0].location })
        largestRadiusMeters = largest
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
