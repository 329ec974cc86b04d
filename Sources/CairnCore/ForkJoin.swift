import Dispatch
import Foundation
import Synchronization

/// Runs `background` on another thread while `foreground` runs on this one, and returns both results. The wait for
/// the other thread spins (it is working for this call, and a sleeping wait costs tens of microseconds to wake),
/// yielding the processor after a while in case the other thread waits for one.
/// - Complexity: that of the two closures, plus a thread hand-off (a few microseconds to tens).
func forkJoin<A, B>(_ foreground: () -> A, _ background: @escaping @Sendable () -> B) -> (A, B) {
    let handoff = ForkJoinHandoff<B>()
    DispatchQueue.global(qos: .userInitiated).async {
        handoff.result = background()
        handoff.done.store(true, ordering: .releasing)
    }
    let a = foreground()
    var spins = 0
    while !handoff.done.load(ordering: .acquiring) {
        spins += 1
        if spins > 100_000 { sched_yield() }
    }
    return (a, handoff.result!)
}

/// The other thread's result of `forkJoin`, published by `done`: written once before `done` is set, read only
/// after it is seen set.
private final class ForkJoinHandoff<B>: @unchecked Sendable {
    let done = Atomic<Bool>(false)
    var result: B?
}
