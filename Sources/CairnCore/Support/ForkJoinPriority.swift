import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// The Dispatch priority `forkJoin` hands its second half to: the calling thread's own, so that work a caller runs at
/// a lowered priority (a server's background upkeep, at nice 10) does not take a core at a raised one. On Linux,
/// Dispatch runs user-initiated work at nice -2, above a server's requests (nice 0), and background work at nice 10.
enum ForkJoinPriority {
    /// The quality of service matching the calling thread's priority: user-initiated (as before) unless the thread
    /// runs at a lowered priority, then utility (nice 1-9, Dispatch's 2) or background (nice 10 and above).
    /// - Complexity: O(1) (one system call on Linux).
    static var ofCaller: DispatchQoS.QoSClass {
        #if os(Linux)
        // `who` 0 with PRIO_PROCESS names the calling thread on Linux; -1 is also a valid nice value, which is fine
        // here (it maps to user-initiated either way).
        let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        if nice >= 10 { return .background }
        if nice > 0 { return .utility }
        #endif
        return .userInitiated
    }
}
