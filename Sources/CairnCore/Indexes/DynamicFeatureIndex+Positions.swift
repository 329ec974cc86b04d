extension DynamicFeatureIndex {
    /// The place of the current feature with `id` in `features` order (live base features in base order, then live
    /// delta features in upsert order), or nil when there is none: what a list kept in that order (a server's
    /// cluster input) removes, found without scanning the list.
    /// - Complexity: O(n / 64) popcounts for a base feature of a base of n, O(d) for a delta feature of d slots.
    public func position(id: String) -> Int? {
        if let slot = deltaIDs[id] {
            // Dead slots have a NaN latitude: counting the live ones before `slot` reads no feature.
            var liveBefore = 0
            for s in 0..<slot where !deltaGeometry[DeltaGeometry.stride * s + DeltaGeometry.latitude].isNaN { liveBefore += 1 }
            return base.count - tombstoneCount + liveBefore
        }
        guard let position = baseIDs[id], !isRemoved(basePosition: position) else { return nil }
        var removedBefore = 0
        for word in 0..<(position >> 6) { removedBefore += tombstones[word].nonzeroBitCount }
        removedBefore += (tombstones[position >> 6] & ((1 << UInt64(position & 63)) - 1)).nonzeroBitCount
        return position - removedBefore
    }
}
