import CairnIO
#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file in large batches that end at a record boundary (a line feed outside CSV quotes), so
/// that each batch can be split and parsed in parallel. Plain files are read with `read(2)`; `.gz` files
/// through `ByteSource` (zlib); `-` is standard input.
///
/// Memory is one buffer of about `batchBytes` (more only for a single record longer than that, up to
/// `maxRecordBytes`), whatever the file size.
final class CheckInBatchInput {
    let path: String
    private let gz: ByteSource?
    private let descriptor: Int32
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes in the buffer: `[0, filled)`; the batch handed out last is `[0, batchEnd)`.
    private var filled = 0
    private var batchEnd = 0
    private var atEnd = false
    /// Whether CSV quotes decide record ends (false for JSON lines, where every line feed ends a record).
    let csvQuotes: Bool
    let maxRecordBytes: Int

    init(path: String, batchBytes: Int = 8 << 20, csvQuotes: Bool, maxRecordBytes: Int = 64 << 20) throws {
        self.path = path
        self.csvQuotes = csvQuotes
        self.maxRecordBytes = max(maxRecordBytes, batchBytes)
        if path == "-" {
            gz = nil
            descriptor = 0
        } else if path.hasSuffix(".gz") {
            gz = try ByteSource(path: path)
            descriptor = -1
        } else {
            var info = stat()
            guard stat(path, &info) == 0 else { throw CLIError("\(path): cannot open: \(String(cString: strerror(errno)))") }
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw CLIError("\(path): is a directory, expected a file") }
            // open returns -1 and sets errno on failure.
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw CLIError("\(path): cannot open: \(String(cString: strerror(errno)))") }
            gz = nil
            descriptor = fd
        }
        capacity = max(64, batchBytes)
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        if gz == nil, descriptor > 0 { close(descriptor) }
    }

    /// The next batch of whole records, valid until the next call, or nil at the end of the file.
    /// The first batch of a file starts with its header.
    /// - Throws: `CLIError` for read errors.
    func next() throws -> UnsafeBufferPointer<UInt8>? {
        // Drop the previous batch, keep its tail.
        if batchEnd > 0 {
            let tail = filled - batchEnd
            if tail > 0 { (buffer).update(from: buffer + batchEnd, count: tail) }
            filled = tail
            batchEnd = 0
        }
        while true {
            while filled < capacity, !atEnd {
                let n = try read(into: buffer + filled, count: capacity - filled)
                if n == 0 { atEnd = true } else { filled += n }
            }
            if filled == 0 { return nil }
            if atEnd {
                batchEnd = filled
                return UnsafeBufferPointer(start: buffer, count: filled)
            }
            let quoted = csvQuotes && CSVBoundaries.hasQuote(buffer, count: filled)
            if let end = CSVBoundaries.lastRecordEnd(buffer, count: filled, quoted: quoted) {
                batchEnd = end
                return UnsafeBufferPointer(start: buffer, count: end)
            }
            // No record end in a full buffer: one record is longer than the buffer.
            if capacity >= maxRecordBytes {
                // Give up on quote balance: cut at the last line feed, or hand out the whole buffer.
                let plain = CSVBoundaries.lastRecordEnd(buffer, count: filled, quoted: false) ?? filled
                batchEnd = plain
                return UnsafeBufferPointer(start: buffer, count: plain)
            }
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
    }

    private func read(into target: UnsafeMutablePointer<UInt8>, count: Int) throws -> Int {
        if let gz {
            do {
                return try gz.read(into: UnsafeMutableRawBufferPointer(start: target, count: count))
            } catch {
                throw CLIError(error.description)
            }
        }
        while true {
            // read returns the bytes read, 0 at end of file, -1 with errno (EINTR: retry).
            let n = Glibc.read(descriptor, target, count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw CLIError("\(path): cannot read: \(String(cString: strerror(errno)))")
        }
    }
}
