import CairnCore
import Dispatch

/// The builds of the hierarchies for a `kind`/`where` filter, one at a time on a thread of their own.
///
/// A build is O(n log n) with the server's clustering options (fixed at start; `/clusters` takes none), seconds
/// on hundreds of thousands of features, and the engine cannot stop one midway. So a build never runs on the
/// threads that answer requests: a request waits for it until its time limit and then gets a 503, while the build
/// goes on and is kept, so that the request asked again is answered at once. Builds queue behind each other, so
/// that clients asking for many filters at once hold one core, not all; a queued build whose requests all left
/// (time up, client gone) is skipped.
final class ClusterBuilds: Sendable {
    private let queue = DispatchQueue(label: "cairn.cluster-builds")

    /// The hierarchy of `clusters` for `filter` (canonical text `key`): at once when it needs no build or was
    /// built, else after its build, or a throw at the deadline of the request's work (`makeWork`).
    /// - Throws: `RequestError` (503) when the time is up, `ClientGone`.
    /// - Complexity: O(1) when built; else the build's O(n log n), off the caller's thread.
    func hierarchy(_ clusters: ServedClusters, filter: FeatureFilter, key: String,
                   work makeWork: () -> RequestWork) async throws -> ServedClusters.Clusters {
        if filter.acceptsAll { return clusters.clusters(matching: filter, key: key) }
        if let kept = clusters.kept(key: key) { return kept }
        // Made only for a build: the common requests (no filter, or one built) cost nothing more.
        let work = makeWork()
        try work.check()
        return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<ServedClusters.Clusters, any Error>) in
            let waiting = Locked<CheckedContinuation<ServedClusters.Clusters, any Error>?>(continuation)
            let resume = { @Sendable (result: Result<ServedClusters.Clusters, any Error>) in
                waiting.withLock { continuation in
                    continuation?.resume(with: result)
                    continuation = nil
                }
            }
            queue.async {
                // Built meanwhile for another request, or no longer waited for: nothing to build.
                if let kept = clusters.kept(key: key) { return resume(.success(kept)) }
                if work.shouldStop { return resume(.failure(work.isPastDeadline ? work.overTime : ClientGone())) }
                resume(.success(clusters.clusters(matching: filter, key: key)))
            }
            let remaining = work.deadline - .now
            let nanoseconds = remaining.components.seconds * 1_000_000_000 + remaining.components.attoseconds / 1_000_000_000
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(max(0, nanoseconds)))) {
                resume(.failure(work.overTime))
            }
        }
    }
}
