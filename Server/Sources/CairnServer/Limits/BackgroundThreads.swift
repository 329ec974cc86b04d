import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// Two threads of their own for the server's upkeep (the clusters following the edits, the index's compactions),
/// at a lower scheduling priority than the requests and the change feed: on a busy machine they take the cores
/// those leave, so answers and the index's edits stay fast while the upkeep falls behind (and catches up in larger,
/// cheaper batches). Two, so that a long run of cluster rounds does not hold a compaction back. Threads of their
/// own rather than Dispatch's or Swift's pools: a lowered priority cannot be raised back without privileges, so it
/// must not be lent to other work.
final class BackgroundThreads: Sendable {
    /// The nice value the threads run at (0 is the server's own; 19 the lowest).
    static let niceValue: Int32 = 10
    private let pool = NIOThreadPool(numberOfThreads: 2)

    /// Starts the threads.
    /// - Complexity: O(1).
    init() {
        pool.start()
    }

    deinit { pool.shutdownGracefully { _ in } }

    /// Runs `body` on one of the threads.
    /// - Complexity: O(1) to hand over.
    func run(_ body: @escaping @Sendable () -> Void) {
        pool.submit { _ in
            // On Linux a thread has a nice value of its own, and `who` 0 names the calling thread; set at every
            // piece of work, as which thread takes it is not known.
            #if canImport(Glibc)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, BackgroundThreads.niceValue)
            #endif
            body()
        }
    }
}
