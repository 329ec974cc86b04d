import Dispatch
import Foundation
import Synchronization

/// Runs `background` on another thread while `foreground` runs on this one, and returns both results. When this
/// thread is done first it takes `background` back if no other thread has started it (so a pool whose threads all
/// wait here cannot stall), and otherwise spins until it is done (it is working for this call, and a sleeping wait
/// costs tens of microseconds to wake), yielding the processor after a while.
/// `start` hands work to another thread (tests pass one that holds it back).
/// - Complexity: that of the two closures, plus a thread hand-off (a few microseconds to tens).
func forkJoin<A, B>(_ foreground: () -> A, _ background: @escaping @Sendable () -> B,
                    start: (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global(qos: .userInitiated).async(execute: $0) })
    -> (A, B) {
    let handoff = ForkJoinHandoff<B>()
    start {
        guard handoff.state.compareExchange(expected: ForkJoinHandoff<B>.waiting, desired: ForkJoinHandoff<B>.running,
                                            ordering: .acquiring).exchanged else { return }
        handoff.result = background()
        handoff.state.store(ForkJoinHandoff<B>.done, ordering: .releasing)
    }
    let a = foreground()
    if handoff.state.compareExchange(expected: ForkJoinHandoff<B>.waiting, desired: ForkJoinHandoff<B>.taken,
                                     ordering: .acquiring).exchanged {
        return (a, background())
    }
    var spins = 0
    while handoff.state.load(ordering: .acquiring) != ForkJoinHandoff<B>.done {
        spins += 1
        if spins > 100_000 { sched_yield() }
    }
    return (a, handoff.result!)
}

/// The state of `forkJoin`'s background closure, and its result when another thread ran it (written once before
/// `state` becomes `done`, read only after that is seen).
private final class ForkJoinHandoff<B>: @unchecked Sendable {
    static var waiting: Int { 0 }
    static var running: Int { 1 }
    static var done: Int { 2 }
    /// The calling thread ran it itself.
    static var taken: Int { 3 }

    let state = Atomic<Int>(0)
    var result: B?
}
