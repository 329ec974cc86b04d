import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnStore

/// Two writers of one store file (two `FeatureStore`s on the same path: separate SQLite connections, which lock one
/// another as two processes do): the second waits its turn, within its bound; readers never wait.
@Suite struct WriterWaitTests {
    /// A write transaction held open on another thread until `release()`: the "other writer".
    final class HeldWrite: @unchecked Sendable {
        private let holding = DispatchSemaphore(value: 0)
        private let released = DispatchSemaphore(value: 0)
        private let finished = DispatchSemaphore(value: 0)
        private(set) var error: (any Error)?

        /// Starts the write of `features` on `store` and returns once its transaction holds the store.
        init(_ store: FeatureStore, writing features: [Feature]) throws {
            Thread.detachNewThread { [self] in
                do {
                    try store.write { writer in
                        try writer.upsert(features)
                        holding.signal()
                        // Bounded, so that a failing test cannot hang the suite.
                        _ = released.wait(timeout: .now() + 60)
                    }
                } catch {
                    self.error = error
                    holding.signal()
                }
                finished.signal()
            }
            _ = holding.wait(timeout: .now() + 60)
            if let error { throw error }
        }

        /// Lets the transaction commit and waits for it.
        func release() throws {
            released.signal()
            _ = finished.wait(timeout: .now() + 60)
            if let error { throw error }
        }
    }

    /// Counts calls, from any thread.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        let firstCall = DispatchSemaphore(value: 0)
        var count: Int { lock.withLock { value } }
        func increment() {
            let first = lock.withLock { value += 1; return value == 1 }
            if first { firstCall.signal() }
        }
    }

    @Test func aSecondWriterWaitsForTheFirstToCommitAndBothWritesLand() throws {
        let folder = try TemporaryFolder()
        let path = folder.path()
        let first = try FeatureStore(path: path)
        try first.upsert([try point("old", latitude: 1, longitude: 1)])
        let waits = Counter()
        let second = try FeatureStore(path: path, writerWaitSeconds: 60, onWaitingForWriter: { waits.increment() })
        let held = try HeldWrite(first, writing: [try point("a", latitude: 2, longitude: 2)])

        let secondDone = DispatchSemaphore(value: 0)
        let secondResult = ResultBox()
        Thread.detachNewThread {
            secondResult.set(Result { try second.upsert([try point("b", latitude: 3, longitude: 3)]) })
            secondDone.signal()
        }
        // The second writer says it waits, and does not finish while the first holds the store.
        #expect(waits.firstCall.wait(timeout: .now() + 60) == .success)
        #expect(secondResult.value == nil)
        // A reader answers at once, from the last committed state.
        let reader = try FeatureStore(path: path)
        #expect(try reader.count() == 1)
        #expect(try reader.feature(id: "a") == nil)

        try held.release()
        #expect(secondDone.wait(timeout: .now() + 60) == .success)
        try #require(secondResult.value).get()
        #expect(waits.count == 1)
        #expect(try reader.count() == 3)
        for id in ["old", "a", "b"] { #expect(try reader.feature(id: id) != nil) }
    }

    @Test(arguments: [0.0, 0.3])
    func aWriterGivesUpWhenItsBoundPasses(waitSeconds: Double) throws {
        let folder = try TemporaryFolder()
        let path = folder.path()
        let first = try FeatureStore(path: path)
        let waits = Counter()
        let second = try FeatureStore(path: path, writerWaitSeconds: waitSeconds, onWaitingForWriter: { waits.increment() })
        #expect(second.writerWaitSeconds == waitSeconds)
        let held = try HeldWrite(first, writing: [try point("a", latitude: 2, longitude: 2)])
        #expect(throws: StoreError.busy(path: path, operation: "write transaction", waitedSeconds: waitSeconds)) {
            try second.delete(id: "a")
        }
        // Announced once when it waited at all; a bound of 0 fails at once, without a word.
        #expect(waits.count == (waitSeconds > 0 ? 1 : 0))
        try held.release()
        #expect(try second.feature(id: "a") != nil)
        #expect(try second.delete(id: "a"))
    }

    @Test func theBusyErrorSaysWhatHappened() {
        let error = StoreError.busy(path: "s.sqlite", operation: "write transaction", waitedSeconds: 60)
        #expect(error.description == "s.sqlite: write transaction gave up: another writer still held the store after 60 s of waiting; try again when it has finished, or wait longer")
        #expect(StoreError.busy(path: "s", operation: "o", waitedSeconds: 0.5).description.contains("after 0.5 s"))
    }

    /// Two processes creating the same new store at once: each must open it (one waits for the other's migration
    /// rather than running it again) and write.
    @Test func storesOpenedAtOnceOnANewFileAllOpenAndWrite() throws {
        for round in 0..<20 {
            let folder = try TemporaryFolder()
            let path = folder.path()
            let openers = 4
            let results = (0..<openers).map { _ in ResultBox() }
            let start = DispatchSemaphore(value: 0)
            let done = DispatchSemaphore(value: 0)
            for k in 0..<openers {
                Thread.detachNewThread {
                    start.wait()
                    results[k].set(Result {
                        let store = try FeatureStore(path: path)
                        try store.upsert([try point("p\(k)", latitude: Double(k), longitude: 0)])
                    })
                    done.signal()
                }
            }
            for _ in 0..<openers { start.signal() }
            for _ in 0..<openers { #expect(done.wait(timeout: .now() + 60) == .success) }
            for (k, result) in results.enumerated() {
                #expect(throws: Never.self, "round \(round), opener \(k)") { try #require(result.value).get() }
            }
            #expect(try FeatureStore(path: path).count() == openers)
        }
    }
}

/// A result set on one thread and read on another.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<Void, any Error>?
    var value: Result<Void, any Error>? { lock.withLock { stored } }
    func set(_ result: Result<Void, any Error>) { lock.withLock { stored = result } }
}
