#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DynamicFeatureIndex {
    /// The current features that meet `box` (edges inclusive; across the antimeridian when west > east) and pass
    /// `filter`, as `FeatureIndex.search(in:filter:stats:)` decides (shapes by their geometry, other features by
    /// their location), in the order of the current features (see the type's notes).
    /// - Complexity: O(√n + k log k + d) for k base candidates in the box and d delta slots, plus the shapes' parts
    ///   whose extent meets the box and their vertices.
    public func search(in box: BoundingBox, filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        var hits: [DynamicHit] = []
        for hit in base.search(in: box, filter: filter, stats: &stats) where !isRemoved(basePosition: hit.item) {
            hits.append(DynamicHit(feature: base.features[hit.item], distanceMeters: nil))
        }
        var slots = deltaSlots(locatedIn: box, filter: filter, skippingShapes: true, stats: &stats)
        var fromShapes = false
        for (slot, shape) in deltaShapes(filter) {
            stats.candidates += 1
            stats.exactChecks += 1
            if shape.intersects(box) {
                slots.append(slot)
                fromShapes = true
            }
        }
        if fromShapes { slots.sort() }
        for slot in slots { if let feature = delta[slot] { hits.append(DynamicHit(feature: feature, distanceMeters: nil)) } }
        return hits
    }

    /// The current features within `radiusMeters` of `center` (a feature at exactly the radius is inside) that
    /// pass `filter`, measured as `FeatureIndex.within(radiusMeters:of:model:filter:stats:)` measures (a feature
    /// with a shape to its shape), nearest first, ties in the order of the current features.
    /// - Complexity: O(√n + k log k + d) for k base candidates in the circle and d delta slots, plus the base's
    ///   shape parts within reach (see `FeatureShapeIndex`) and a boundary search per shape measured.
    public func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        var neighbors: [Neighbor] = []
        stats.add(base.points.neighbors(withinRadiusMeters: radiusMeters, of: center, model: model, into: &neighbors))
        let shapes = base.shapes.index
        var fromBase: [Neighbor]
        if shapes.shapeCount == 0 {
            fromBase = neighbors.filter { !isRemoved(basePosition: $0.item) && passes(base.features[$0.item], filter) }
        } else {
            // A shaped feature is measured to its shape, not to its representative point (as `FeatureIndex`).
            fromBase = neighbors.filter {
                !isRemoved(basePosition: $0.item) && !shapes.hasShape($0.item) && passes(base.features[$0.item], filter)
            }
            fromBase += shapes.neighbors(withinMeters: radiusMeters, of: center, features: base.features,
                                         where: { !isRemoved(basePosition: $0) && passes(base.features[$0], filter) },
                                         stats: &stats)
            fromBase.sort()
        }
        var fromDelta: [Neighbor] = []
        if radiusMeters >= 0 {
            var exactChecks = 0
            stats.candidates += scanDelta(around: center, withinMeters: radiusMeters, model: model) { slot, lowerBound in
                guard lowerBound <= radiusMeters, let feature = delta[slot], feature.shape == nil, passes(feature, filter) else { return }
                exactChecks += 1
                // From the centre to the feature: the direction `PointIndex` measures.
                let distance = measure(model, center.latitude, center.longitude, feature.location.latitude, feature.location.longitude)
                if distance <= radiusMeters { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: distance)) }
            }
            for (slot, shape) in deltaShapes(filter) {
                stats.candidates += 1
                guard ShapeBoundaryDistance.lowerBoundMeters(from: center, toPartsOf: shape) <= radiusMeters else { continue }
                exactChecks += 1
                let distance = ShapeBoundaryDistance.metersToShape(from: center, to: shape)
                if distance <= radiusMeters { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: distance)) }
            }
            stats.exactChecks += exactChecks
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
    /// lists are merged, so the answer is exact. A feature with a shape is measured to its shape, as
    /// `FeatureIndex.nearest` measures it: the base's shapes from its extent tree (the same walk), the delta's by a
    /// lower bound on their parts' extents, then exactly.
    /// - Complexity: O((log n + m) log n + d log d) for m base features examined and d delta slots, plus the
    ///   shape parts opened and a boundary search per shape measured.
    public func nearest(to point: Coordinate, count: Int, maxDistanceMeters: Double? = nil, model: DistanceModel = .wgs84,
                        filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        guard count > 0 else { return [] }
        let limit = maxDistanceMeters ?? .infinity
        var fromBase = nearestInBase(to: point, count: count, maxDistanceMeters: maxDistanceMeters, model: model,
                                     filter: filter, stats: &stats)
        let shapes = base.shapes.index
        if shapes.shapeCount > 0 {
            // The base's shapes, measured to the shape, from the same walk `FeatureIndex.nearest` takes.
            let fromShapes = FeatureIndex.shapeNeighbors(
                of: shapes, nearest: point, count: count, maxDistanceMeters: maxDistanceMeters, after: fromBase,
                features: base.features, where: { !isRemoved(basePosition: $0) && passes(base.features[$0], filter) },
                stats: &stats)
            fromBase = FeatureIndex.merged(fromBase, fromShapes, limit: count)
        }

        // Delta: only features that could beat the base's count-th (or the limit) matter; take them in order of a
        // distance lower bound and stop once the bound exceeds the count-th exact distance found.
        var threshold = limit
        if fromBase.count == count, let worst = fromBase.last { threshold = min(threshold, worst.distanceMeters) }
        var candidates: [(lowerBound: Double, slot: Int)] = []
        if threshold >= 0 {
            stats.candidates += scanDelta(around: point, withinMeters: threshold, model: model) { slot, lowerBound in
                guard lowerBound <= threshold, let feature = delta[slot], feature.shape == nil, passes(feature, filter) else { return }
                candidates.append((lowerBound, slot))
            }
            for (slot, shape) in deltaShapes(filter) {
                stats.candidates += 1
                let lowerBound = ShapeBoundaryDistance.lowerBoundMeters(from: point, toPartsOf: shape)
                if lowerBound <= threshold { candidates.append((lowerBound, slot)) }
            }
        }
        candidates.sort { ($0.lowerBound, $0.slot) < ($1.lowerBound, $1.slot) }
        var fromDelta: [Neighbor] = []
        for candidate in candidates {
            if fromDelta.count == count, let worst = fromDelta.last, candidate.lowerBound > worst.distanceMeters { break }
            guard let feature = delta[candidate.slot] else { continue }
            stats.exactChecks += 1
            let distance = feature.shape.map { ShapeBoundaryDistance.metersToShape(from: point, to: $0) }
                ?? measure(model, point.latitude, point.longitude, feature.location.latitude, feature.location.longitude)
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

    /// The current features that contain `point` and pass `filter`, as `FeatureIndex.containing` decides: polygon
    /// shapes that cover it (distance 0), then circles of features without a shape, nearest centre first; ties in
    /// the order of the current features.
    /// - Complexity: O(√n + k log k + d) for k base candidate circles and d delta slots (see `CircleIndex`), plus
    ///   the polygon parts whose extent holds the point and their vertices.
    public func containing(_ point: Coordinate, model: DistanceModel = .wgs84, filter: FeatureFilter = .all,
                           stats: inout QueryStats) -> [DynamicHit] {
        var found: [Int] = []
        if base.circlesReadable { stats.add(base.circles.containing(point, model: model, into: &found)) }
        var fromBase: [Neighbor] = []
        for circle in found {
            let item = Int(base.circleItems[circle])
            guard !isRemoved(basePosition: item) else { continue }
            let feature = base.features[item]
            guard feature.shape == nil, passes(feature, filter) else { continue }
            fromBase.append(Neighbor(item: item, distanceMeters: distanceMeters(from: feature.location, to: point, model: model)))
        }
        for item in base.shapes.index.candidates(covering: point, stats: &stats) where !isRemoved(basePosition: item) {
            let feature = base.features[item]
            guard let shape = feature.shape, shape.kind.isAreal, passes(feature, filter) else { continue }
            stats.exactChecks += 1
            if shape.covers(point) { fromBase.append(Neighbor(item: item, distanceMeters: 0)) }
        }
        fromBase.sort()
        var fromDelta: [Neighbor] = []
        let bounds = DistanceBounds(model)
        let cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        deltaGeometry.withUnsafeBufferPointer { geometry in
            for slot in delta.indices {
                let g = DeltaGeometry.stride * slot
                let latitude = geometry[g + DeltaGeometry.latitude], radius = geometry[g + DeltaGeometry.radiusMeters]
                // No radius, or the point's latitude is farther than any point of the circle (a dead slot's NaN fails).
                guard radius > 0, abs(latitude - point.latitude) <= Self.reachDegrees(radius, bounds) else { continue }
                stats.candidates += 1
                let longitude = geometry[g + DeltaGeometry.longitude]
                let h = Self.haversine(latitude, longitude, geometry[g + DeltaGeometry.cosLatitude],
                                       point.latitude, point.longitude, cosLatitude)
                guard bounds.lowerBoundMeters(haversine: h) <= radius, let feature = delta[slot], feature.shape == nil,
                      passes(feature, filter) else { continue }
                stats.exactChecks += 1
                // From the circle's centre to the point: the direction `Circle.contains` measures.
                let distance = measure(model, latitude, longitude, point.latitude, point.longitude)
                if distance <= radius { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: distance)) }
            }
        }
        for (slot, shape) in deltaShapes(filter) where shape.kind.isAreal {
            stats.candidates += 1
            stats.exactChecks += 1
            if shape.covers(point) { fromDelta.append(Neighbor(item: base.count + slot, distanceMeters: 0)) }
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
        return locations(in: box, filter: filter, stats: &stats).filter { hit in
            // The cell's box is closed; points on its north or east edge belong to the next cell.
            (try? Geohash.encode(hit.feature.location, precision: normalized.count)) == normalized
        }
    }

    /// The current features whose geometry meets `query` and that pass `filter`, as
    /// `FeatureIndex.intersecting(_:filter:stats:)` decides, in the order of the current features.
    /// - Complexity: that of `FeatureIndex.intersecting` on the base, plus O(d) delta slots (each shape among them
    ///   tested exactly).
    public func intersecting(_ query: Shape, filter: FeatureFilter = .all, stats: inout QueryStats) -> [DynamicHit] {
        var hits: [DynamicHit] = []
        for hit in base.intersecting(query, filter: filter, stats: &stats) where !isRemoved(basePosition: hit.item) {
            hits.append(DynamicHit(feature: base.features[hit.item], distanceMeters: nil))
        }
        for case let feature? in delta where passes(feature, filter) {
            stats.candidates += 1
            stats.exactChecks += 1
            if query.intersects(feature.shape ?? Shape(point: feature.location)) {
                hits.append(DynamicHit(feature: feature, distanceMeters: nil))
            }
        }
        return hits
    }

    /// The current features whose location is inside `box` (shapes by their representative point) that pass
    /// `filter`, in the order of the current features: what a geohash prefix asks.
    /// - Complexity: O(√n + k log k + d) for k base candidates in the box and d delta slots.
    private func locations(in box: BoundingBox, filter: FeatureFilter, stats: inout QueryStats) -> [DynamicHit] {
        var hits: [DynamicHit] = []
        for hit in base.locations(in: box, filter: filter, stats: &stats) where !isRemoved(basePosition: hit.item) {
            hits.append(DynamicHit(feature: base.features[hit.item], distanceMeters: nil))
        }
        for slot in deltaSlots(locatedIn: box, filter: filter, skippingShapes: false, stats: &stats) {
            if let feature = delta[slot] { hits.append(DynamicHit(feature: feature, distanceMeters: nil)) }
        }
        return hits
    }

    /// The live delta slots whose location is inside `box` and whose feature passes `filter` (and has no shape,
    /// when `skippingShapes`), ascending.
    /// - Complexity: O(d) for d delta slots.
    private func deltaSlots(locatedIn box: BoundingBox, filter: FeatureFilter, skippingShapes: Bool,
                            stats: inout QueryStats) -> [Int] {
        var slots: [Int] = []
        let longitudes = box.longitudeRanges
        deltaGeometry.withUnsafeBufferPointer { geometry in
            for slot in delta.indices {
                let g = DeltaGeometry.stride * slot
                // The same test as `BoundingBox.contains`; a dead slot's NaN latitude fails it.
                let latitude = geometry[g + DeltaGeometry.latitude]
                guard latitude >= box.south, latitude <= box.north, longitudes.contains(geometry[g + DeltaGeometry.longitude]) else { continue }
                stats.candidates += 1
                if let feature = delta[slot], !(skippingShapes && feature.shape != nil), passes(feature, filter) { slots.append(slot) }
            }
        }
        return slots
    }

    /// The base's live features nearest to `point` that pass `filter`, at most `count`, nearest first, ties by
    /// base position: repeated base searches with a doubled count until enough survive or the base is exhausted.
    private func nearestInBase(to point: Coordinate, count: Int, maxDistanceMeters: Double?, model: DistanceModel,
                               filter: FeatureFilter, stats: inout QueryStats) -> [Neighbor] {
        guard base.count > tombstoneCount else { return [] }
        var scratch = NearestScratch()
        // Shaped features are measured to their shapes by the caller; no test per point when there are none.
        let shapes = base.shapes.index
        let withoutShape: ((Int) -> Bool)? = shapes.shapeCount == 0 ? nil : { !shapes.hasShape($0) }
        var request = min(base.count, count)
        var neighbors: [Neighbor] = []
        while true {
            neighbors.removeAll(keepingCapacity: true)
            stats.add(base.points.nearest(to: point, count: request, maxDistance: maxDistanceMeters, model: model,
                                          into: &neighbors, scratch: &scratch, where: withoutShape))
            let live = neighbors.lazy.filter { !self.isRemoved(basePosition: $0.item) && self.passes(self.base.features[$0.item], filter) }
            let best = Array(live.prefix(count))
            if best.count == count || neighbors.count < request || request >= base.count { return best }
            request = min(base.count, request * 2)
        }
    }

    /// Calls `body(slot, lowerBoundMeters)` for each live delta slot whose latitude is close enough to `center`'s
    /// for its distance to be at most `thresholdMeters` (every live slot when the threshold is infinite), with a
    /// lower bound on that distance: the scan touches only the flat geometry, not the features. Returns the
    /// number of slots passed to `body`.
    private func scanDelta(around center: Coordinate, withinMeters thresholdMeters: Double, model: DistanceModel,
                           _ body: (Int, Double) -> Void) -> Int {
        var candidates = 0
        let bounds = DistanceBounds(model)
        let reach = Self.reachDegrees(thresholdMeters, bounds)
        let cosLatitude = cos(center.latitude * Spherical.radiansPerDegree)
        deltaGeometry.withUnsafeBufferPointer { geometry in
            for slot in delta.indices {
                let g = DeltaGeometry.stride * slot
                let latitude = geometry[g + DeltaGeometry.latitude]
                // The central angle is at least the latitude difference; a dead slot's NaN latitude fails too.
                guard abs(latitude - center.latitude) <= reach else { continue }
                candidates += 1
                let h = Self.haversine(center.latitude, center.longitude, cosLatitude,
                                       latitude, geometry[g + DeltaGeometry.longitude], geometry[g + DeltaGeometry.cosLatitude])
                body(slot, bounds.lowerBoundMeters(haversine: h))
            }
        }
        return candidates
    }

    /// The largest latitude difference, in degrees, two points at most `meters` apart can have under `bounds`
    /// (the central angle is at least the latitude difference), widened against rounding; infinite for infinity.
    @inline(__always)
    static func reachDegrees(_ meters: Double, _ bounds: DistanceBounds) -> Double {
        bounds.outerAngle(radiusMeters: meters) / Spherical.radiansPerDegree * (1 + 1e-9) + 1e-9
    }

    /// `Spherical.haversine` with both cosines of latitude given.
    @inline(__always)
    static func haversine(_ latitude1: Double, _ longitude1: Double, _ cosLatitude1: Double,
                          _ latitude2: Double, _ longitude2: Double, _ cosLatitude2: Double) -> Double {
        let sinHalfDLat = sin((latitude2 - latitude1) * (Spherical.radiansPerDegree / 2))
        let sinHalfDLon = sin((longitude2 - longitude1) * (Spherical.radiansPerDegree / 2))
        return sinHalfDLat * sinHalfDLat + cosLatitude1 * cosLatitude2 * sinHalfDLon * sinHalfDLon
    }

    /// The live delta slots with a shape whose feature passes `filter`, ascending, with their shapes.
    /// - Complexity: O(s) for s slots that held a shape when upserted.
    private func deltaShapes(_ filter: FeatureFilter) -> [(slot: Int, shape: Shape)] {
        deltaShapeSlots.compactMap { slot in
            guard let feature = delta[slot], let shape = feature.shape, passes(feature, filter) else { return nil }
            return (slot, shape)
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
