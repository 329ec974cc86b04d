import NIOCore

/// Closes a connection whose client takes nothing of its answer for `stallSeconds`, and again for as long:
/// Hummingbird's idle timeout spares a connection while its response is being written, so without this a client
/// that never reads would hold its answer, and the writer waiting on it, for ever. The writer reports each write
/// with `wrote(_:)` and calls `stop()` when done.
final class StallWatchdog: Sendable {
    private let written: Locked<Int>
    private let task: Task<Void, Never>?

    /// Watches `channel` (nothing when nil).
    init(channel: (any Channel)?, stallSeconds: Int) {
        let written = Locked<Int>(0)
        self.written = written
        task = channel.map { channel in
            Task {
                var seen = -1
                while (try? await Task.sleep(for: .seconds(stallSeconds))) != nil {
                    let now = written.withLock { $0 }
                    if now == seen {
                        channel.close(promise: nil)
                        return
                    }
                    seen = now
                }
            }
        }
    }

    /// Counts `bytes` more taken by the client.
    func wrote(_ bytes: Int) {
        written.withLock { $0 += bytes }
    }

    /// Ends the watch.
    func stop() {
        task?.cancel()
    }
}
