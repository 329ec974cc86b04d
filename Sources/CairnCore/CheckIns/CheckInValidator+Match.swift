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
    /// - Complexity: O(log p + k) extent lookups and one `Shape.covers` per area whose extent holds the point;
    ///   with an accuracy, O(v) for the v vertices of every area (each extent is bounded).
    func addCoveringAreas(_ point: Coordinate, accuracyMeters: Double, to candidates: inout [Int]) {
        for i in candidates.indices { candidates[i] = Int(circlePlaces[candidates[i]]) }
        var found: [Int] = []
        if accuracyMeters > 0 {
            for place in placeShapes.indices {
                guard let shape = placeShapes[place],
                      ShapeBoundaryDistance.lowerBoundMeters(from: point, to: shape.extent) <= accuracyMeters else { continue }
                found.append(place)
            }
        } else {
            // At a pole every part reaching it, at ±180 parts at either meridian (as `FeatureShapeIndex`).
            if Swift.abs(point.latitude) == 90 {
                _ = shapeExtents.search(west: -180, south: point.latitude, east: 180, north: point.latitude, into: &found)
            } else if Swift.abs(point.longitude) == 180 {
                _ = shapeExtents.search(west: 180, south: point.latitude, east: 180, north: point.latitude, into: &found)
                _ = shapeExtents.search(west: -180, south: point.latitude, east: -180, north: point.latitude, into: &found)
            } else {
                _ = shapeExtents.search(west: point.longitude, south: point.latitude, east: point.longitude,
                                        north: point.latitude, into: &found)
            }
        }
        guard !found.isEmpty else { return }
        found.sort()
        var previous = -1
        for place in found where place != previous {
            previous = place
            guard let shape = placeShapes[place] else { continue }
            if outsideAreaDistance(shape, latitude: point.latitude, longitude: point.longitude,
                                   accuracyMeters: accuracyMeters).isNaN {
                candidates.append(place)
            }
        }
        candidates.sort()
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
