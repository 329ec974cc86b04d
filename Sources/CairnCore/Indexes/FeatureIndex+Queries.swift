extension FeatureIndex {
    /// The features inside `box` (edges inclusive; across the antimeridian when west > east) that pass `filter`,
    /// in ascending item order.
    /// - Complexity: O(√n + k log k) for k candidates in the box.
    public func search(in box: BoundingBox, filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        var items: [Int] = []
        stats.add(points.search(in: box, into: &items))
        items.sort()
        return items.lazy.filter { filter.acceptsAll || filter.matches(features[$0]) }.map { QueryHit(item: $0, distanceMeters: nil) }
    }

    /// The features within `radiusMeters` of `center` under `model` (a feature at exactly the radius is inside)
    /// that pass `filter`, nearest first, ties by item.
    /// - Complexity: O(√n + k log k) for k candidates in the circle.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        var neighbors: [Neighbor] = []
        stats.add(points.neighbors(withinRadiusMeters: radiusMeters, of: center, model: model, into: &neighbors))
        return neighbors.lazy.filter { filter.acceptsAll || filter.matches(features[$0.item]) }
            .map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
    }

    /// The `count` features nearest to `point` that pass `filter`, at most `maxDistanceMeters` away when given,
    /// nearest first, ties by item. Features failing the filter are skipped inside the search, before their
    /// distance is measured. Allocates its search queue; repeated queries on one thread can pass a scratch to
    /// `nearest(to:count:maxDistanceMeters:model:filter:scratch:stats:)` instead.
    /// - Complexity: O((log n + m) log n) where m is the number of features examined (about count / selectivity).
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        var scratch = NearestScratch()
        return nearest(to: point, count: count, maxDistanceMeters: maxDistanceMeters, model: model, filter: filter,
                       scratch: &scratch, stats: &stats)
    }

    /// `nearest(to:count:maxDistanceMeters:model:filter:stats:)` with the caller's working memory: once `scratch`
    /// has grown to the largest query's needs, the search allocates only the returned array. The index stays a
    /// shared, immutable `Sendable` value; each thread keeps its own scratch (a scratch is not shared).
    /// - Complexity: O((log n + m) log n) where m is the number of features examined (about count / selectivity).
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all, scratch: inout NearestScratch, stats: inout QueryStats) -> [QueryHit] {
        var neighbors: [Neighbor] = []
        let features = self.features
        let isIncluded: ((Int) -> Bool)? = filter.acceptsAll ? nil : { filter.matches(features[$0]) }
        stats.add(points.nearest(to: point, count: count, maxDistance: maxDistanceMeters, model: model,
                                 into: &neighbors, scratch: &scratch, where: isIncluded))
        return neighbors.map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
    }

    /// The features with a radius whose circle contains `point` (distance from the centre <= radius, edges
    /// inclusive) and that pass `filter`, nearest centre first, ties by item: the check-in question.
    /// - Complexity: O(√n + k log k) for k candidate circles (see `CircleIndex`).
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all,
                           stats: inout QueryStats) -> [QueryHit] {
        guard circlesReadable else { return [] }
        var found: [Int] = []
        stats.add(circles.containing(point, model: model, into: &found))
        var hits: [QueryHit] = []
        hits.reserveCapacity(found.count)
        for circle in found {
            let item = Int(circleItems[circle])
            let feature = features[item]
            guard filter.acceptsAll || filter.matches(feature) else { continue }
            hits.append(QueryHit(item: item, distanceMeters: distanceMeters(from: feature.location, to: point, model: model)))
        }
        hits.sort { ($0.distanceMeters ?? 0, $0.item) < ($1.distanceMeters ?? 0, $1.item) }
        return hits
    }

    /// The features whose location encodes to a geohash starting with `prefix`, in ascending item order.
    /// - Throws: `GeohashError` for an invalid prefix.
    /// - Complexity: O(√n + k log k) for k candidates in the prefix's cell.
    public func withGeohashPrefix(_ prefix: String, filter: FeatureFilter = .all, stats: inout QueryStats) throws(GeohashError) -> [QueryHit] {
        let cell = try Geohash.decode(prefix)
        let normalized = prefix.lowercased()
        guard let box = try? BoundingBox(west: cell.west, south: cell.south, east: cell.east, north: cell.north) else { return [] }
        return search(in: box, filter: filter, stats: &stats).filter { hit in
            // The cell's box is closed; points on its north or east edge belong to the next cell.
            (try? Geohash.encode(features[hit.item].location, precision: normalized.count)) == normalized
        }
    }
}
