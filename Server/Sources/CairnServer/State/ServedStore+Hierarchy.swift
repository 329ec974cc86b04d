import CairnCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The cluster hierarchy follows the index's edits on a thread of its own, so that writers (and a replica following
/// its store) never wait for it: each edit hands its `ServedHierarchy.Edit`s to the backlog, and while the backlog
/// holds any, a round takes them all, splices them into a copy of the hierarchy (or, past a few dozen, rebuilds its
/// levels once: `ClusterIndex.apply`), and serves it with the index as it is by then. Edits that arrive during a
/// round wait for the next, so the further behind the hierarchy falls, the larger and cheaper per edit its next
/// round. Rounds run at a lower priority (`BackgroundThreads`) and rest between them at least as long as they took
/// (and `minimumRoundSpacing` from start to start), so that they take at most half a core and requests and the
/// index's edits keep the cores they need. Requests see a consistent hierarchy, of its own
/// generation (`/healthz`'s `clusters_generation`).
extension ServedStore {
    /// The least time from one round's start to the next's: each round copies the hierarchy's tables and lists
    /// the features once, so rounds of a few edits each would spend most of their time on those.
    static let minimumRoundSpacing: Duration = .milliseconds(100)

    /// Hands `edits`, which bring the index to `generation`, to the hierarchy, starting a thread to follow them
    /// when none runs. Call under `writing`.
    /// - Complexity: O(m) for m edits.
    func followInBackground(_ edits: [ServedHierarchy.Edit], generation: Int64) {
        guard hierarchy.withLock({ $0.add(edits, generation: generation) }) else { return }
        // Not on Swift's cooperative pool: a round can take a core for a while, and the pool's few threads run the
        // change feed and the requests' awaits.
        upkeep.run { [self] in followHierarchy() }
    }

    /// Runs rounds until the hierarchy has caught up with the index.
    /// - Complexity: per round O(n) to list the features, O(e) to copy the hierarchy's tables and for the served
    ///   clusters' fragment slots, and the splice of its edits (`ServedHierarchy.apply`).
    private func followHierarchy() {
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            // Taken under `writing`, so the index read is the one the round's edits bring the hierarchy to.
            guard let (round, index) = writing.withLock({ _ in hierarchy.withLock { $0.nextRound() }.map { ($0, state.index) } }) else { return }
            let features = index.features
            var result = round.hierarchy
            do {
                try result.apply(round.edits, leaving: features)
            } catch {
                result = ServedHierarchy(features: features, options: clusterOptions)
            }
            writing.withLock { _ in
                guard let epoch = hierarchy.withLock({ $0.finish(round, with: result) }) else { return }
                let clusters = ServedClusters(result, generation: round.generation, epoch: epoch, answerCacheBytes: answerCacheBytes)
                let now = state
                current.withLock {
                    $0 = ServedState(index: now.index, clusters: clusters, rowids: now.rowids, generation: now.generation,
                                     contentID: now.contentID, answerCacheBytes: answerCacheBytes)
                }
            }
            hierarchy.withLock { $0.takeWaiters(upTo: round.generation) }.forEach { $0.resume() }
            let took = clock.now - start
            let rest = max(took, Self.minimumRoundSpacing - took)
            usleep(UInt32(rest / .microseconds(1)))
        }
    }

    /// Returns once the served clusters are of `generation` or a later one.
    /// - Complexity: O(1) to register; the wait lasts the rounds still to run.
    func hierarchyCaughtUp(to generation: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !hierarchy.withLock({ $0.wait(for: generation, continuation) }) { continuation.resume() }
        }
    }
}
