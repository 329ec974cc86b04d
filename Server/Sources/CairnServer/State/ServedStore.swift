import CairnCheckIns
import CairnCore
import CairnPostgres
import CairnStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store a server serves and the state it answers from.
///
/// Requests read `state` (a lock held only to copy a reference) and query it without locks. Writes through the
/// server, and reloads after another process wrote to the store, make a new state and swap it in; writes are
/// serialised by their own lock, so a write never waits for a query and a query never waits for a write.
///
/// A write goes to the store first, in one transaction; only then is the new state made, from the state before it
/// and the edit: the index takes the edit in its delta, edited in place in the copy no state holds any more
/// (`ServedEditor`), so an edit costs what it changes. The cluster hierarchy follows on a thread of its own, which
/// splices the edits made since its last round and serves the result (`ServedStore+Hierarchy`): a writer never
/// waits for it, and the answer to a write through this server waits until it has caught up. When the store's
/// generation after the write is not the one before plus one, another writer came in between and the state is
/// reloaded from the store instead.
final class ServedStore: Sendable {
    /// Where the features live: an SQLite file, or a PostgreSQL store this server is a replica of.
    enum Backend: Sendable {
        case sqlite(FeatureStore)
        case postgres(PostgresFeatureStore, storeID: String)
    }
    let backend: Backend
    let clusterOptions: ClusterOptions
    /// The bytes of answers each state keeps (`AnswerCache`).
    let answerCacheBytes: Int
    let current: Locked<ServedState>
    let writing = Locked<Void>(())
    /// The two copies of the served content that edits change in turn (taken under `writing`).
    let editor: Locked<ServedEditor>
    /// The cluster hierarchy and the edits it has yet to follow (taken under `writing` by writers).
    let hierarchy: Locked<HierarchyBacklog>
    /// Where the hierarchy follows the edits (`ServedStore+Hierarchy`) and the index is compacted.
    let upkeep = BackgroundThreads()
    /// Why the last check of the store for another process's writes failed, until one succeeds (for `/healthz`).
    let followFailure = Locked<String?>(nil)
    /// The change feed a PostgreSQL replica follows (`PostgresFollower`), for `/healthz` and `/metrics`.
    let postgresFeed = Locked<PostgresChangeFeed?>(nil)
    /// The check-in validator and the content id of the store it was loaded from.
    private let validators = Locked<(contentID: String, validator: CheckInValidator)?>(nil)

    /// Opens the store and loads its features (from its snapshot when current).
    /// - Throws: `StoreError` when the store cannot be read, `ServerError` when it is too large to cluster.
    /// - Complexity: O(n log n).
    convenience init(path: String, clusterOptions: ClusterOptions, answerCacheBytes: Int) throws {
        guard access(path, F_OK) == 0 else { throw ServerError.noStore(path) }
        let store = try FeatureStore(path: path)
        let loaded = try ServedStore.load(store, clusterOptions: clusterOptions)
        self.init(backend: .sqlite(store), clusterOptions: clusterOptions, answerCacheBytes: answerCacheBytes, loaded: loaded.features,
                  generation: loaded.generation, contentID: loaded.contentID)
    }

    /// A server of `loaded`, the store's as of `generation` and `contentID`.
    /// - Complexity: O(e) for the hierarchy's e entries (`ServedClusters`).
    init(backend: Backend, clusterOptions: ClusterOptions, answerCacheBytes: Int, loaded: LoadedFeatures, generation: Int64, contentID: String) {
        self.backend = backend
        self.clusterOptions = clusterOptions
        self.answerCacheBytes = answerCacheBytes
        let clusters = ServedClusters(loaded.hierarchy, generation: generation, epoch: 0, answerCacheBytes: answerCacheBytes)
        current = Locked(ServedState(loaded.content, clusters: clusters, generation: generation, contentID: contentID, answerCacheBytes: answerCacheBytes))
        editor = Locked(ServedEditor(loaded.content))
        hierarchy = Locked(HierarchyBacklog(loaded.hierarchy, generation: generation, epoch: 0))
    }

    /// Features read from the store, as the two parts a server keeps of them.
    struct LoadedFeatures: Sendable {
        let content: ServedContent
        let hierarchy: ServedHierarchy

        /// The parts over `features` (ids unique) with their rowids.
        /// - Complexity: O(n log n).
        init(features: [Feature], rowids: [String: Int64], clusterOptions: ClusterOptions) {
            content = ServedContent(features: features, rowids: rowids)
            hierarchy = ServedHierarchy(features: features, options: clusterOptions)
        }
    }

