#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension CheckInValidator {
    /// Matches a point-only check-in (no event, no place named) by containment.
    ///
    /// The candidates are the places whose circle contains the point (`CircleIndex.containing`, exact, edge
    /// inclusive; with `accuracyMeters` above 0, the lenient policy's `distance − accuracy <= radius`) and the
    /// places whose area covers it (`Shape.covers`, boundary inside; with `accuracyMeters` above 0, also those
    /// whose boundary is at most that far: every area's extent is then bounded). Places
    /// with an event ongoing at the time (`start <= time < end`) are preferred, and when joins are required,
    /// places with such an event the user joined before those; among equals, the nearest centre wins (exact
    /// model distance to the place's centre, for an area its representative point; ties to the lower place
    /// index). At that place the ongoing event that started last (the
    /// last the user joined, when joins are required and there is one) is named (ties to the lower event
    /// index), or none: a visit to the place. Joins, when required, apply to the event.
    /// - Complexity: one containment query, plus one geodesic per candidate when there are several.
    func match(latitude: Double, longitude: Double, seconds: Double, accuracyMeters: Double,
               user: UnsafeRawBufferPointer, scratch: inout [Int]) -> CheckInResult {
        scratch.removeAll(keepingCapacity: true)
        let point = Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        circles.containing(point, model: model, accuracyMeters: accuracyMeters, into: &scratch)
        if !placeShapes.isEmpty { addCoveringAreas(point, accuracyMeters: accuracyMeters, to: &scratch) }
        guard !scratch.isEmpty else { return CheckInResult(reason: .noMatch) }
        var bestPlace = -1, bestEvent = -1
        /// 2: an ongoing event the user joined (joins required); 1: an ongoing event; 0: none.
        var bestRank = -1
        var bestDistance = Double.infinity
        for place in scratch {
            var event = -1, rank = 0
            if requiresJoins {
                event = ongoingEvent(at: place, seconds: seconds) { hasJoined(event: $0, user: user) }
                if event >= 0 { rank = 2 }
            }
            if event < 0 {
                event = ongoingEvent(at: place, seconds: seconds)
                if event >= 0 { rank = 1 }
            }
            if rank < bestRank { continue }
            let distance = scratch.count == 1 ? 0
                : measure(model, placeData[Self.placeStride * place], placeData[Self.placeStride * place + 1], latitude, longitude)
            // Ascending place order: a strict improvement is needed to replace, so ties keep the lower index.
            if rank > bestRank || distance < bestDistance {
                bestPlace = place
                bestEvent = event
                bestRank = rank
                bestDistance = distance
            }
        }
        if bestRank == 1, requiresJoins {
            return CheckInResult(reason: .notJoined, place: Int32(bestPlace), event: Int32(bestEvent))
        }
        return CheckInResult(reason: nil, place: Int32(bestPlace), event: Int32(bestEvent))
    }

    /// With areas: maps the circle index's answers in `candidates` to places, and adds the places whose area
    /// covers `point` (or, with `accuracyMeters` above 0, whose boundary is at most that far), ascending.
    /// - Complexity: O(log p + k) extent lookups and one `Shape.covers` per area whose extent meets the point
    ///   (with an accuracy, the box of the accuracy's cap around it), plus a distance bound per such area not
    ///   covering it.
    func addCoveringAreas(_ point: Coordinate, accuracyMeters: Double, to candidates: inout [Int]) {
        for i in candidates.indices { candidates[i] = Int(circlePlaces[candidates[i]]) }
        // The areas found are appended after the circles' places and filtered in place: no array per check-in.
        let circleCount = candidates.count
        if accuracyMeters > 0 {
            // Every point within the accuracy lies in this box (the cap's latitude reach, and its tangent
            // meridians, or every longitude when the cap reaches a pole), and a part within the accuracy has a
            // point there, so its extent meets the box.
            let angle = DistanceBounds(.wgs84).outerAngle(radiusMeters: accuracyMeters)
            let reach = Spherical.latitudeReachDegrees(angle: angle)
            let south = max(-90, point.latitude - reach), north = min(90, point.latitude + reach)
            let cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
            if let halfWidth = Spherical.longitudeReachDegrees(angle: angle, latitude: point.latitude, cosLatitude: cosLatitude) {
                let west = point.longitude - halfWidth, east = point.longitude + halfWidth
                _ = shapeExtents.search(west: max(-180, west), south: south, east: min(180, east), north: north, into: &candidates)
                if west < -180 { _ = shapeExtents.search(west: west + 360, south: south, east: 180, north: north, into: &candidates) }
                if east > 180 { _ = shapeExtents.search(west: -180, south: south, east: east - 360, north: north, into: &candidates) }
            } else {
                _ = shapeExtents.search(west: -180, south: south, east: 180, north: north, into: &candidates)
            }
        } else {
            // At a pole every part reaching it, at ±180 parts at either meridian (as `FeatureShapeIndex`).
            if Swift.abs(point.latitude) == 90 {
                _ = shapeExtents.search(west: -180, south: point.latitude, east: 180, north: point.latitude, into: &candidates)
            } else if Swift.abs(point.longitude) == 180 {
                _ = shapeExtents.search(west: 180, south: point.latitude, east: 180, north: point.latitude, into: &candidates)
                _ = shapeExtents.search(west: -180, south: point.latitude, east: -180, north: point.latitude, into: &candidates)
            } else {
                _ = shapeExtents.search(west: point.longitude, south: point.latitude, east: point.longitude,
                                        north: point.latitude, into: &candidates)
            }
        }
        guard candidates.count > circleCount else { return }
        candidates[circleCount...].sort()
        var kept = circleCount, previous = -1
        for index in circleCount..<candidates.count {
            let place = candidates[index]
            guard place != previous else { continue }
            previous = place
            guard let shape = placeShapes[place], areaAccepts(shape, point, accuracyMeters: accuracyMeters) else { continue }
            candidates[kept] = place
            kept += 1
        }
        candidates.removeLast(candidates.count - kept)
        candidates.sort()
    }

    /// Whether a check-in at `point` counts as in `shape`: the shape covers it (boundary inside) or, with
    /// `accuracyMeters` above 0 (the lenient policy), its boundary is at most that far
    /// (`ShapeBoundaryDistance.meters`), decided by `ShapeBoundaryDistance.bracket` when it can.
    /// - Complexity: O(v) for the shape's v vertices, plus a distance search when the bracket straddles the accuracy.
    func areaAccepts(_ shape: Shape, _ point: Coordinate, accuracyMeters: Double) -> Bool {
        if shape.covers(point) { return true }
        guard accuracyMeters > 0 else { return false }
        if let bracket = ShapeBoundaryDistance.bracket(from: point, to: shape) {
            if bracket.upperMeters <= accuracyMeters { return true }
            if bracket.lowerMeters > accuracyMeters { return false }
        }
        return ShapeBoundaryDistance.meters(from: point, to: shape) - accuracyMeters <= 0
    }

    /// NaN when `shape` covers the point (boundary inside) or, with `accuracyMeters` above 0 (the lenient
    /// policy), when its boundary is at most that far; otherwise the geodesic distance to the boundary
    /// (`ShapeBoundaryDistance.meters`, within 0.1 mm), or, with `distancesForPrinting`, possibly another with the
    /// same millimetre ceiling.
    ///
    /// `ShapeBoundaryDistance.bracket` bounds that distance without a geodesic: the verdict is decided when the
    /// accuracy is not inside the bracket, and the printed millimetre when both ends (or the lower end and the
    /// seed vertex's distance, which `meters` measures first) have one ceiling (`CheckInMillimetres.ceiling` is
    /// monotone, so the distance between them prints the same). The rest, a point whose distance lies within
    /// `toleranceMeters` below a millimetre, is measured.
    ///
    /// `place` is the area's place: a point beyond its box (`placeAreaBoxes`) is not covered, without the crossing
    /// test (exactly `Shape.covers`' answer: every ring is closed there, so a ray from beyond the box crosses none or
    /// an even number of edges, and touches none), except at ±180 and at a pole, where `covers` has rules of its own.
    /// - Complexity: O(v) for the shape's v vertices, plus the distance search when the bracket does not decide.
    func outsideAreaDistance(_ shape: Shape, place: Int, latitude: Double, longitude: Double, accuracyMeters: Double) -> Double {
        let point = Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        let beyondBox = placeAreaBoxes.withUnsafeBufferPointer { boxes in
            let base = 4 * place
            return Swift.abs(latitude) != 90 && Swift.abs(longitude) != 180
                && (longitude < boxes[base] || latitude < boxes[base + 1] || longitude > boxes[base + 2] || latitude > boxes[base + 3])
        }
        if !beyondBox, shape.covers(point) { return .nan }
        // The seed vertex's distance when measured here: the search below measures that vertex first, the same
        // call, so it is handed over rather than measured twice.
        var seedMeters: Double?
        if distancesForPrinting || accuracyMeters > 0, let bracket = ShapeBoundaryDistance.bracket(from: point, to: shape) {
            if accuracyMeters > 0, bracket.upperMeters <= accuracyMeters { return .nan }
            if distancesForPrinting, accuracyMeters <= 0 || bracket.lowerMeters > accuracyMeters,
               let printed = CheckInMillimetres.ceiling(bracket.lowerMeters) {
                if CheckInMillimetres.ceiling(bracket.upperMeters) == printed { return bracket.upperMeters }
                let seed = bracket.seedMeters(from: point)
                if seed < bracket.upperMeters, CheckInMillimetres.ceiling(seed) == printed { return seed }
                seedMeters = seed
            }
        }
        let distance = ShapeBoundaryDistance.nearest(from: point, to: shape, seedMeters: seedMeters).meters
        return accuracyMeters > 0 && distance - accuracyMeters <= 0 ? .nan : distance
    }

    /// The event at `place` ongoing at `seconds` that started last among those `isIncluded` accepts (ties: the
    /// lower index), or -1.
    /// - Complexity: O(log k + m) for k events at the place, m of them started by then.
    func ongoingEvent(at place: Int, seconds: Double, where isIncluded: ((Int) -> Bool)? = nil) -> Int {
        let lower = Int(placeEventStarts[place]), upper = Int(placeEventStarts[place + 1])
        // First position whose event starts after `seconds`.
        var low = lower, high = upper
        while low < high {
            let mid = (low + high) / 2
            if eventRecords[Int(placeEvents[mid])].start <= seconds { low = mid + 1 } else { high = mid }
        }
        var best = -1
        var bestStart = -Double.infinity
        var position = low - 1
        while position >= lower {
            let event = Int(placeEvents[position])
            let start = eventRecords[event].start
            if best >= 0, start < bestStart { break }
            if seconds < eventRecords[event].end, isIncluded?(event) ?? true {
                // Same start as the best so far: positions sharing a start are in index order, so the lower
                // index comes later in this backwards scan.
                best = event
                bestStart = start
            }
            position -= 1
        }
        return best
    }
}
