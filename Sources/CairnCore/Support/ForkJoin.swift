import Atomics
import CCairnShims
import Dispatch
import Foundation

/// Runs `background` on another thread while `foreground` runs on this one, and returns both results. When this
/// thread is done first it takes `background` back if no other thread has started it (so a pool whose threads all
/// wait here cannot stall), and otherwise spins until it is done (it is working for this call, and a sleeping wait
/// costs tens of microseconds to wake), yielding the processor after a while. `start` hands work to another
/// thread (tests pass one that holds it back); by default a Dispatch thread of the caller's priority
/// (`ForkJoinPriority`).
/// - Complexity: that of the two closures, plus a thread hand-off (a few microseconds to tens).
func forkJoin<A, B: Sendable>(_ foreground: () -> A, _ background: @escaping @Sendable () -> B,
                              start: (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global(qos: ForkJoinPriority.ofCaller).async(execute: $0) })
    -> (A, B) {
    let handoff = ForkJoinHandoff<B>()
    start {
        guard handoff.state.compareExchange(expected: .waiting, desired: .running, ordering: .acquiringAndReleasing).exchanged
        else { return }
        handoff.result = background()
        handoff.state.store(.done, ordering: .releasing)
    }
    let a = foreground()
    if handoff.state.compareExchange(expected: .waiting, desired: .taken, ordering: .acquiringAndReleasing).exchanged {
        return (a, background())
    }
    var spins = 0
    while handoff.state.load(ordering: .acquiring) != .done {
        spins += 1
        // The pause hint lets a sibling hardware thread run while this one spins; Swift has no spelling for it.
        if spins > 100_000 { sched_yield() } else { cairn_spin_pause() }
    }
    return (a, handoff.result!)
}

/// Where `forkJoin`'s background closure is.
private enum ForkJoinState: Int, AtomicValue {
    /// Not started.
    case waiting
    /// Running on another thread.
    case running
    /// Done on another thread: its result is written.
    case done
    /// Taken back by the calling thread.
    case taken
}

/// The state of `forkJoin`'s background closure, and its result when another thread ran it (written once before
/// the state becomes `done`, read only after that is seen).
private final class ForkJoinHandoff<B: Sendable>: @unchecked Sendable {
    let state = ManagedAtomic(ForkJoinState.waiting)
    var result: B?
}
