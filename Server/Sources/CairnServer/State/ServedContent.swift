import CairnCore
import CairnIO

/// The served features as one set of values: the index, each feature's rowid, the hierarchy over every feature,
/// the features in its input order and their tile shapes. A `ServedState` is made from a copy (sharing storage);
/// `ServedEditor` edits one in place once no state shares it, so an edit costs what it changes, not a copy.
struct ServedContent: Sendable {
    /// The features, queried as the CLI queries the store's index.
    private(set) var index: DynamicFeatureIndex
    /// Each feature's store rowid (see `ServedState.rowids`).
    private(set) var rowids: [String: Int64]
    /// The hierarchy over every feature, in `features` order.
    private(set) var clusters: ClusterIndex
    /// The features in the index's order (`DynamicFeatureIndex.features`), the hierarchy's input order.
    private(set) var features: [Feature]
    /// The lines and polygons of `features`, for the tiles' `shapes` layer.
    private(set) var shapes: TileShapes
    /// How many of `features` `shapes` draws: while none is, an edit that adds none keeps `shapes` as it is.
    private var drawnShapeCount: Int

    /// The content over `features` (ids unique), with their rowids.
    /// - Complexity: O(n log n).
    init(features: [Feature], rowids: [String: Int64], clusterOptions: ClusterOptions) {
        index = DynamicFeatureIndex(features)
        self.rowids = rowids
        clusters = ClusterIndex(features: features, options: clusterOptions)
        self.features = features
        shapes = TileShapes(features: features)
        drawnShapeCount = features.lazy.filter(Self.isDrawnAsShape).count
    }

    /// Applies `change`: the result equals a fresh `init` over the changed features (the hierarchy's splice
    /// equals a build, the index answers as a fresh one).
    /// - Throws: `ClusterError` if the hierarchy refuses a position (not expected: positions come from the index).
    /// - Complexity: per changed feature O(1) in the index and the rowids, O(n / 64) to find its place, an O(n)
    ///   memory move in `features` and the hierarchy's splice (`ClusterIndex.apply`); `shapes` is rebuilt, O(n),
    ///   only when drawn shapes were or are among the features.
    mutating func apply(_ change: ServedChange) throws {
        var edits: [ClusterEdit] = []
        let hadShapes = drawnShapeCount > 0
        for id in change.removedIDs + change.upserted.map(\.id) {
            guard let position = index.position(id: id) else { continue }
            let removed = features.remove(at: position)
            assert(removed.id == id, "the served features left the index's order")
            if Self.isDrawnAsShape(removed) { drawnShapeCount -= 1 }
            index.remove(id: id)
            rowids[id] = nil
            edits.append(.remove(at: position))
        }
        for (feature, rowid) in zip(change.upserted, change.rowids) {
            index.upsert(feature)
            rowids[feature.id] = rowid
            features.append(feature)
            if Self.isDrawnAsShape(feature) { drawnShapeCount += 1 }
            edits.append(.insertFeature(feature))
        }
        try clusters.apply(edits)
        // Shapes are listed by position in `features`, which a removal shifts: rebuilt whenever there are any.
        if hadShapes || drawnShapeCount > 0 { shapes = TileShapes(features: features) }
    }

    /// Puts `index` in place of the index: one answering as the content's own does (a compaction of it, say).
    /// - Complexity: O(1).
    mutating func replaceIndex(_ index: DynamicFeatureIndex) {
        assert(index.count == self.index.count, "a replacement index holds other features")
        self.index = index
    }

    /// Applies the index's part of `change` to `index` (a compaction's result catching up with the changes made
    /// while it ran), as `apply` does.
    /// - Complexity: O(1) amortised per changed feature.
    static func apply(_ change: ServedChange, to index: inout DynamicFeatureIndex) {
        for id in change.removedIDs + change.upserted.map(\.id) { index.remove(id: id) }
        for feature in change.upserted { index.upsert(feature) }
    }

    /// Whether `TileShapes` draws `feature` as a shape (a line, polygon or multi-point; a point is a pin only).
    private static func isDrawnAsShape(_ feature: Feature) -> Bool {
        guard let shape = feature.shape else { return false }
        return shape.kind != .point
    }
}
