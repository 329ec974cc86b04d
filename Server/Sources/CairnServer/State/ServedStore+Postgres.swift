import CairnCore
import CairnPostgres
import Logging

/// A server over a PostgreSQL store is one replica among several: it loads the table once, then applies the
/// change sets the store's change feed hands it (`PostgresFollower`), and its own writes the same way: written to
/// the store in one transaction, then read back as the changes since the generation it served (so an edit another
/// replica made meanwhile comes along, in the table's order).
extension ServedStore {
    /// A replica of the store at `url`: connects, migrates when it `writes` (a server with a write token; a
    /// read-only one only checks the schema version, so a role with only SELECT can serve), and loads every feature.
    /// - Throws: `PostgresStoreError` (`.noSchema`, `.olderSchema` for a read-only replica), `ServerError.tooManyFeatures`.
    /// - Complexity: O(n log n).
    static func replica(of url: PostgresStoreURL, writes: Bool, clusterOptions: ClusterOptions, answerCacheBytes: Int,
                        logger: Logger) async throws -> ServedStore {
        let store = try await PostgresFeatureStore(url: url, access: writes ? .writing : .reading, logger: logger)
        let clock = ContinuousClock()
        let start = clock.now
        let snapshot = try await store.load()
        let read = clock.now
        let state = try Self.state(snapshot, clusterOptions: clusterOptions, epoch: 0, answerCacheBytes: answerCacheBytes)
        // The load's two parts, for the replica figures (scripts/replica-figures reads this line).
        logger.info("loaded the store", metadata: ["features": "\(snapshot.features.count)", "generation": "\(snapshot.generation)",
                                                   "read_seconds": "\(seconds(read - start))", "index_seconds": "\(seconds(clock.now - read))"])
        return ServedStore(backend: .postgres(store, storeID: snapshot.storeID), clusterOptions: clusterOptions,
                           answerCacheBytes: answerCacheBytes, state: state)
    }

    /// A state holding `snapshot`: rowids are the table's positions (ascending in the index's order, as `/features`
    /// pages need); the content id is the store id and the generation.
    private static func state(_ snapshot: PostgresSnapshot, clusterOptions: ClusterOptions, epoch: UInt64, answerCacheBytes: Int) throws -> ServedState {
        guard snapshot.features.count < ServedState.maxClusteredFeatures else { throw ServerError.tooManyFeatures(snapshot.features.count) }
        var rowids: [String: Int64] = [:]
        rowids.reserveCapacity(snapshot.features.count)
        for (feature, position) in zip(snapshot.features, snapshot.positions) { rowids[feature.id] = position }
        return ServedState(index: DynamicFeatureIndex(snapshot.features),
                           clusters: ServedClusters(features: snapshot.features, options: clusterOptions,
                                                    answerCacheBytes: answerCacheBytes), rowids: rowids,
                           generation: snapshot.generation, contentID: contentID(snapshot.storeID, snapshot.generation),
                           epoch: epoch, answerCacheBytes: answerCacheBytes)
    }

    private static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return "\(((Double(whole) + Double(attoseconds) / 1e18) * 1000).rounded() / 1000)"
    }

    private static func contentID(_ storeID: String, _ generation: Int64) -> String { "\(storeID)-\(generation)" }

    /// Applies a change set read from the store; a set older than the state served is already in it (sets are
    /// cumulative from the generation they were read after, so applying a newer one again changes nothing).
    /// - Returns: the generation served afterwards.
    /// - Complexity: as `write`'s derivation per edit; a reload is O(n log n).
    @discardableResult
    func apply(_ changes: PostgresChanges) async throws -> Int64 {
        guard case .postgres(let store, let storeID) = backend else { return state.generation }
        if changes.reloadNeeded {
            let snapshot = try await store.load()
            return try writing.withLock { _ in
                let next = try Self.state(snapshot, clusterOptions: clusterOptions, epoch: Self.next(state.epoch), answerCacheBytes: answerCacheBytes)
                current.withLock { $0 = next }
                return next.generation
            }
        }
        return try writing.withLock { _ in
            let before = state
            guard changes.generation > before.generation else { return before.generation }
            var index = before.index
            var rowids = before.rowids
            for id in changes.removedIDs where index.remove(id: id) { rowids[id] = nil }
            for (feature, position) in zip(changes.upserted, changes.upsertedPositions) {
                index.upsert(feature)
                rowids[feature.id] = position
            }
            let clusters = try before.clusters.applying(removedIDs: changes.removedIDs, upserted: changes.upserted)
            let next = ServedState(index: index, clusters: clusters, rowids: rowids, generation: changes.generation,
                                   contentID: Self.contentID(storeID, changes.generation), epoch: Self.next(before.epoch),
                                   answerCacheBytes: answerCacheBytes)
            current.withLock { $0 = next }
            return next.generation
        }
    }

    /// `write` for a PostgreSQL store: one transaction there, then the changes since the state served, applied.
    func write(_ store: PostgresFeatureStore, upserting features: [Feature], deleting deletedIDs: [String]) async throws -> (deleted: [String], state: ServedState) {
        let before = state.generation
        let (deleted, _) = try await store.write(upserting: Self.lastOfEachID(features), deleting: deletedIDs)
        try await apply(try await store.changes(since: before))
        return (deleted, state)
    }

    /// Why the replica is not following its store now, or nil while it is (or for an SQLite store): also while it
    /// reloads everything (its generation was behind the change log's horizon), which `/healthz` shows as degraded.
    var postgresFollowFailure: String? {
        guard let status = postgresFeed.withLock({ $0 })?.status else { return nil }
        guard status.connected else { return status.failure ?? "not connected to the store's change feed yet" }
        return status.reloading
    }
}
