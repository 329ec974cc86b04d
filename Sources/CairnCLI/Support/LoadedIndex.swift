import CairnCore
import CairnStore

/// A store's index as a query command got it, with a note on where it came from (printed by `--explain`).
struct LoadedIndex {
    let index: FeatureIndex
    let note: String
}

extension StoreIndex.Source {
    /// The `--explain` note for an index from this source.
    var note: String {
        switch self {
        case .snapshot(let path, let byteCount):
            return "loaded from snapshot \(path) (\(Terminal.bytes(Int64(byteCount))))"
        case .builtIgnoringSnapshot:
            return "built from the store (--no-snapshot)"
        case .built(let reason, let saved):
            let why = switch reason {
            case .noSnapshot: "no snapshot yet"
            case .stale(let path, let storeGeneration, let snapshotGeneration):
                "snapshot \(path) is stale (store generation \(storeGeneration), snapshot \(snapshotGeneration ?? "none"))"
            case .refused(let error): "snapshot refused: \(error)"
            }
            switch saved {
            case .readOnly: return "built from the store (\(why); the store is read-only, snapshot not written)"
            case .written(let byteCount): return "built from the store (\(why)); snapshot written (\(Terminal.bytes(Int64(byteCount))))"
            case .failed(let error): return "built from the store (\(why)); could not write the snapshot: \(error)"
            }
        }
    }
}
