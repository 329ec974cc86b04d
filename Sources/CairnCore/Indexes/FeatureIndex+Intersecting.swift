extension FeatureIndex {
    /// The features whose geometry meets `query` (a drawn polygon, a route line) and that pass `filter`, in
    /// ascending item order: a feature with a shape when the two shapes share a point (`Shape.intersects`), one
    /// without when its location lies on or in `query`. Planar in longitude and latitude, exact, the boundary
    /// inside, as `containing` and `search(in:)` decide.
    ///
    /// Candidates come from the point tree and the shapes' extent tree, searched with the box of each part of
    /// `query`; each is then decided exactly by Cairn's own predicates (no GEOS: the same edge rule as the other
    /// queries, and a query does not load the C++ runtime).
    /// - Complexity: O(Σ over query parts of (√n + k log k)) for k candidates, plus O(v · w) per candidate shape of
    ///   w vertices against the query's v.
    public func intersecting(_ query: Shape, filter: FeatureFilter = .all, stats: inout QueryStats) -> [QueryHit] {
        var entries: [ShapeExtentIndex.Entry] = []
        query.appendPartExtents(item: 0, to: &entries)
        let shapes = self.shapes.index
        var pointItems: [Int] = [], shapeItems: [Int] = []
        for entry in entries {
            let box = BoundingBox(unchecked: entry.west, entry.south, entry.east, entry.north)
            stats.add(points.search(in: box, into: &pointItems))
            shapeItems += shapes.candidates(in: box, stats: &stats)
        }
        FeatureShapeIndex.sortAndRemoveDuplicates(&pointItems)
        FeatureShapeIndex.sortAndRemoveDuplicates(&shapeItems)
        var items: [Int] = []
        for item in pointItems where !shapes.hasShape(item) {
            let feature = features[item]
            guard filter.acceptsAll || filter.matches(feature) else { continue }
            stats.exactChecks += 1
            if query.intersects(Shape(point: feature.location)) { items.append(item) }
        }
        for item in shapeItems {
            let feature = features[item]
            guard let shape = feature.shape, filter.acceptsAll || filter.matches(feature) else { continue }
            stats.exactChecks += 1
            if query.intersects(shape) { items.append(item) }
        }
        items.sort()
        return items.map { QueryHit(item: $0, distanceMeters: nil) }
    }
}
