/// Features with the spatial indexes their queries need: every query can be combined with a `FeatureFilter`.
///
/// Immutable and `Sendable`: build it once from an array of features (from a store or from code) and query it
/// from any thread. Results are item indices into `features` (with distances where a query measures them), in a
/// deterministic order.
public struct FeatureIndex: Sendable {
    /// The indexed features; results refer to them by position. For an index mapped from a snapshot they are
    /// decoded one at a time, when read.
    public let features: FeatureList
    /// The index over every feature's location.
    public let points: PointIndex
    /// Positions (in `features`) of the features that have a radius, in order.
    let circleItems: IndexBuffer<UInt32>
    /// The index over those features' circles (item `i` is `features[circleItems[i]]`).
    let circles: CircleIndex
    /// For an index mapped from a snapshot, the check its circle sections must pass before they are read.
    let circleCheck: MappedCircleCheck?
    /// The features' shapes and the tree of their parts' extents, built by the first query that reads them.
    let shapes: FeatureShapeCache

    /// Builds the indexes.
    /// - Complexity: O(n log n).
    public init(_ features: [Feature]) {
        self.features = FeatureList(features)
        points = PointIndex(features.map(\.location))
        var circleItems: ContiguousArray<UInt32> = []
        var circles: [Circle] = []
        for (position, feature) in features.enumerated() {
            // A feature's radius is validated > 0 and finite, so the circle always exists.
            if let radius = feature.radiusMeters, let circle = try? Circle(center: feature.location, radiusMeters: radius) {
                circleItems.append(UInt32(truncatingIfNeeded: position))
                circles.append(circle)
            }
        }
        self.circleItems = IndexBuffer(circleItems)
        self.circles = CircleIndex(circles)
        circleCheck = nil
        shapes = FeatureShapeCache(self.features)
    }

    /// The parts of a mapped snapshot's index: the point parts already checked, the circle parts checked by
    /// `circleCheck` when first read.
    /// - Complexity: O(1).
    init(features: FeatureList, points: PointIndex, circleItems: IndexBuffer<UInt32>, circles: CircleIndex,
         circleCheck: MappedCircleCheck) {
        self.features = features
        self.points = points
        self.circleItems = circleItems
        self.circles = circles
        self.circleCheck = circleCheck
        shapes = FeatureShapeCache(features)
    }

    /// Whether the circle parts may be read: always for an index built in memory; for a mapped one, once its circle
    /// sections passed their check (a failure is reported by `snapshotDamage`).
    /// - Complexity: O(1) after the first call (see `MappedCircleCheck`).
    var circlesReadable: Bool { circleCheck?.passes() ?? true }

    /// The number of features.
    /// - Complexity: O(1).
    public var count: Int { features.count }

    /// The number of features with a radius: the only ones `containing` can match.
    /// - Complexity: O(1).
    public var radiusCount: Int { circleItems.count }

    /// The number of features with a shape (a line, a polygon, several points): those `containing`, `search(in:)`
    /// and `intersecting` judge by their geometry.
    /// - Complexity: O(1) once the shapes are indexed (the first call indexes them, see `FeatureShapeCache`).
    public var shapeCount: Int { shapes.index.shapeCount }

    /// The smallest box (not crossing the antimeridian) holding every feature's location, or nil for no feature.
    /// - Complexity: O(n).
    public var extent: BoundingBox? {
        guard !points.isEmpty else { return nil }
        var (west, south, east, north) = (180.0, 90.0, -180.0, -90.0)
        points.coordinates.withUnsafeBufferPointer { coordinates in
            for pair in stride(from: 0, to: coordinates.count, by: 2) {
                let longitude = coordinates[pair + PointIndex.Axis.longitude], latitude = coordinates[pair + PointIndex.Axis.latitude]
                (west, east) = (min(west, longitude), max(east, longitude))
                (south, north) = (min(south, latitude), max(north, latitude))
            }
        }
        return BoundingBox(unchecked: west, south, east, north)
    }
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
