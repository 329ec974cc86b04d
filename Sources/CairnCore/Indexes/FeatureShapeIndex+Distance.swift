extension FeatureShapeIndex {
    /// The shaped features within `radiusMeters` of `point` that `isIncluded` accepts, measured to the shape
    /// (`ShapeBoundaryDistance.metersToShape`: 0 inside a polygon), sorted by distance then position. Parts come
    /// from the extent tree in order of their lower bound and stop at the first beyond the radius; a shape of
    /// several parts (a country split at ±180) is measured once, whole. `FeatureIndex.within` and
    /// `DynamicFeatureIndex.within` both take their base's shapes from here.
    /// - Complexity: O(log p) per part whose bound is within the radius, plus a containment test and a boundary
    ///   search per feature among them (see `ShapeBoundaryDistance`).
    func neighbors(withinMeters radiusMeters: Double, of point: Coordinate, features: FeatureList,
                   where isIncluded: (Int) -> Bool, stats: inout QueryStats) -> [Neighbor] {
        var found: [Neighbor] = []
        // A NaN or negative radius holds nothing (as `PointIndex`); the walk would otherwise never stop.
        guard shapeCount > 0, radiusMeters >= 0 else { return found }
        var measured = Set<Int>()
        var parts = extents.partsByDistance(from: point)
        while let (item, lowerBound) = parts.next(), lowerBound <= radiusMeters {
            stats.candidates += 1
            guard measured.insert(item).inserted, isIncluded(item), let shape = features[item].shape else { continue }
            stats.exactChecks += 1
            let meters = ShapeBoundaryDistance.metersToShape(from: point, to: shape)
            if meters <= radiusMeters { found.append(Neighbor(item: item, distanceMeters: meters)) }
        }
        stats.nodesVisited += parts.nodesVisited
        stats.results += found.count
        found.sort()
        return found
    }

    /// The `count` shaped features nearest to `point` that `isIncluded` accepts and whose distance to the shape
    /// (`ShapeBoundaryDistance.metersToShape`) is at most `limitMeters`, nearest first, ties by position. Parts come
    /// in order of their lower bound; the walk stops at the first whose bound exceeds the `count`-th distance found
    /// (or the limit), so a caller that already holds `count` point neighbours passes the farthest as the limit and
    /// gets only the shapes that can displace one. Each feature is measured once, at its nearest part.
    /// - Complexity: O(log p) per part opened, plus a containment test and a boundary search per feature measured.
    func nearest(to point: Coordinate, count: Int, limitMeters: Double, features: FeatureList,
                 where isIncluded: (Int) -> Bool, stats: inout QueryStats) -> [Neighbor] {
        var found: [Neighbor] = []
        guard shapeCount > 0, count > 0, limitMeters >= 0 else { return found }
        var measured = Set<Int>()
        var parts = extents.partsByDistance(from: point)
        while let (item, lowerBound) = parts.next() {
            // Strictly beyond: a shape at exactly the k-th distance may still win its tie by position.
            if lowerBound > limitMeters { break }
            if found.count == count, let worst = found.last, lowerBound > worst.distanceMeters { break }
            stats.candidates += 1
            guard measured.insert(item).inserted, isIncluded(item), let shape = features[item].shape else { continue }
            stats.exactChecks += 1
            let neighbor = Neighbor(item: item, distanceMeters: ShapeBoundaryDistance.metersToShape(from: point, to: shape))
            guard neighbor.distanceMeters <= limitMeters else { continue }
            if found.count == count, let worst = found.last, !(neighbor < worst) { continue }
            found.insert(neighbor, at: found.firstIndex { neighbor < $0 } ?? found.count)
            if found.count > count { found.removeLast() }
        }
        stats.nodesVisited += parts.nodesVisited
        stats.results += found.count
        return found
    }
}
