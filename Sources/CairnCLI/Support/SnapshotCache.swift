import CairnCore
import CairnStore
#if canImport(Glibc)
import Glibc
#endif

/// The index snapshot kept next to a store (`<db>.snapshot`), used while it matches the store.
///
/// A snapshot records the store's identifier and generation in its metadata. It is current when both equal the
/// store's: every committed write (`cairn import`, `cairn delete`) changes the generation, and a store deleted and
/// re-created gets a new identifier. The generation is read before the features, so a write landing in between
/// leaves a snapshot labelled older than its content: the next query rebuilds it rather than trusting it.
struct SnapshotCache {
    /// Metadata keys a snapshot of a store carries.
    static let identifierKey = "store.identifier"
    static let generationKey = "store.generation"

    /// The store the cache belongs to.
    let store: FeatureStore

    /// `<db>.snapshot`.
    var snapshotPath: String { store.path + ".snapshot" }

    /// How an index was obtained, for `--explain`.
    struct Loaded {
        let index: FeatureIndex
        let note: String
    }

    /// The metadata that marks a snapshot of the store as it is now.
    func currentStamp() throws -> [String: String] {
        let generation = try store.generation()
        return [SnapshotCache.identifierKey: try store.identifier(), SnapshotCache.generationKey: String(generation)]
    }

    /// Whether `metadata` says the snapshot is of the store in its state `stamp`.
    static func matches(_ metadata: [String: String], _ stamp: [String: String]) -> Bool {
        metadata[identifierKey] == stamp[identifierKey] && metadata[generationKey] == stamp[generationKey]
    }

    /// Every feature of the store, indexed.
    func buildFromStore() throws -> FeatureIndex {
        var features: [Feature] = []
        try store.forEachFeature { features.append($0) }
        return FeatureIndex(features)
    }

    /// The snapshot when it is current; otherwise the index built from the store, saved as the new snapshot
    /// unless the store (or its folder) is read-only. A missing, stale or damaged snapshot is simply replaced.
    func load() throws -> Loaded {
        let stamp = try currentStamp()
        var why: String
        if access(snapshotPath, F_OK) != 0 {
            why = "no snapshot yet"
        } else { do {
            let file = try SnapshotFile(contentsOf: snapshotPath)
            if SnapshotCache.matches(file.metadata, stamp) {
                return Loaded(index: try FeatureIndex(snapshot: file), note: "loaded from snapshot \(snapshotPath) (\(Terminal.bytes(Int64(file.byteCount))))")
            }
            why = "snapshot \(snapshotPath) is stale (store generation \(stamp[SnapshotCache.generationKey] ?? "?"), snapshot \(file.metadata[SnapshotCache.generationKey] ?? "none"))"
        } catch {
            why = "snapshot refused: \(error)"
        } }
        let index = try buildFromStore()
        guard SnapshotCache.isWritable(store.path) else {
            return Loaded(index: index, note: "built from the store (\(why); the store is read-only, snapshot not written)")
        }
        do {
            let size = try index.writeSnapshot(to: snapshotPath, metadata: stamp)
            return Loaded(index: index, note: "built from the store (\(why)); snapshot written (\(Terminal.bytes(Int64(size))))")
        } catch {
            return Loaded(index: index, note: "built from the store (\(why)); could not write the snapshot: \(error)")
        }
    }

    /// Whether the file and its folder can be written (a snapshot is written next to it and renamed).
    static func isWritable(_ path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        // access(2) returns 0 when the calling process has the permission.
        return access(path, W_OK) == 0 && access(folder.isEmpty ? "/" : folder, W_OK) == 0
    }
}