    /// Serves `loaded` anew (a reload): a new editor and hierarchy over it, clusters of the next epoch. Call under
    /// `writing`.
    /// - Complexity: O(e) for the hierarchy's e entries.
    func serveReloaded(_ loaded: LoadedFeatures, generation: Int64, contentID: String) -> ServedState {
        // The backlog first: a round running now is not served once it has counted the reload.
        let epoch = hierarchy.withLock { $0.reload(loaded.hierarchy, generation: generation) }
        let clusters = ServedClusters(loaded.hierarchy, generation: generation, epoch: epoch, answerCacheBytes: answerCacheBytes)
        let next = ServedState(loaded.content, clusters: clusters, generation: generation, contentID: contentID, answerCacheBytes: answerCacheBytes)
        let replaced = editor.withLock { editor in
            editor = ServedEditor(loaded.content)
            return current.replace { _ in next }.old
        }
        withExtendedLifetime(replaced) {}
        hierarchy.withLock { $0.takeWaiters(upTo: .max) }.forEach { $0.resume() }
        return next
    }

    /// Applies `change` to the served index and serves the result, stamped `generation` and `contentID`, with the
    /// clusters served now; hands the change to the hierarchy to follow. Call under `writing`.
    ///
    /// Every change of the served content (a write, a reload, a compaction's result) replaces the state under the
    /// editor's lock, so they are served in the order the editor made them; the hierarchy's rounds change only the
    /// state's clusters, under the state's own lock. What is replaced is released after both locks are let go,
    /// and an index the editor let go of on an upkeep thread (it may be the last reference to a whole index).
    /// - Complexity: `ServedEditor.apply`.
    func serveChanged(_ change: ServedChange, generation: Int64, contentID: String) -> ServedState {
        let (states, edits, retired) = editor.withLock { editor in
            let (content, edits, retired) = editor.apply(change)
            let states = current.replace {
                ServedState(content, clusters: $0.clusters, generation: generation, contentID: contentID, answerCacheBytes: answerCacheBytes)
            }
            return (states, edits, retired)
        }
        if let retired { upkeep.run { withExtendedLifetime(retired) {} } }
        followInBackground(edits, generation: generation)
        compactInBackground()
        return states.new
    }

    /// The pending edits of the served index past which it is compacted off the writers' path: about a thousand,
    /// so that the delta every query scans beside the base stays small (reads after 6,000 edits answered as fast as
    /// over SQLite in scripts/replica-figures) while a compaction, O(n log n) on an upkeep thread, runs at most
    /// every few hundred edits rather than every few dozen.
    /// - Complexity: O(1).
    static func backgroundCompactionThreshold(featureCount: Int) -> Int { max(1_024, featureCount / 256) }

    /// Compacts the served index on an upkeep thread when its delta has grown past the threshold: the writers go
    /// on meanwhile, and the result, brought up to date with their changes, is served when ready (the answers do
    /// not change, only their cost). Call under `writing`.
    ///
    /// The compaction replays the changes made meanwhile outside the editor's lock, and takes the lock only for the
    /// last few: at nice 10, a thread holding a lock the writers need can be kept off busy cores for hundreds of
    /// milliseconds.
    /// - Complexity: O(1) here; O(n log n) on the upkeep thread.
    private func compactInBackground() {
        let started = editor.withLock { editor in
            editor.startCompaction(threshold: Self.backgroundCompactionThreshold(featureCount: editor.served.index.count))
        }
        guard let started else { return }
        // On the thread of the hierarchy's rounds, at its lower priority (`BackgroundThreads`).
        upkeep.run { [self] in
            var index = started.index.compacted()
            var replayed = 0
            while let more = editor.withLock({ $0.changes(sinceCompaction: started.ticket, from: replayed) }), more.count > 4 {
                for change in more { ServedContent.apply(change, to: &index) }
                replayed += more.count
            }
            let replaced = editor.withLock { editor -> ServedState? in
                guard let content = editor.finishCompaction(index, replayed: replayed, ticket: started.ticket) else { return nil }
                return current.replace {
                    ServedState(content, clusters: $0.clusters, generation: $0.generation, contentID: $0.contentID, answerCacheBytes: answerCacheBytes)
                }.old
            }
            withExtendedLifetime(replaced) {}
        }
    }

    /// The SQLite store, when that is what is served.
    var store: FeatureStore? {
        if case .sqlite(let store) = backend { return store }
        return nil
    }

    /// The state to answer from now.
    /// - Complexity: O(1).
    var state: ServedState { current.withLock { $0 } }

    /// Reloads from the store when another process changed it since the state was made.
    /// - Returns: whether it reloaded.
    /// - Complexity: O(1) to read the store's stamp; O(n log n) to reload.
    @discardableResult
    func reloadIfChanged() throws -> Bool {
        guard let store else { return false }
        return try writing.withLock { _ in
            guard try store.contentIdentifier() != state.contentID else { return false }
            let loaded = try Self.load(store, clusterOptions: clusterOptions)
            _ = serveReloaded(loaded.features, generation: loaded.generation, contentID: loaded.contentID)
            return true
        }
    }

