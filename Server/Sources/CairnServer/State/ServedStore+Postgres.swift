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
        let content = try Self.content(snapshot, clusterOptions: clusterOptions)
        // The load's two parts, for the replica figures (scripts/replica-figures reads this line).
        logger.info("loaded the store", metadata: ["features": "\(snapshot.features.count)", "generation": "\(snapshot.generation)",
                                                   "read_seconds": "\(seconds(read - start))", "index_seconds": "\(seconds(clock.now - read))"])
        return ServedStore(backend: .postgres(store, storeID: snapshot.storeID), clusterOptions: clusterOptions,
                           answerCacheBytes: answerCacheBytes, loaded: content, generation: snapshot.generation,
                           contentID: contentID(snapshot.storeID, snapshot.generation))
    }

    /// The content of `snapshot`: rowids are the table's positions (ascending in the index's order, as `/features`
    /// pages need).
    private static func content(_ snapshot: PostgresSnapshot, clusterOptions: ClusterOptions) throws -> LoadedFeatures {
        guard snapshot.features.count < ServedState.maxClusteredFeatures else { throw ServerError.tooManyFeatures(snapshot.features.count) }
        var rowids: [String: Int64] = [:]
        rowids.reserveCapacity(snapshot.features.count)
        for (feature, position) in zip(snapshot.features, snapshot.positions) { rowids[feature.id] = position }
        return LoadedFeatures(features: snapshot.features, rowids: rowids, clusterOptions: clusterOptions)
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
            let content = try Self.content(snapshot, clusterOptions: clusterOptions)
            return writing.withLock { _ in
                serveReloaded(content, generation: snapshot.generation, contentID: Self.contentID(storeID, snapshot.generation)).generation
            }
        }
        return writing.withLock { _ in
            let before = state.generation
            guard changes.generation > before else { return before }
            let change = ServedChange(removedIDs: changes.removedIDs, upserted: changes.upserted, rowids: changes.upsertedPositions)
            return serveChanged(change, generation: changes.generation, contentID: Self.contentID(storeID, changes.generation)).generation
        }
    }

    /// `write` for a PostgreSQL store: one transaction there; the change feed brings it into the served state (the
    /// caller waits for the generation), or, while the feed is not connected, the changes are read back here.
    ///
    /// The feed reads on a connection of its own, and once for every write committed since its last read, so the
    /// store's connection only writes: a read back after each write held that connection, which every write waits
    /// for, and under load the writes queued behind the reads. A read back starts after the generation served when
    /// the write is done and is skipped once served: writes in flight together would otherwise each apply again
    /// every change made since the first began.
    /// - Returns: the ids of `deletedIDs` that were stored, and the generation of the write.
    func write(_ store: PostgresFeatureStore, upserting features: [Feature], deleting deletedIDs: [String]) async throws -> (deleted: [String], generation: Int64) {
        let (deleted, generation) = try await store.write(upserting: Self.lastOfEachID(features), deleting: deletedIDs)
        let followed = postgresFeed.withLock({ $0 })?.status.connected ?? false
        let served = state.generation
        if !followed, served < generation { try await apply(try await store.changes(since: served)) }
        return (deleted, generation)
    }

    /// Why the replica is not following its store now, or nil while it is (or for an SQLite store): also while it
    /// reloads everything (its generation was behind the change log's horizon), which `/healthz` shows as degraded.
    var postgresFollowFailure: String? {
        guard let status = postgresFeed.withLock({ $0 })?.status else { return nil }
        guard status.connected else { return status.failure ?? "not connected to the store's change feed yet" }
        return status.reloading
    }
}
