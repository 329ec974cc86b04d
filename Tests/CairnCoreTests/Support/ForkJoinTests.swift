import Dispatch
import Foundation
import Testing
@testable import CairnCore

/// What the closures of a `forkJoin` did, in order, from any thread.
private final class ForkJoinLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [String] = []
    private var held: [@Sendable () -> Void] = []

    func note(_ event: String) { lock.withLock { events.append(event) } }
    var noted: [String] { lock.withLock { events } }
    func hold(_ work: @escaping @Sendable () -> Void) { lock.withLock { held.append(work) } }
    func releaseHeld() { for work in lock.withLock({ held }) { work() } }
}

@Suite("forkJoin")
struct ForkJoinTests {
    /// The other thread is let go only once the caller is inside its own half, so the caller waits for it: both
    /// halves run once, and both results come back.
    @Test("both results come back when the other thread runs its half")
    func otherThreadRuns() {
        for k in 0..<50 {
            let log = ForkJoinLog(), started = DispatchSemaphore(value: 0)
            let (a, b) = forkJoin({ () -> Int in
                log.note("foreground")
                started.wait() // the other half has begun: the caller must wait for it, not take it
                return k
            }, {
                log.note("background")
                started.signal()
                return k * 10
            })
            #expect(a == k && b == k * 10)
            #expect(log.noted.sorted() == ["background", "foreground"])
        }
    }

    /// No thread starts the other half (as when every thread of the pool is busy): the caller, done with its own,
    /// runs it itself instead of waiting for ever; started afterwards, the held work does nothing. (Without the
    /// take-back this test would wait until the time limit of the forkJoin below, then fail.)
    @Test("a caller whose other half has not started runs it itself")
    func notStarted() {
        let log = ForkJoinLog(), finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let (a, b) = forkJoin({ () -> Int in log.note("foreground"); return 1 }, { () -> Int in log.note("background"); return 2 },
                                  start: { log.hold($0) })
            log.note("returned \(a) \(b)")
            finished.signal()
        }
        let done = finished.wait(timeout: .now() + 10) == .success
        #expect(done, "forkJoin waited for a half that no thread had started")
        log.releaseHeld() // lets a waiting forkJoin finish, and must not run the half again after a take-back
        if !done { _ = finished.wait(timeout: .now() + 10) }
        #expect(log.noted == ["foreground", "background", "returned 1 2"])
    }

    #if os(Linux)
    /// A caller at a lowered priority (a server's upkeep thread, nice 10) hands its other half to a thread of that
    /// priority, not to Dispatch's user-initiated threads (nice -2, above the server's requests); a caller at the
    /// normal priority keeps user-initiated. Checked on threads of their own, which end with their priority.
    @Test("the other half runs at the caller's priority")
    func theOtherHalfRunsAtTheCallersPriority() async throws {
        @Sendable func nice() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }
        func onThread(nice wanted: Int32) async -> (caller: DispatchQoS.QoSClass, otherHalfNice: Int32) {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, wanted)
                    let quality = ForkJoinPriority.ofCaller
                    let done = DispatchSemaphore(value: 0)
                    let seen = ManagedAtomicBox()
                    DispatchQueue.global(qos: quality).async {
                        seen.value = nice()
                        done.signal()
                    }
                    done.wait()
                    continuation.resume(returning: (quality, seen.value))
                }
            }
        }
        let lowered = await onThread(nice: 10)
        #expect(lowered.caller == .background)
        #expect(lowered.otherHalfNice >= 10, "Dispatch ran the background half at nice \(lowered.otherHalfNice)")
        let normal = await onThread(nice: 0)
        #expect(normal.caller == .userInitiated)
    }
    #endif
}

/// One value written by one thread and read by another after a semaphore (which orders the two).
private final class ManagedAtomicBox: @unchecked Sendable {
    var value: Int32 = 0
}
