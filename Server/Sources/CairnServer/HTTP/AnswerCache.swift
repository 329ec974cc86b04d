import HTTPTypes
import Hummingbird

/// Answers already written for one state, by request URL: a map's clients ask for the same viewports, clusters and
/// places again and again, and between two edits the answer cannot change. Bounded in bytes; when full it empties
/// (a new state starts with an empty cache anyway), which keeps each lookup one hash and one short lock.
final class AnswerCache: Sendable {
    /// A written answer: its body, media type and the headers it was sent with.
    struct Entry: Sendable {
        init(body: [UInt8], contentType: String, headers: HTTPFields = [:], isGzip: Bool = false) {
            self.init(body: ByteBuffer(bytes: body), contentType: contentType, headers: headers, isGzip: isGzip)
        }

        init(body: ByteBuffer, contentType: String, headers: HTTPFields = [:], isGzip: Bool = false) {
            self.body = body
            self.contentType = contentType
            self.headers = headers
            self.isGzip = isGzip
        }

        /// The bytes sent: gzip when `isGzip`, so that a cached answer is compressed once. NIO's buffer, which every
        /// response of the answer shares (copy on write): a cached answer goes out without a copy.
        let body: ByteBuffer
        let contentType: String
        /// The headers sent with it (`Content-Encoding` and `Vary` included).
        let headers: HTTPFields
        /// Whether `body` is gzip (its `ETag` then differs from the plain answer's).
        let isGzip: Bool
    }

    private let limitBytes: Int
    private let entries = Locked<(answers: [String: Entry], bytes: Int)>(([:], 0))

    /// A cache holding at most `limitBytes` of answers (0 keeps none).
    init(limitBytes: Int) {
        self.limitBytes = limitBytes
    }

    /// The answer kept for `key`, if any.
    /// - Complexity: O(1) on average.
    func answer(for key: String) -> Entry? {
        guard limitBytes > 0 else { return nil }
        return entries.withLock { $0.answers[key] }
    }

    /// Keeps `entry` for `key`; an answer larger than a sixteenth of the limit is not kept.
    /// - Complexity: O(1) on average.
    func keep(_ entry: Entry, for key: String) {
        let size = entry.body.readableBytes + key.utf8.count
        guard limitBytes > 0, size <= limitBytes / 16 else { return }
        entries.withLock { kept in
            if kept.bytes + size > limitBytes { kept = ([:], 0) }
            if kept.answers.updateValue(entry, forKey: key) == nil { kept.bytes += size }
        }
    }
}
