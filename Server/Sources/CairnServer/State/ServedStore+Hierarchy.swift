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
    ///
    /// A round never takes `writing`, and takes the other locks only for constant work: it runs at a lower
    /// priority, and a thread at nice 10 that holds a lock the change feed needs can be kept off the cores for
    /// hundreds of milliseconds by busier threads, the feed waiting all that time (priority inversion).
    /// - Complexity: per round O(n) for the features' list, O(e) to copy the hierarchy's tables and for the served
    ///   clusters' fragment slots, and the splice of its edits (`ServedHierarchy.apply`).
    private func followHierarchy() {
        let clock = ContinuousClock()
        while true {
            let start = clock.now
            guard var round = hierarchy.withLock({ $0.nextRound() }) else { return }
            var result = round.hierarchy
            do {
                try result.apply(round.edits)
            } catch {
                (result, round) = hierarchyFromIndex()
            }
            let epoch = hierarchy.withLock { $0.nextEpoch }
            let clusters = ServedClusters(result, generation: round.generation, epoch: epoch, answerCacheBytes: answerCacheBytes)
            // The backlog and the state change together, so that a reload meanwhile is never undone by this round.
            let replaced = hierarchy.withLock { backlog -> ServedState? in
                guard backlog.finish(round, with: result, epoch: epoch) else { return nil }
                return current.replace {
                    ServedState(index: $0.index, clusters: clusters, rowids: $0.rowids, generation: $0.generation,
                                contentID: $0.contentID, answerCacheBytes: answerCacheBytes)
                }.old
            }
            withExtendedLifetime(replaced) {} // released here, outside the locks
            hierarchy.withLock { $0.takeWaiters(upTo: round.generation) }.forEach { $0.resume() }
            let took = clock.now - start
            let rest = max(took, Self.minimumRoundSpacing - took)
            usleep(UInt32(rest / .microseconds(1)))
        }
    }

    /// A hierarchy built afresh over the index as it is, and the round it ends (the backlog starts over from the
    /// index's generation), for a round whose edits did not fit its hierarchy (not expected: positions come from
    /// the index). Only this rare path takes `writing`, for the moment it reads the index.
    /// - Complexity: O(n log n).
    private func hierarchyFromIndex() -> (ServedHierarchy, HierarchyBacklog.Round) {
        let (index, round) = writing.withLock { _ in
            let now = state
            return (now.index, hierarchy.withLock { $0.restart(at: now.generation) })
        }
        return (ServedHierarchy(features: index.features, options: clusterOptions), round)
    }

    /// Returns once the served clusters are of `generation` or a later one.
    /// - Complexity: O(1) to register; the wait lasts the rounds still to run.
    func hierarchyCaughtUp(to generation: Int64) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !hierarchy.withLock({ $0.wait(for: generation, continuation) }) { continuation.resume() }
        }
    }
}
