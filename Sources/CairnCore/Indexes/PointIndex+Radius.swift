extension PointIndex {
    /// The items within `radiusMeters` of `center` under `model` (a point at exactly the radius is inside),
    /// in ascending item order. A negative or NaN radius gives no items; circles across the antimeridian or
    /// around a pole need nothing special.
    ///
    /// Within means `distanceMeters(from: center, to: item, model: model) <= radiusMeters`, exactly.
    /// - Complexity: O(√n + k log k) for k results on typical data; most candidates are decided by spherical
    ///   bounds (see `DistanceBounds`), nearly all the rest by the chord bound (`GeodesicChord`, WGS84), and
    ///   only those within its few micrometres (small circles) of the radius get an exact geodesic.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84) -> [Int] {
        var results: [Int] = []
        within(radiusMeters: radiusMeters, of: center, model: model, into: &results)
        results.sort()
        return results
    }

    /// Appends the items within `radiusMeters` of `center` to `results` in tree order (deterministic),
    /// allocating nothing when `results` has the capacity; returns the query's counters.
    /// - Complexity: O(√n + k) for k results on typical data.
    @discardableResult
    public func within(
        radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84, into results: inout [Int]
    ) -> QueryStats {
        var stats = QueryStats()
        guard radiusMeters >= 0 else { return stats }
        let test = CircleTest(latitude: center.latitude, longitude: center.longitude, radiusMeters: radiusMeters, model: model)
        var visitor = CollectWithinCircle(test: test)
        swap(&visitor.results, &results)
        traverse(south: test.south, north: test.north, longitudes: test.longitudes, visitor: &visitor, stats: &stats)
        swap(&visitor.results, &results)
        stats.results = visitor.count
        return stats
    }

    /// The items within `radiusMeters` of `center` with their distances, nearest first (ties by item index).
    /// Every result's distance is computed exactly, so this costs one model distance per result.
    /// - Complexity: O(√n + k log k) for k results on typical data.
    public func neighbors(withinRadiusMeters radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84) -> [Neighbor] {
        var results: [Neighbor] = []
        neighbors(withinRadiusMeters: radiusMeters, of: center, model: model, into: &results)
        return results
    }

    /// Appends the items within `radiusMeters` of `center` with their distances to `results`, the appended
    /// part sorted nearest first (ties by item index); returns the query's counters.
    /// - Complexity: O(√n + k log k) for k results on typical data.
    @discardableResult
    public func neighbors(
        withinRadiusMeters radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
        into results: inout [Neighbor]
    ) -> QueryStats {
        var stats = QueryStats()
        guard radiusMeters >= 0 else { return stats }
        let test = CircleTest(latitude: center.latitude, longitude: center.longitude, radiusMeters: radiusMeters, model: model)
        let start = results.count
        var visitor = CollectNeighborsWithinCircle(
            test: test, distances: DistanceFromPoint(model, latitude: center.latitude, longitude: center.longitude))
        swap(&visitor.results, &results)
        traverse(south: test.south, north: test.north, longitudes: test.longitudes, visitor: &visitor, stats: &stats)
        swap(&visitor.results, &results)
        results[start...].sort()
        stats.results = results.count - start
        return stats
    }
}

/// Appends the items of the bracket that are within the circle.
struct CollectWithinCircle: PointVisitor {
    let test: CircleTest
    var results: [Int] = []
    var count = 0

    @inline(__always)
    func containsWhole(_ node: PointIndex.Frame, south: Double, north: Double, west: Double, east: Double) -> Bool {
        test.containsWhole(node)
    }

    @inline(__always)
    mutating func visit(item: UInt32, longitude: Double, latitude: Double, stats: inout QueryStats) {
        if test.contains(latitude, longitude, exactChecks: &stats.exactChecks) {
            results.append(Int(item))
            count += 1
        }
    }

    @inline(__always)
    mutating func accept(item: UInt32) {
        results.append(Int(item))
        count += 1
    }
}

/// Appends the items of the bracket that are within the circle, with their exact distances.
struct CollectNeighborsWithinCircle: PointVisitor {
    let test: CircleTest
    /// Exact distances from the centre (its own trigonometry done once): `measure`'s bits.
    let distances: DistanceFromPoint
    var results: [Neighbor] = []

    /// Every result needs its exact distance, so no node is taken whole.
    func containsWhole(_ node: PointIndex.Frame, south: Double, north: Double, west: Double, east: Double) -> Bool { false }

    @inline(__always)
    mutating func visit(item: UInt32, longitude: Double, latitude: Double, stats: inout QueryStats) {
        let h = test.haversine(latitude, longitude)
        if h > test.rejectHaversine { return }
        // Only near the edge can the chord bound rule an item out before its exact distance is needed.
        if h > test.acceptHaversine, test.chordDecision(latitude, longitude, haversine: h) == false { return }
        stats.exactChecks += 1
        let distance = distances.meters(toLatitude: latitude, longitude: longitude)
        if distance <= test.radiusMeters { results.append(Neighbor(item: Int(item), distanceMeters: distance)) }
    }

    mutating func accept(item: UInt32) {}
}