    /// Upserts `features` and deletes `deletedIDs` in one store transaction, then serves the result, and returns
    /// once the clusters have caught up with it too (so the writer's next cluster or tile answer shows the edit).
    /// An upserted feature takes the last place in the order, in the store as in the index (the store row is
    /// deleted and inserted again), so that a box answer lists features in the order the CLI gives after the edit.
    /// - Returns: the ids of `deletedIDs` that were stored, and the generation of the state the write made.
    /// - Complexity: O(m log N) in the store, O(m n / 64) to find the edited features, then the hierarchy's round.
    @discardableResult
    func write(upserting features: [Feature], deleting deletedIDs: [String]) async throws -> (deleted: [String], generation: Int64) {
        // Only the generation is kept while waiting: a state held that long would keep the editor's spare copy
        // shared, and every edit meanwhile would copy the index and the rowids instead of editing them in place.
        let (deleted, generation) = switch backend {
        case .sqlite(let store): try write(store, upserting: features, deleting: deletedIDs)
        case .postgres(let store, _): try await write(store, upserting: features, deleting: deletedIDs)
        }
        await hierarchyCaughtUp(to: generation)
        return (deleted, generation)
    }

    private func write(_ store: FeatureStore, upserting features: [Feature], deleting deletedIDs: [String]) throws -> (deleted: [String], generation: Int64) {
        let upserts = Self.lastOfEachID(features)
        return try writing.withLock { _ in
            let before = state
            var rowids: [String: Int64] = [:]
            let deleted = try store.write { writer in
                var deleted: [String] = []
                for id in deletedIDs where try writer.delete(id: id) { deleted.append(id) }
                for feature in upserts {
                    _ = try writer.delete(id: feature.id)
                    try writer.upsert([feature]) { _, row in rowids[feature.id] = row.rowid }
                }
                return deleted
            }
            let generation = try store.generation(), contentID = try store.contentIdentifier()
            if generation == before.generation + 1 {
                let change = ServedChange(removedIDs: deleted, upserted: upserts, rowids: upserts.map { rowids[$0.id] ?? .max })
                return (deleted, serveChanged(change, generation: generation, contentID: contentID).generation)
            }
            let loaded = try Self.load(store, clusterOptions: clusterOptions)
            return (deleted, serveReloaded(loaded.features, generation: loaded.generation, contentID: loaded.contentID).generation)
        }
    }

    /// The store's features as a state: its index from the snapshot when current (an answer read from a damaged
    /// snapshot is given again from a rebuilt one), the hierarchy built over them.
    private static func load(_ store: FeatureStore, clusterOptions: ClusterOptions) throws -> (features: LoadedFeatures, generation: Int64, contentID: String) {
        // Read the stamp first: a write landing during the load makes the state look older than it is, and the
        // next reload check catches it up; never the other way round.
        let generation = try store.generation(), contentID = try store.contentIdentifier()
        let features = try StoreIndex(store: store).answer { index in Array(index.features) }.answer
        guard features.count < ServedState.maxClusteredFeatures else { throw ServerError.tooManyFeatures(features.count) }
        var rowids: [String: Int64] = [:]
        rowids.reserveCapacity(features.count)
        try store.forEachRowID { id, rowid in rowids[id] = rowid }
        return (LoadedFeatures(features: features, rowids: rowids, clusterOptions: clusterOptions), generation, contentID)
    }

    /// The last version of each id, in the order of those last versions (as upserting them one by one leaves them).
    static func lastOfEachID(_ features: [Feature]) -> [Feature] {
        var last: [String: Int] = [:]
        for (position, feature) in features.enumerated() { last[feature.id] = position }
        guard last.count < features.count else { return features }
        return features.indices.filter { last[features[$0].id] == $0 }.map { features[$0] }
    }
}

extension ServedStore {
    /// The check-in validator over the store's places and events as they are now, loaded at the first check-in
    /// request after a change of the store and kept until the next.
    /// - Complexity: O(1) when kept; O(p + e) to load p places and e events.
    func checkInValidator() throws -> CheckInValidator {
        let contentID = state.contentID
        if let kept = validators.withLock({ $0 }), kept.contentID == contentID { return kept.validator }
        var data = CheckInReferenceData(defaultRadiusMeters: nil)
        switch backend {
        case .sqlite(let store): try data.loadStore(path: store.path)
        case .postgres(let store, _): data.loadFeatures(state.index.features, source: store.url.description)
        }
        let validator = data.makeValidator()
        validators.withLock { $0 = (contentID, validator) }
        return validator
    }
}
