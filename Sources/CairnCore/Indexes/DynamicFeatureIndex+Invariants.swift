extension DynamicFeatureIndex {
    /// Checks that the id maps, the tombstones and the delta agree: every base id maps to its position; a base
    /// feature is tombstoned exactly when its id is removed or has a delta version; every delta id maps to a live
    /// slot holding that id; live slots and counts match. Traps on a violation. Does nothing in release builds.
    /// - Complexity: O(n + d) for n base features and d delta slots.
    func _checkInvariants() {
        #if DEBUG
        precondition(baseIDs.count == base.count, "base id map size")
        precondition(tombstones.count == (base.count + 63) / 64, "tombstone bitset length")
        precondition(tombstones.reduce(0) { $0 + $1.nonzeroBitCount } == tombstoneCount, "tombstone count")
        if base.count % 64 != 0, let last = tombstones.last {
            precondition(last >> UInt64(base.count % 64) == 0, "tombstone bit past the end")
        }
        for (position, feature) in base.features.enumerated() {
            precondition(baseIDs[feature.id] == position, "base id map disagrees with the base")
            if deltaIDs[feature.id] != nil { precondition(isRemoved(basePosition: position), "a replaced base feature is live") }
        }
        precondition(deltaGeometry.count == DeltaGeometry.stride * delta.count, "delta geometry length")
        var live = 0
        for (slot, entry) in delta.enumerated() {
            let geometry = DeltaGeometry.stride * slot
            guard let feature = entry else {
                precondition(deltaGeometry[geometry + DeltaGeometry.latitude].isNaN, "a dead delta slot has geometry")
                continue
            }
            live += 1
            precondition(deltaIDs[feature.id] == slot, "delta id map disagrees with the delta")
            precondition(deltaGeometry[geometry + DeltaGeometry.latitude] == feature.location.latitude
                && deltaGeometry[geometry + DeltaGeometry.longitude] == feature.location.longitude
                && deltaGeometry[geometry + DeltaGeometry.radiusMeters] == (feature.radiusMeters ?? 0), "delta geometry disagrees")
        }
        precondition(live == deltaIDs.count, "live delta slots")
        precondition(count == base.count - tombstoneCount + live, "count")
        #endif
    }
}
