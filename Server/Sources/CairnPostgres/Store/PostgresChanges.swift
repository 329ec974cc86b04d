import CairnCore

/// What changed in the store after a generation: apply `removedIDs`, then append `upserted` in order (an edited
/// feature moves to the end, as `DynamicFeatureIndex.upsert` moves it), and the replica holds the store as of
/// `generation`. `reloadNeeded` says the changes cannot be applied one by one (a `TRUNCATE`, or a change log that
/// no longer reaches back to the generation asked for): load everything again.
public struct PostgresChanges: Sendable, Equatable {
    /// The store's generation these changes bring a replica to.
    public let generation: Int64
    /// Features changed and still present, in the table's order (`position`).
    public let upserted: [Feature]
    /// Their places in the order (`position`, ascending): a server pages `/features` by them.
    public let upsertedPositions: [Int64]
    /// Ids changed and no longer present.
    public let removedIDs: [String]
    /// Whether the replica must load everything instead.
    public let reloadNeeded: Bool
    /// When the reload is needed because the change log was pruned past the replica's generation: the log's
    /// horizon (it holds the changes after this generation only); nil otherwise.
    public internal(set) var prunedThrough: Int64? = nil

    /// Whether nothing changed.
    /// - Complexity: O(1).
    public var isEmpty: Bool { upserted.isEmpty && removedIDs.isEmpty && !reloadNeeded }

    /// A change set that says: load everything again.
    static func reload(at generation: Int64, behindHorizon prunedThrough: Int64? = nil) -> PostgresChanges {
        PostgresChanges(generation: generation, upserted: [], upsertedPositions: [], removedIDs: [], reloadNeeded: true,
                        prunedThrough: prunedThrough)
    }
}

/// The store's features at one generation (`PostgresFeatureStore.load()`).
public struct PostgresSnapshot: Sendable {
    /// Every feature, in the table's order (`position`): the order the in-memory index keeps.
    public let features: [Feature]
    /// Their places in the order (`position`, ascending).
    public let positions: [Int64]
    /// The generation they are as of.
    public let generation: Int64
    /// The store's random id, chosen when its schema was created.
    public let storeID: String
}
