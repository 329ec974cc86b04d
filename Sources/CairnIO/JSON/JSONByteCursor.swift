/// A forward cursor over a `ByteSource`'s bytes, one chunk in memory at a time, counting lines as it goes.
///
/// Readers scan `bytes[position..<count]` directly in their hot loops and call `refill()` when it runs out;
/// whoever consumes a newline byte calls `noteNewline(at:)` so `line` and `column` stay right.
final class JSONByteCursor {
    /// The default chunk size in bytes.
    static let defaultChunkSize = 1 << 16

    let source: ByteSource
    /// The chunk's storage; valid bytes are `0..<count`.
    let bytes: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// The next unread byte in the chunk.
    var position = 0
    /// The number of valid bytes in the chunk.
    private(set) var count = 0
    /// The 1-based line of the byte at `position`.
    private(set) var line = 1
    /// The absolute offset of `bytes[0]` in the (decompressed) stream.
    private var chunkOffset: Int64 = 0
    /// The absolute offset of the first byte of the current line.
    private var lineStartOffset: Int64 = 0
    private var reachedEnd = false

    /// Wraps a source; `chunkSize` is the bytes read at a time (tests use tiny chunks to cross boundaries).
    init(source: ByteSource, chunkSize: Int = JSONByteCursor.defaultChunkSize) {
        self.source = source
        capacity = max(1, chunkSize)
        bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    }

    deinit { bytes.deallocate() }

    /// The 1-based byte column of the byte at `position`.
    var column: Int { Int(chunkOffset + Int64(position) - lineStartOffset) + 1 }

    /// Records that the byte at chunk index `index` is a line feed.
    @inline(__always)
    func noteNewline(at index: Int) {
        line += 1
        lineStartOffset = chunkOffset + Int64(index) + 1
    }

    /// Reads the next chunk when the current one is used up; returns false at the end of the file.
    /// - Complexity: O(chunk size).
    func refill() throws(InputError) -> Bool {
        if position < count { return true }
        if reachedEnd { return false }
        chunkOffset += Int64(count)
        position = 0
        count = try source.read(into: UnsafeMutableRawBufferPointer(start: bytes, count: capacity))
        if count == 0 { reachedEnd = true }
        return count > 0
    }

    /// The byte at `position` without consuming it, or nil at the end of the file.
    func peek() throws(InputError) -> UInt8? {
        guard try refill() else { return nil }
        return bytes[position]
    }

    /// Skips JSON whitespace (space, tab, CR, LF) and returns the next byte without consuming it, or nil at the end.
    /// - Complexity: O(n) in the bytes skipped.
    func skipWhitespace() throws(InputError) -> UInt8? {
        while try refill() {
            while position < count {
                switch bytes[position] {
                case 0x20, 0x09, 0x0D: position += 1
                case 0x0A:
                    noteNewline(at: position)
                    position += 1
                default: return bytes[position]
                }
            }
        }
        return nil
    }

    /// Copies `bytes[start..<end]` of the current chunk to `buffer`.
    @inline(__always)
    func append(from start: Int, to end: Int, into buffer: inout [UInt8]) {
        if end > start { buffer.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start)) }
    }
}

extension JSONByteCursor {
    /// Skips a UTF-8 byte order mark at the start of a file.
    /// - Complexity: O(1).
    func skipByteOrderMark() throws(InputError) {
        guard try peek() == 0xEF else { return }
        // A BOM is 3 bytes; with a tiny chunk it can straddle chunks, so consume byte by byte.
        for expected: UInt8 in [0xEF, 0xBB, 0xBF] {
            guard try peek() == expected else { return }
            position += 1
        }
    }
}
