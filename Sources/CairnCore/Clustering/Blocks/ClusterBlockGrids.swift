import Atomics

/// The block grids of one index value, built at the first query of each low level and kept, without a lock, until
/// the index changes (an edit gives the index a new, empty set: `ClusterIndex.forgetBlockGrids`).
final class ClusterBlockGrids: Sendable {
    /// One grid per level `0...ClusterIndex.blockLevelLimit`.
    private let levels: [ManagedAtomicLazyReference<ClusterLevelGrid>]

    /// No grid built yet.
    /// - Complexity: O(1).
    init() {
        levels = (0...ClusterIndex.blockLevelLimit).map { _ in ManagedAtomicLazyReference() }
    }

    /// Whether any level's grid was built (then an edit must drop them).
    var isUsed: Bool { levels.contains { $0.load() != nil } }

    /// The grid of `level`, built by `build` the first time (two threads building at once keep the first).
    @inline(__always)
    func grid(level: Int, build: () -> ClusterLevelGrid) -> ClusterLevelGrid {
        if let built = levels[level].load() { return built }
        return levels[level].storeIfNilThenLoad(build())
    }

    /// Bytes held by the grids built so far.
    var memoryBytes: Int { levels.reduce(0) { $0 + ($1.load()?.memoryBytes ?? 0) } }
}
