extension FeatureIndex {
    /// The features that meet `box` (edges inclusive; across the antimeridian when west > east) and pass
    /// `filter`, in ascending item order: a feature without a shape when its location is inside, one with a shape
    /// when the shape itself meets the box (`Shape.intersects`: a vertex or an edge in it, or the box inside a
    /// polygon), wherever its representative point lies.
    /// - Complexity: O(√n + k log k) for k point candidates in the box, plus O(log p + v) for the shape parts whose
    ///   extent meets it and their v vertices.
    public func search(in box: BoundingBox, filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        let shapes = self.shapes.index
        guard shapes.shapeCount > 0 else { return locations(in: box, filter: filter, stats: &stats) }
        var items: [Int] = []
        stats.add(points.search(in: box, into: &items))
        // A shape's representative point says nothing here: its shape decides.
        items.removeAll { shapes.hasShape($0) || !(filter.acceptsAll || filter.matches(features[$0])) }
        for item in shapes.candidates(in: box, stats: &stats) {
            let feature = features[item]
            guard let shape = feature.shape, filter.acceptsAll || filter.matches(feature) else { continue }
            stats.exactChecks += 1
            if shape.intersects(box) { items.append(item) }
        }
        items.sort()
        return items.map { QueryHit(item: $0, distanceMeters: nil) }
    }

