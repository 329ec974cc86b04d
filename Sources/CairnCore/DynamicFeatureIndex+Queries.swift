extension DynamicFeatureIndex {
    /// The current features inside `box` (edges inclusive; across the antimeridian when west > east) that pass
    /// `filter`, in the order of the current features (see the type's notes).
    /// - Complexity: O(√n + k log k + d) for k base candidates in the box and d delta slots.
    public func search(in box: BoundingBox, filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        var items: [Int] = []
        stats.add(base.points.search(in: box, into: &items))
        items.sort()
        var hits: [DynamicHit] = []
        for item in items where !isRemoved(basePosition: item) {
            let feature = base.features[item]
            if filter.acceptsAll || filter.matches(feature) { hits.append(DynamicHit(feature: feature, distanceMeters: nil)) }
        }
        for case let feature? in delta {
            stats.candidates += 1
            if box.contains(feature.location), filter.acceptsAll || filter.matches(feature) {
                hits.append(DynamicHit(feature: feature, distanceMeters: nil))
            }
        }
        return hits
    }

    /// The current features within `radiusMeters` of `center` under `model` (a feature at exactly the radius
    /// is inside) that pass `filter`, nearest first, ties in the order of the current features.
    /// - Complexity: O(√n + k log k + d) for k base candidates in the circle and d delta slots.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        var neighbors: [Neighbor] = []
        stats.add(base.points.neighbors(withinRadiusMeters: radiusMeters, of: center, model: model, into: &neighbors))
        let fromBase = neighbors.filter { !isRemoved(basePosition: $0.item) && passes(base.features[$0.item], filter) }
        var fromDelta: [Neighbor] = []
        if radiusMeters >= 0 {
            let bounds = DistanceBounds(model)
            for (slot, entry) in delta.enumerated() {
                guard let feature = entry, passes(feature, filter) else { continue }
                stats.candidates += 1
                let location = feature.location
                let h = Spherical.haversine(center.latitude, center.longitude, location.latitude, location.longitude)
                if bounds.lowerBoundMeters(haversine: h) > radiusMeters { continue }
                stats.exactChecks += 1
                // From the centre to the feature: the direction `PointIndex` measures.
                let distance = measure(model, center.latitude, center.longitude, location.latitude, location.longitude)
                if distance <= radiusMeters { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: distance)) }
            }
            fromDelta.sort()
        }
        return hits(merging: fromBase, fromDelta, limit: .max)
    }

    /// The `count` current features nearest to `point` that pass `filter`, at most `maxDistanceMeters` away
    /// when given, nearest first, ties in the order of the current features.
    ///
    /// The base is asked for `count` neighbours, then twice as many until enough survive the tombstones and
    /// the filter or the base is exhausted; the delta's best `count` are found by scanning it in order of a
    /// distance lower bound and stopping once the bound exceeds the `count`-th exact distance. The two sorted
    /// lists are merged, so the answer is exact.
    /// - Complexity: O((log n + m) log n + d log d) for m base features examined and d delta slots.
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        guard count > 0 else { return [] }
        let limit = maxDistanceMeters ?? .infinity
        let fromBase = nearestInBase(to: point, count: count, maxDistanceMeters: maxDistanceMeters, model: model,
                                     filter: filter, stats: &stats)

        // Delta: candidates by lower bound, then exact distances in that order until no candidate can enter.
        var candidates: [(lowerBound: Double, slot: Int)] = []
        let bounds = DistanceBounds(model)
        for (slot, entry) in delta.enumerated() {
            guard let feature = entry, passes(feature, filter) else { continue }
            stats.candidates += 1
            let h = Spherical.haversine(point.latitude, point.longitude, feature.location.latitude, feature.location.longitude)
            let lowerBound = bounds.lowerBoundMeters(haversine: h)
            if lowerBound <= limit { candidates.append((lowerBound, slot)) }
        }
        candidates.sort { ($0.lowerBound, $0.slot) < ($1.lowerBound, $1.slot) }
        var fromDelta: [Neighbor] = []
        for candidate in candidates {
            if fromDelta.count == count, let worst = fromDelta.last, candidate.lowerBound > worst.distanceMeters { break }
            guard let location = delta[candidate.slot]?.location else { continue }
            stats.exactChecks += 1
            let distance = measure(model, point.latitude, point.longitude, location.latitude, location.longitude)
            guard distance <= limit else { continue }
            let neighbor = Neighbor(item: base.count + candidate.slot, distanceMeters: distance)
            if fromDelta.count == count, let worst = fromDelta.last, !(neighbor < worst) { continue }
            var position = fromDelta.count
            while position > 0, neighbor < fromDelta[position - 1] { position -= 1 }
            fromDelta.insert(neighbor, at: position)
            if fromDelta.count > count { fromDelta.removeLast() }
        }
        return hits(merging: fromBase, fromDelta, limit: count)
    }

    /// The current features with a radius whose circle contains `point` (distance from the centre <= radius,
    /// edges inclusive) and that pass `filter`, nearest centre first, ties in the order of the current features.
    /// - Complexity: O(√n + k log k + d) for k base candidate circles and d delta slots (see `CircleIndex`).
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all,
                           stats: inout QueryStats) -> [DynamicHit] {
        var found: [Int] = []
        stats.add(base.circles.containing(point, model: model, into: &found))
        var fromBase: [Neighbor] = []
        for circle in found {
            let item = base.circleItems[circle]
            guard !isRemoved(basePosition: item) else { continue }
            let feature = base.features[item]
            guard passes(feature, filter) else { continue }
            fromBase.append(Neighbor(item: item, distanceMeters: distanceMeters(from: feature.location, to: point, model: model)))
        }
        fromBase.sort()
        var fromDelta: [Neighbor] = []
        let bounds = DistanceBounds(model)
        for (slot, entry) in delta.enumerated() {
            guard let feature = entry, let radius = feature.radiusMeters, passes(feature, filter) else { continue }
            stats.candidates += 1
            let location = feature.location
            let h = Spherical.haversine(location.latitude, location.longitude, point.latitude, point.longitude)
            if bounds.lowerBoundMeters(haversine: h) > radius { continue }
            stats.exactChecks += 1
            // From the circle's centre to the point: the direction `Circle.contains` measures.
            let distance = measure(model, location.latitude, location.longitude, point.latitude, point.longitude)
            if distance <= radius { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: distance)) }
        }
        fromDelta.sort()
        return hits(merging: fromBase, fromDelta, limit: .max)
    }

    /// The current features whose location encodes to a geohash starting with `prefix`, in the order of the
    /// current features.
    /// - Throws: `GeohashError` for an invalid prefix.
    /// - Complexity: O(√n + k log k + d) for k base candidates in the prefix's cell and d delta slots.
    public func withGeohashPrefix(_ prefix: String, filter: FeatureFilter = .all,
                                  stats: inout QueryStats) throws(GeohashError) -> [DynamicHit] {
        let cell = try Geohash.decode(prefix)
        let normalized = prefix.lowercased()
        guard let box = try? BoundingBox(west: cell.west, south: cell.south, east: cell.east, north: cell.north) else { return [] }
        return search(in: box, filter: filter, stats: &stats).filter { hit in
            // The cell's box is closed; points on its north or east edge belong to the next cell.
            (try? Geohash.encode(hit.feature.location, precision: normalized.count)) == normalized
        }
    }

    /// The base's live features nearest to `point` that pass `filter`, at most `count`, nearest first, ties by
    /// base position: repeated base searches with a doubled count until enough survive or the base is exhausted.
    private func nearestInBase(to point: Coordinate, count: Int, maxDistanceMeters: Double?, model: DistanceModel,
                               filter: FeatureFilter, stats: inout QueryStats) -> [Neighbor] {
        guard base.count > tombstoneCount else { return [] }
        var scratch = NearestScratch()
        var request = min(base.count, count)
        var neighbors: [Neighbor] = []
        while true {
            neighbors.removeAll(keepingCapacity: true)
            stats.add(base.points.nearest(to: point, count: request, maxDistance: maxDistanceMeters, model: model,
                                          into: &neighbors, scratch: &scratch))
            let live = neighbors.lazy.filter { !self.isRemoved(basePosition: $0.item) && self.passes(self.base.features[$0.item], filter) }
            let best = Array(live.prefix(count))
            if best.count == count || neighbors.count < request || request >= base.count { return best }
            request = min(base.count, request * 2)
        }
    }

    /// Whether `feature` passes `filter`, skipping the check for the accept-all filter.
    @inline(__always)
    private func passes(_ feature: Feature, _ filter: FeatureFilter) -> Bool {
        filter.acceptsAll || filter.matches(feature)
    }

    /// Merges two lists sorted by (distance, rank), where a rank below `base.count` is a base position and
    /// one above is `base.count` plus a delta slot, into at most `limit` hits; ranks follow the order of the
    /// current features, so this is the order a fresh `FeatureIndex` would give.
    private func hits(merging first: [Neighbor], _ second: [Neighbor], limit: Int) -> [DynamicHit] {
        var hits: [DynamicHit] = []
        hits.reserveCapacity(min(limit, first.count + second.count))
        var i = 0, j = 0
        while hits.count < limit, i < first.count || j < second.count {
            let next: Neighbor
            if j == second.count || (i < first.count && first[i] < second[j]) {
                next = first[i]
                i += 1
            } else {
                next = second[j]
                j += 1
            }
            if next.item < base.count {
                hits.append(DynamicHit(feature: base.features[next.item], distanceMeters: next.distanceMeters))
            } else if let feature = delta[next.item - base.count] {
                hits.append(DynamicHit(feature: feature, distanceMeters: next.distanceMeters))
            }
        }
        return hits
    }
}
