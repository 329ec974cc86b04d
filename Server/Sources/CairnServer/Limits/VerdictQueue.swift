import Dispatch
import Hummingbird

/// The verdict rows of a check-in run on their way from the pipeline's thread to the client, at most `capacity`
/// chunks at once: the pipeline waits while the client is slow, so an answer is never held whole in memory,
/// and it drops its rows (and stops at its next batch) once the request's work should stop.
final class VerdictQueue: Sendable {
    private let slots: DispatchSemaphore
    private let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private let iterator: Locked<AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator>

    /// A queue of at most `capacity` chunks.
    init(capacity: Int) {
        // Made empty and then given its slots: libdispatch refuses to free a semaphore below its initial value,
        // which a queue whose reader left would be.
        slots = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { slots.signal() }
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        self.continuation = continuation
        iterator = Locked(stream.makeAsyncIterator())
    }

    /// Called on the pipeline's thread: waits for room, then queues `bytes`; drops them when `work` should stop.
    func put(_ bytes: [UInt8], unless work: RequestWork) {
        while slots.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
            if work.shouldStop { return }
        }
        continuation.yield(ByteBuffer(bytes: bytes))
    }

    /// Ends the rows, with the run's error if it failed.
    func finish(_ error: (any Error)?) {
        continuation.finish(throwing: error)
    }

    /// The next chunk, nil at the end (one reader at a time: the handler, then the body writer).
    func next() async throws -> ByteBuffer? {
        var current = iterator.withLock { $0 }
        let chunk = try await current.next()
        if chunk != nil { slots.signal() }
        return chunk
    }
}
