/// The queries every feature index answers, each combinable with a `FeatureFilter`: box, radius, nearest,
/// containment and geohash prefix. `FeatureIndex` (static, results by position) and `DynamicFeatureIndex` (takes
/// edits, results carrying their features) conform, so the compiler checks that both offer the same queries.
///
/// Every query is exact under its `DistanceModel` and deterministic: the same data and query give the same hits in
/// the same order. `stats` accumulates the query's counters (nodes visited, candidates, exact checks).
public protocol FeatureQuerying: Sendable {
    /// One result: a position (`QueryHit`) or a feature (`DynamicHit`), with a distance where the query measures.
    associatedtype Hit: Hashable & Sendable

    /// The number of features.
    /// - Complexity: O(1).
    var count: Int { get }

    /// The features inside `box` (edges inclusive; across the antimeridian when west > east) that pass `filter`,
    /// in the index's feature order.
    /// - Complexity: O(√n + k log k) for k candidates in the box.
    func search(in box: BoundingBox, filter: FeatureFilter, stats: inout QueryStats) -> [Hit]

    /// The features within `radiusMeters` of `center` under `model` (a feature at exactly the radius is inside)
    /// that pass `filter`, nearest first, ties in feature order.
    /// - Complexity: O(√n + k log k) for k candidates in the circle.
    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, filter: FeatureFilter,
                stats: inout QueryStats) -> [Hit]

    /// The `count` features nearest to `point` that pass `filter`, at most `maxDistanceMeters` away when given,
    /// nearest first, ties in feature order.
    /// - Complexity: O((log n + m) log n) where m is the number of features examined.
    func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double?, model: DistanceModel,
                 filter: FeatureFilter, stats: inout QueryStats) -> [Hit]

    /// The features that contain `point` and pass `filter`: polygon shapes that cover it (`Shape.covers`, the
    /// boundary inside) at distance 0, then circles of features without a shape (edges inclusive), nearest centre
    /// first; ties in feature order: the check-in question.
    /// - Complexity: O(√n + k log k) for k candidate circles, plus the polygon parts whose extent holds the point.
    func containing(_ point: Coordinate, model: DistanceModel, filter: FeatureFilter, stats: inout QueryStats) -> [Hit]

    /// The features whose geometry meets `query` (a shape's own geometry, or a location) that pass `filter`, in
    /// feature order: planar in longitude and latitude, exact, the boundary inside.
    /// - Complexity: O(√n + k log k) for k candidates per part of `query`, plus O(v · w) per candidate shape.
    func intersecting(_ query: Shape, filter: FeatureFilter, stats: inout QueryStats) -> [Hit]

    /// The features whose location encodes to a geohash starting with `prefix` that pass `filter`, in feature order.
    /// - Throws: `GeohashError` for an invalid prefix.
    /// - Complexity: O(√n + k log k) for k candidates in the prefix's cell.
    func withGeohashPrefix(_ prefix: String, filter: FeatureFilter, stats: inout QueryStats) throws(GeohashError) -> [Hit]
}

extension FeatureQuerying {
    /// The features inside `box` that pass `filter` (see `search(in:filter:stats:)`), without counters.
    /// - Complexity: O(√n + k log k).
    public func search(in box: BoundingBox, filter: FeatureFilter = .all) -> [Hit] {
        var stats = QueryStats()
        return search(in: box, filter: filter, stats: &stats)
    }

    /// The features within `radiusMeters` of `center`, nearest first (see `within(radiusMeters:of:model:filter:stats:)`).
    /// - Complexity: O(√n + k log k).
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all) -> [Hit] {
        var stats = QueryStats()
        return within(radiusMeters: radiusMeters, of: center, model: model, filter: filter, stats: &stats)
    }

    /// The `count` features nearest to `point` (see `nearest(to:count:maxDistanceMeters:model:filter:stats:)`).
    /// - Complexity: O((log n + m) log n).
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all) -> [Hit] {
        var stats = QueryStats()
        return nearest(to: point, count: count, maxDistanceMeters: maxDistanceMeters, model: model, filter: filter, stats: &stats)
    }

    /// The features whose polygon or circle contains `point` (see `containing(_:model:filter:stats:)`).
    /// - Complexity: O(√n + k log k).
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all) -> [Hit] {
        var stats = QueryStats()
        return containing(point, model: model, filter: filter, stats: &stats)
    }

    /// The features whose geometry meets `query` (see `intersecting(_:filter:stats:)`).
    /// - Complexity: O(√n + k log k) plus the exact tests.
    public func intersecting(_ query: Shape, filter: FeatureFilter = .all) -> [Hit] {
        var stats = QueryStats()
        return intersecting(query, filter: filter, stats: &stats)
    }

    /// The features whose location's geohash starts with `prefix` (see `withGeohashPrefix(_:filter:stats:)`).
    /// - Throws: `GeohashError` for an invalid prefix.
    /// - Complexity: O(√n + k log k).
    public func withGeohashPrefix(_ prefix: String, filter: FeatureFilter = .all) throws(GeohashError) -> [Hit] {
        var stats = QueryStats()
        return try withGeohashPrefix(prefix, filter: filter, stats: &stats)
    }
}

extension FeatureIndex: FeatureQuerying {}

extension DynamicFeatureIndex: FeatureQuerying {}