    /// The features within `radiusMeters` of `center` (a feature at exactly the radius is inside) that pass
    /// `filter`, nearest first, ties by item. A feature without a shape is measured to its location under `model`;
    /// one with a shape to the shape itself (`ShapeBoundaryDistance.metersToShape`: 0 when a polygon covers the
    /// centre, else the WGS84 geodesic to the nearest point of its boundary, line or points, under either model),
    /// wherever its representative point lies.
    /// - Complexity: O(√n + k log k) for k candidates in the circle, plus, when some features have shapes, O(log p)
    ///   per shape part whose extent's lower bound is within the radius and a boundary search per such shape.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        var neighbors: [Neighbor] = []
        stats.add(points.neighbors(withinRadiusMeters: radiusMeters, of: center, model: model, into: &neighbors))
        let features = self.features
        let shapes = self.shapes.index
        guard shapes.shapeCount > 0 else {
            // No shapes: the point answer as it always was, without a test per point.
            return neighbors.lazy.filter { filter.acceptsAll || filter.matches(features[$0.item]) }
                .map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
        }
        // A shaped feature's representative point says nothing here: its shape is measured below.
        neighbors.removeAll { shapes.hasShape($0.item) || !(filter.acceptsAll || filter.matches(features[$0.item])) }
        neighbors += shapes.neighbors(withinMeters: radiusMeters, of: center, features: features,
                                      where: { filter.acceptsAll || filter.matches(features[$0]) }, stats: &stats)
        neighbors.sort()
        return neighbors.map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
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
    ///
    /// A feature with a shape is measured to the shape, as `within(radiusMeters:of:model:filter:stats:)` measures
    /// it: the point tree finds the `count` nearest features without a shape, then the shapes' extent tree is
    /// walked in order of its parts' lower bounds until a bound exceeds the `count`-th distance so far, and the two
    /// lists are merged (distance, then item).
    /// - Complexity: O((log n + m) log n) where m is the number of features examined (about count / selectivity),
    ///   plus, when some features have shapes, O(log p) per shape part opened and a boundary search per shape
    ///   measured.
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all, scratch: inout NearestScratch, stats: inout QueryStats) -> [QueryHit] {
        guard count > 0 else { return [] } // as the point search answers; the merge below needs a count of 0 or more
        var neighbors: [Neighbor] = []
        let features = self.features
        let shapes = self.shapes.index
        guard shapes.shapeCount > 0 else {
            // No shapes: the point search as it always was, without a test per point.
            let isIncluded: ((Int) -> Bool)? = filter.acceptsAll ? nil : { filter.matches(features[$0]) }
            stats.add(points.nearest(to: point, count: count, maxDistance: maxDistanceMeters, model: model,
                                     into: &neighbors, scratch: &scratch, where: isIncluded))
            return neighbors.map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
        }
        let passes: (Int) -> Bool = { filter.acceptsAll || filter.matches(features[$0]) }
        stats.add(points.nearest(to: point, count: count, maxDistance: maxDistanceMeters, model: model,
                                 into: &neighbors, scratch: &scratch, where: { !shapes.hasShape($0) && passes($0) }))
        neighbors = Self.merged(neighbors, FeatureIndex.shapeNeighbors(of: shapes, nearest: point, count: count,
                                                                       maxDistanceMeters: maxDistanceMeters, after: neighbors,
                                                                       features: features, where: passes, stats: &stats),
                                limit: count)
        return neighbors.map { QueryHit(item: $0.item, distanceMeters: $0.distanceMeters) }
    }

    /// The shapes of `shapes` that can join the `count` nearest beside `pointNeighbors` (the nearest features
    /// without a shape, sorted, at most `count`): those at most `maxDistanceMeters` away and, when `pointNeighbors`
    /// is full, not beyond its farthest. Shared by `FeatureIndex` and `DynamicFeatureIndex`'s base.
    /// - Complexity: see `FeatureShapeIndex.nearest(to:count:limitMeters:features:where:stats:)`.
    static func shapeNeighbors(of shapes: FeatureShapeIndex, nearest point: Coordinate, count: Int,
                               maxDistanceMeters: Double?, after pointNeighbors: [Neighbor], features: FeatureList,
                               where isIncluded: (Int) -> Bool, stats: inout QueryStats) -> [Neighbor] {
        var limit = maxDistanceMeters ?? .infinity
        if pointNeighbors.count >= count, let worst = pointNeighbors.last { limit = min(limit, worst.distanceMeters) }
        return shapes.nearest(to: point, count: count, limitMeters: limit, features: features, where: isIncluded, stats: &stats)
    }

    /// Two lists sorted by (distance, item) merged into at most `limit`, in that order.
    /// - Complexity: O(a + b).
    static func merged(_ first: [Neighbor], _ second: [Neighbor], limit: Int) -> [Neighbor] {
        guard !second.isEmpty else { return Array(first.prefix(limit)) }
        var result: [Neighbor] = []
        result.reserveCapacity(min(limit, first.count + second.count))
        var i = 0, j = 0
        while result.count < limit, i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        return result
    }

    /// The features that contain `point` and pass `filter`: those with a polygon shape that covers it
    /// (`Shape.covers`: planar in longitude and latitude, the boundary inside), at distance 0, then those without
    /// a shape whose circle contains it (distance from the centre <= radius, edges inclusive), nearest centre
    /// first; ties by item. A feature with a shape is judged by its shape alone (lines and points contain nothing,
    /// whatever their radius). The check-in question.
    /// - Complexity: O(√n + k log k) for k candidate circles (see `CircleIndex`), plus O(log p + v) for the
    ///   polygon parts whose extent holds the point and their v vertices; the first query that reads shapes builds
    ///   their index (`FeatureShapeCache`).
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all,
                           stats: inout QueryStats) -> [QueryHit] {
        guard circlesReadable else { return [] }
        var hits: [QueryHit] = []
        // Without circles (an index of polygons) the circle walk is skipped: it answers nothing, and its call
        // copied the circle index and reserved an empty array (a heap allocation) on every query.
        if !circleItems.isEmpty {
            var found: [Int] = []
            stats.add(circles.containing(point, model: model, into: &found))
            if !found.isEmpty { hits.reserveCapacity(found.count) }
            for circle in found {
                let item = Int(circleItems[circle])
                let feature = features[item]
                guard feature.shape == nil, filter.acceptsAll || filter.matches(feature) else { continue }
                hits.append(QueryHit(item: item, distanceMeters: distanceMeters(from: feature.location, to: point, model: model)))
            }
        }
        // The polygons come ascending at distance 0: sorted already when no circle matched.
        let circleHits = hits.count
        if filter.acceptsAll {
            shapes.index.appendCovering(point, accepting: { _ in true }, into: &hits, stats: &stats)
        } else {
            shapes.index.appendCovering(point, features: features, filter: filter, into: &hits, stats: &stats)
        }
        if circleHits > 0, hits.count > 1 {
            hits.sort { ($0.distanceMeters ?? 0, $0.item) < ($1.distanceMeters ?? 0, $1.item) }
        }
        return hits
    }

    /// The features whose location encodes to a geohash starting with `prefix`, in ascending item order.
    /// - Throws: `GeohashError` for an invalid prefix.
    /// - Complexity: O(√n + k log k) for k candidates in the prefix's cell.
    public func withGeohashPrefix(_ prefix: String, filter: FeatureFilter = .all, stats: inout QueryStats) throws(GeohashError) -> [QueryHit] {
        let cell = try Geohash.decode(prefix)
        let normalized = prefix.lowercased()
        guard let box = try? BoundingBox(west: cell.west, south: cell.south, east: cell.east, north: cell.north) else { return [] }
        return locations(in: box, filter: filter, stats: &stats).filter { hit in
            // The cell's box is closed; points on its north or east edge belong to the next cell.
            (try? Geohash.encode(features[hit.item].location, precision: normalized.count)) == normalized
        }
    }

    /// The features whose location is inside `box` (shapes by their representative point) and that pass
    /// `filter`, ascending: what a geohash prefix asks.
    /// - Complexity: O(√n + k log k) for k candidates in the box.
    func locations(in box: BoundingBox, filter: FeatureFilter, stats: inout QueryStats) -> [QueryHit] {
        var items: [Int] = []
        stats.add(points.search(in: box, into: &items))
        items.sort()
        return items.lazy.filter { filter.acceptsAll || filter.matches(features[$0]) }.map { QueryHit(item: $0, distanceMeters: nil) }
    }
}
