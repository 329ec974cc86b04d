import Hummingbird
import NIOCore

/// A large answer written in chunks, each write waiting until the connection takes more (NIO's writability), so
/// that a client that reads slowly, or not at all, holds one chunk in the server's buffers rather than a copy of
/// its whole answer; the answer's own bytes are shared with the answer cache when it keeps them. A client that
/// stops reading has its connection closed (`StallWatchdog`).
enum StreamedAnswer {
    /// The bytes of one write of a streamed answer.
    static let chunkBytes = 128 << 10

    /// The size above which an answer is streamed; one at or below it is one buffer written at once. Two chunks, so
    /// that a whole-world viewport at a low zoom (110–170 KiB of clusters) goes out in one write: streaming costs a
    /// watchdog and an event-loop round trip per chunk, and a client that does not read holds at most this much.
    static let thresholdBytes = 2 * chunkBytes

    /// A body writing `bytes` in chunks (slices of the one buffer, no copies); `reservation` is released with the
    /// body (written, failed, or dropped).
    static func body(_ bytes: ByteBuffer, channel: (any Channel)?, stallSeconds: Int, holding reservation: Reservation) -> ResponseBody {
        ResponseBody(contentLength: bytes.readableBytes) { writer in
            let watchdog = StallWatchdog(channel: channel, stallSeconds: stallSeconds)
            defer {
                watchdog.stop()
                withExtendedLifetime(reservation) {}
            }
            var rest = bytes
            while let chunk = rest.readSlice(length: min(chunkBytes, rest.readableBytes)), chunk.readableBytes > 0 {
                try await writer.write(chunk)
                watchdog.wrote(chunk.readableBytes)
                try await channel?.settle()
            }
            try await writer.finish(nil)
        }
    }
}

extension Channel {
    /// Returns once the event loop has handled every write asked of it before: then the channel's writability
    /// is up to date, and the next write waits while the connection is full. Without it, writes asked faster than
    /// the event loop handles them all go through before the connection says it is full, and pile up in memory.
    func settle() async throws {
        try await eventLoop.submit {}.get()
    }
}
