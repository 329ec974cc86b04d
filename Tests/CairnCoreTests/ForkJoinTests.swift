import Dispatch
import Foundation
import Synchronization
import Testing
@testable import CairnCore

@Suite("forkJoin")
struct ForkJoinTests {
    @Test("both results come back, each closure run once")
    func results() {
        let runs = Atomic<Int>(0)
        for k in 0..<200 {
            let (a, b) = forkJoin({ (0..<k).reduce(0, +) }, {
                runs.add(1, ordering: .relaxed)
                return (0..<k).map { $0 * 2 }.reduce(0, +)
            })
            #expect(a == k * (k - 1) / 2 && b == k * (k - 1))
        }
        let ran = runs.load(ordering: .relaxed)
        #expect(ran == 200)
    }

    /// The other thread starts two seconds late (as when every thread of the pool is busy): the caller, done with
    /// its own half, runs the other half itself instead of waiting, and the late start then does nothing.
    @Test("a caller whose other half has not started runs it itself")
    func lateStart() {
        let caller = pthread_self()
        let runs = Atomic<Int>(0), onCaller = Atomic<Bool>(false)
        let (a, b) = forkJoin({ 1 }, {
            runs.add(1, ordering: .relaxed)
            onCaller.store(pthread_equal(pthread_self(), caller) != 0, ordering: .relaxed)
            return 2
        }, start: { work in DispatchQueue.global().asyncAfter(deadline: .now() + 2, execute: work) })
        let ranOnCaller = onCaller.load(ordering: .relaxed)
        #expect(a == 1 && b == 2 && ranOnCaller)
        Thread.sleep(forTimeInterval: 2.5) // the late start finds the work taken
        let ran = runs.load(ordering: .relaxed)
        #expect(ran == 1)
    }
}
