import CairnCore

/// The index of a store as it is now: the snapshot kept next to the store (`<db>.snapshot`), mapped and read in
/// place while it is current; otherwise a new snapshot streamed from the store's rows (`FeatureSnapshotWriter`: the
/// features are never all in memory), written, then mapped.
///
/// A snapshot records the store's stamp in its metadata (`stamp()`): the store's identifier, its write generation
/// and its content id. It is current when all three equal the store's: every committed write (`cairn import`,
/// `cairn delete`) changes the generation and draws a new content id, and a store deleted and re-created gets a new
/// identifier. The content id is what keeps a backup restored over the store (whose generation a later write may
/// repeat) from matching a snapshot of other content. The stamp is read before the features, so a write landing in
/// between leaves a snapshot labelled older than its content: the next query rebuilds it rather than trusting it.
///
/// What is verified when: opening a snapshot checks its header, length, section table and block checksums, and
/// mapping it verifies the trees' blocks, so a truncated, foreign or visibly damaged file is refused and replaced,
/// never used. Each feature's bytes are verified when a query first decodes it (see `FeatureIndex(mapping:)`):
/// `answer(_:)` checks for damage found that way after the query and, if any, answers again from a rebuilt index.
public struct StoreIndex: Sendable {
    /// Metadata keys a snapshot of a store carries.
    public static let identifierKey = "store.identifier"
    public static let generationKey = "store.generation"
    public static let contentKey = "store.content"

    /// The store.
    public let store: FeatureStore

    /// Where the snapshot lives: `<db>.snapshot`.
    public var snapshotPath: String { store.path + ".snapshot" }

    /// The index of `store`.
    /// - Complexity: O(1).
    public init(store: FeatureStore) {
        self.store = store
    }

    /// An index and where it came from.
    public struct Loaded: Sendable {
        /// The store's features, indexed.
        public let index: FeatureIndex
        /// Where the index came from (for `--explain`).
        public let source: Source
    }

    /// Where an index came from.
    public enum Source: Sendable {
        /// Mapped from the current snapshot at `path`, of `byteCount` bytes.
        case snapshot(path: String, byteCount: Int)
        /// Built from the store's features because of `reason`; then the snapshot was `saved`.
        case built(reason: RebuildReason, saved: SaveOutcome)
        /// Built from the store's features, the snapshot neither read nor written (asked for).
        case builtIgnoringSnapshot
    }

    /// Why the snapshot was not used.
    public enum RebuildReason: Sendable {
        /// There is no snapshot file.
        case noSnapshot
        /// The snapshot at `path` is of another state of the store (its generation, or nil when it has none).
        case stale(path: String, storeGeneration: String, snapshotGeneration: String?)
        /// The snapshot file was refused: damaged, truncated, of another version or not a snapshot.
        case refused(SnapshotError)
    }

    /// What happened to the snapshot after a rebuild.
    public enum SaveOutcome: Sendable {
        /// Written, `byteCount` bytes.
        case written(byteCount: Int)
        /// Not written: the store or its folder is read-only.
        case readOnly
        /// Writing failed.
        case failed(SnapshotError)
    }

    /// The index of the store as it is now: the snapshot while it is current, otherwise a new snapshot streamed
    /// from the store's rows, written and mapped (so the index is mapped either way). A read-only store (or folder),
    /// or a failed write, maps the new snapshot's bytes in memory instead. A missing, stale or damaged snapshot is
    /// simply replaced.
    /// - Throws: `StoreError` when the store cannot be read.
    /// - Complexity: O(n) checksum for a current snapshot (no decoding); O(n log n) to rebuild.
    public func current() throws -> Loaded {
        let stamp = try self.stamp()
        let reason: RebuildReason
        if !FileAccess.exists(snapshotPath) {
            reason = .noSnapshot
        } else { do {
            let file = try SnapshotFile(contentsOf: snapshotPath)
            if StoreIndex.matches(file.metadata, stamp) {
                return Loaded(index: try FeatureIndex(mapping: file), source: .snapshot(path: snapshotPath, byteCount: file.byteCount))
            }
            reason = .stale(path: snapshotPath, storeGeneration: stamp[StoreIndex.generationKey] ?? "?", snapshotGeneration: file.metadata[StoreIndex.generationKey])
        } catch {
            reason = .refused(error)
        } }
        let writable = StoreIndex.isWritable(store.path)
        // The prepared snapshot (its trees in memory) is released once written, before the file's trees are mapped.
        switch StoreIndex.place(try prepareSnapshot(metadata: stamp, spillingNextTo: writable ? snapshotPath : nil),
                                at: writable ? snapshotPath : nil) {
        case .written(let file):
            let index = try (try? FeatureIndex(mapping: file)) ?? build()
            return Loaded(index: index, source: .built(reason: reason, saved: .written(byteCount: file.byteCount)))
        case .held(let bytes, let saved):
            let index = try (try? bytes.map { try FeatureIndex(mapping: SnapshotFile(bytes: $0)) }) ?? build()
            return Loaded(index: index, source: .built(reason: reason, saved: saved ?? .readOnly))
        }
    }

