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
}
