import CairnCore

/// The served features as one set of values the writers change at once: the index and each feature's rowid. A
/// `ServedState` is made from a copy (sharing storage); `ServedEditor` edits one in place once no state shares it,
/// so an edit costs what it changes, not a copy. The cluster hierarchy follows these edits on its own
/// (`ServedHierarchy`), from the `ServedHierarchy.Edit`s `apply` returns.
struct ServedContent: Sendable {
    /// The features, queried as the CLI queries the store's index.
    private(set) var index: DynamicFeatureIndex
    /// Each feature's store rowid (see `ServedState.rowids`).
    private(set) var rowids: [String: Int64]

    /// The content over `features` (ids unique), with their rowids.
    /// - Complexity: O(n log n).
    init(features: [Feature], rowids: [String: Int64]) {
        // Never compacted on the writers' path: `ServedStore` compacts a copy in the background.
        index = DynamicFeatureIndex(features, compactionPolicy: .manual)
        self.rowids = rowids
    }

    /// Applies `change`: the index then answers as a fresh one over the changed features.
    /// - Returns: the same change as edits of the features in the index's order (removals by position at their
    ///   moment, then the appended features), which a hierarchy over the features before `change` applies to
    ///   follow it.
    /// - Complexity: per changed feature O(1) in the index and the rowids, and O(n / 64) to find its position.
    @discardableResult
    mutating func apply(_ change: ServedChange) -> [ServedHierarchy.Edit] {
        var edits: [ServedHierarchy.Edit] = []
        for id in change.removedIDs + change.upserted.map(\.id) {
            guard let position = index.position(id: id) else { continue }
            index.remove(id: id)
            rowids[id] = nil
            edits.append(.remove(at: position))
        }
        for (feature, rowid) in zip(change.upserted, change.rowids) {
            index.upsert(feature)
            rowids[feature.id] = rowid
            edits.append(.append(feature))
        }
        return edits
    }

    /// Puts `index` in place of the index: one answering as the content's own does (a compaction of it, say).
    /// - Returns: the index replaced, for the caller to release where its cost does not matter.
    /// - Complexity: O(1).
    @discardableResult
    mutating func replaceIndex(_ index: DynamicFeatureIndex) -> DynamicFeatureIndex {
        assert(index.count == self.index.count, "a replacement index holds other features")
        defer { self.index = index }
        return self.index
    }

    /// Applies the index's part of `change` to `index` (a compaction's result catching up with the changes made
    /// while it ran), as `apply` does.
    /// - Complexity: O(1) amortised per changed feature.
    static func apply(_ change: ServedChange, to index: inout DynamicFeatureIndex) {
        for id in change.removedIDs + change.upserted.map(\.id) { index.remove(id: id) }
        for feature in change.upserted { index.upsert(feature) }
    }
}