    /// Where a prepared snapshot went: written to its file, or held in memory (nil when even that failed) because
    /// it could not be written (`saved`: nil for a read-only store).
    private enum Placement {
        case written(SnapshotFile)
        case held([UInt8]?, saved: SaveOutcome?)
    }

    /// Writes `prepared` to `path`, or, when there is no path or the write fails, takes its bytes.
    private static func place(_ prepared: consuming PreparedSnapshot, at path: String?) -> Placement {
        var saved: SaveOutcome?
        if let path {
            do {
                return .written(try prepared.write(to: path))
            } catch {
                saved = .failed(error)
            }
        }
        return .held(try? prepared.bytes(), saved: saved)
    }

    /// The snapshot of the store's features, streamed from its rows (`FeatureSnapshotWriter`): the features are
    /// never held all at once, and with `spillingNextTo` their table moves to a scratch file in that file's folder
    /// as it is encoded. Every row is decoded and checked as `build()` does, in one read transaction.
    /// - Throws: `StoreError` when the store cannot be read.
    /// - Complexity: O(n log n); memory about 50 bytes per feature (the trees) beyond the table's.
    public func prepareSnapshot(metadata: [String: String], spillingNextTo path: String?) throws -> PreparedSnapshot {
        var writer = FeatureSnapshotWriter(spillingNextTo: path)
        try store.forEachFeature { writer.append($0) }
        return writer.finish(metadata: metadata)
    }

    /// Writes the snapshot of the store as it is now to `path` (atomically, see `PreparedSnapshot.write(to:)`),
    /// streamed from its rows as the first query after a write does; `cairn snapshot` uses it.
    /// - Throws: `StoreError` when the store cannot be read, `SnapshotError` when the file cannot be written.
    /// - Returns: the file's length in bytes and the number of features.
    /// - Complexity: O(n log n).
    public func writeSnapshot(to path: String, metadata: [String: String]) throws -> (byteCount: Int, featureCount: Int) {
        let prepared = try prepareSnapshot(metadata: metadata, spillingNextTo: path)
        let file = try prepared.write(to: path)
        return (file.byteCount, prepared.featureCount)
    }

    /// Runs `query` on the store's index as it is now (`current()`) and returns its result, with where the index
    /// came from. When the query read a damaged block of the mapped snapshot (`FeatureIndex.snapshotDamage`), its
    /// result is discarded: the snapshot is deleted, the index rebuilt (and saved), and `query` runs again on it;
    /// should the new snapshot read damaged too (a failing disk), `query` runs a third time, on the features built
    /// in memory (`build()`). Decode every feature the answer needs inside `query`, so that the check covers them.
    /// - Throws: `StoreError` when the store cannot be read; what `query` throws.
    /// - Complexity: that of `current()` and `query`; twice both after damage.
    public func answer<Answer>(_ query: (FeatureIndex) throws -> Answer) throws -> (answer: Answer, loaded: Loaded) {
        let loaded = try current()
        let answer = try query(loaded.index)
        guard let damage = loaded.index.snapshotDamage else { return (answer, loaded) }
        FileAccess.remove(snapshotPath)
        let rebuilt = try current()
        let source: Source = switch rebuilt.source {
        case .built(_, let saved): .built(reason: .refused(damage), saved: saved)
        default: rebuilt.source
        }
        let again = try query(rebuilt.index)
        guard rebuilt.index.snapshotDamage != nil else { return (again, Loaded(index: rebuilt.index, source: source)) }
        // The new snapshot reads damaged too (a failing disk): answer from the features in memory.
        let index = try build()
        return (try query(index), Loaded(index: index, source: .built(reason: .refused(damage), saved: .failed(damage))))
    }

    /// Every feature of the store, indexed, in rowid order; no snapshot read or written.
    /// - Complexity: O(n log n).
    public func build() throws -> FeatureIndex {
        var features: [Feature] = []
        try store.forEachFeature { features.append($0) }
        return FeatureIndex(features)
    }

    /// The metadata that marks a snapshot of the store in its present state (identifier, generation, content id),
    /// read in one transaction.
    /// - Complexity: O(1).
    public func stamp() throws -> [String: String] {
        let meta = try store.metaValues()
        return [StoreIndex.identifierKey: meta["store_id"] ?? "", StoreIndex.generationKey: meta["generation"] ?? "0",
                StoreIndex.contentKey: meta["content_id"] ?? ""]
    }

    /// Whether `metadata` says the snapshot is of the store in its state `stamp`.
    /// - Complexity: O(1).
    public static func matches(_ metadata: [String: String], _ stamp: [String: String]) -> Bool {
        [identifierKey, generationKey, contentKey].allSatisfy { metadata[$0] != nil && metadata[$0] == stamp[$0] }
    }

    /// Whether the file and its folder can be written (a snapshot is written next to it and renamed).
    public static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        return FileAccess.isWritable(path) && FileAccess.isWritable(folder.isEmpty ? "/" : folder)
    }
}
