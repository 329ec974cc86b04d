extension FeatureIndex {
    /// The features inside `box` that pass `filter` (see `search(in:filter:stats:)`).
    /// - Complexity: O(√n + k log k).
    public func search(in box: BoundingBox, filter: FeatureFilter = .all) -> [QueryHit] {
        var stats = QueryStats()
        return search(in: box, filter: filter, stats: &stats)
    }

    /// The features within `radiusMeters` of `center`, nearest first (see `within(radiusMeters:of:model:filter:stats:)`).
    /// - Complexity: O(√n + k log k).
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all) -> [QueryHit] {
        var stats = QueryStats()
        return within(radiusMeters: radiusMeters, of: center, model: model, filter: filter, stats: &stats)
    }

    /// The `count` features nearest to `point` (see `nearest(to:count:maxDistanceMeters:model:filter:stats:)`).
    /// - Complexity: O((log n + m) log n).
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all) -> [QueryHit] {
        var stats = QueryStats()
        return nearest(to: point, count: count, maxDistanceMeters: maxDistanceMeters, model: model, filter: filter, stats: &stats)
    }

    /// The features whose circle contains `point` (see `containing(_:model:filter:stats:)`).
    /// - Complexity: O(√n + k log k).
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all) -> [QueryHit] {
        var stats = QueryStats()
        return containing(point, model: model, filter: filter, stats: &stats)
    }
}
