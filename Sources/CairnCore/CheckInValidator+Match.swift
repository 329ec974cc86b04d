extension CheckInValidator {
    /// Matches a point-only check-in (no event, no place named) by containment.
    ///
    /// The candidates are the places whose circle contains the point (`CircleIndex.containing`, exact, edge
    /// inclusive; the accuracy policy does not widen them). Places with an event ongoing at the time
    /// (`start <= time < end`) are preferred; among the preferred, the nearest centre wins (exact model
    /// distance, ties to the lower place index). At that place the ongoing event that started last is named
    /// (ties to the lower event index), or none: a visit to the place. Joins, when required, apply to the event.
    /// - Complexity: one containment query, plus one geodesic per candidate when there are several.
    func match(latitude: Double, longitude: Double, seconds: Double, user: UnsafeRawBufferPointer,
               scratch: inout [Int]) -> CheckInResult {
        scratch.removeAll(keepingCapacity: true)
        let point = Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        circles.containing(point, model: model, into: &scratch)
        guard !scratch.isEmpty else { return CheckInResult(reason: .noMatch) }
        var bestPlace = -1, bestEvent = -1
        var bestHasEvent = false
        var bestDistance = Double.infinity
        for place in scratch {
            let event = ongoingEvent(at: place, seconds: seconds)
            let hasEvent = event >= 0
            if bestPlace >= 0, bestHasEvent, !hasEvent { continue }
            let distance = scratch.count == 1 ? 0
                : measure(model, placeData[Self.placeStride * place], placeData[Self.placeStride * place + 1], latitude, longitude)
            // Ascending place order: a strict improvement is needed to replace, so ties keep the lower index.
            if bestPlace < 0 || (hasEvent && !bestHasEvent) || distance < bestDistance {
                bestPlace = place
                bestEvent = event
                bestHasEvent = hasEvent
                bestDistance = distance
            }
        }
        if bestEvent >= 0, requiresJoins, !hasJoined(event: bestEvent, user: user) {
            return CheckInResult(reason: .notJoined, place: Int32(bestPlace), event: Int32(bestEvent))
        }
        return CheckInResult(reason: nil, place: Int32(bestPlace), event: Int32(bestEvent))
    }

    /// The event at `place` ongoing at `seconds` that started last (ties: the lower index), or -1.
    /// - Complexity: O(log k + m) for k events at the place, m of them started by then.
    func ongoingEvent(at place: Int, seconds: Double) -> Int {
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
            if seconds < eventRecords[event].end {
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
