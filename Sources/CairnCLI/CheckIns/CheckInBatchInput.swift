import CairnIO
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file in large batches that end at a record boundary (a line feed: records are lines), so
/// that each batch can be split and parsed in parallel. Plain files are read with `read(2)`; `.gz` files
/// through `ByteSource` (zlib); `-` is standard input.
///
/// Memory is one buffer of about `batchBytes` (more only for a single record longer than that, up to
/// `maxRecordBytes`), whatever the file size. A record longer than `maxRecordBytes` is not handed out: it is
/// skipped to its end (an empty batch comes back and `overlong` describes it), so that its tail is never
/// read as records of its own.
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
    let maxRecordBytes: Int
    /// Set by `next()` when it skipped a record longer than `maxRecordBytes` (it then returns an empty batch);
    /// cleared by the next call.
    private(set) var overlong: CheckInOverlongRecord?

    init(path: String, batchBytes: Int = 8 << 20, maxRecordBytes: Int = 64 << 20) throws {
        self.path = path
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
            // A regular file is mapped: batches are read in place, with no copy and no read calls; pages of
            // finished batches are released (MADV_DONTNEED), so memory stays about one batch.
            // mmap returns MAP_FAILED ((void *)-1) on failure; reading then falls back to read(2).
            if (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0,
               let region = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0),
               region != UnsafeMutableRawPointer(bitPattern: -1) {
                mapped = UnsafePointer(region.assumingMemoryBound(to: UInt8.self))
                mappedSize = Int(info.st_size)
            }
        }
        capacity = max(64, batchBytes)
        buffer = .allocate(capacity: mapped == nil ? capacity : 1)
    }

    deinit {
        prefaulted?.wait()
        buffer.deallocate()
        // munmap returns 0, or -1 with errno (nothing to do about it here).
        if let mapped { _ = munmap(UnsafeMutableRawPointer(mutating: mapped), mappedSize) }
        if gz == nil, descriptor > 0 { close(descriptor) }
    }

    /// The file's size in bytes when it is a mapped regular file (to size tables ahead), else nil.
    var sizeHint: Int? { mapped == nil ? nil : mappedSize }

    /// The mapped file, when the input is a regular file.
    private var mapped: UnsafePointer<UInt8>?
    private var mappedSize = 0
    /// The next batch starts here in the mapping; the previous batch was `[previousStart, mappedPosition)`.
    private var mappedPosition = 0
    private var previousStart = 0

    /// Signalled when the look-ahead has touched the next window's pages.
    private var prefaulted: DispatchSemaphore?

    /// Touches one byte per page of `[start, start + count)` on another thread, so that the page faults of the
    /// next batch are taken while this one is being validated rather than on the reading thread.
    private func prefault(_ file: UnsafePointer<UInt8>, start: Int, count: Int) {
        let semaphore = DispatchSemaphore(value: 0)
        prefaulted = semaphore
        let region = BatchPointer(base: file + start)
        DispatchQueue.global().async {
            var sum: UInt8 = 0
            var offset = 0
            while offset < count {
                sum &+= region.base[offset]
                offset += 4096
            }
            CheckInBatchInput.prefaultSink.store(sum)
            semaphore.signal()
        }
    }

    /// Where the prefault's bytes go, so that the reads are not optimised away.
    static let prefaultSink = ByteSink()

    /// `next()` for a mapped file.
    private func nextMapped(_ file: UnsafePointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        defer {
            if mappedPosition < mappedSize {
                prefault(file, start: mappedPosition, count: min(capacity, mappedSize - mappedPosition))
            }
        }
        if let prefaulted {
            prefaulted.wait()
            self.prefaulted = nil
        }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dropFrom = previousStart / page * page, dropTo = mappedPosition / page * page
        if dropTo > dropFrom {
            // madvise returns 0, or -1 with errno; a failure only means the pages stay mapped.
            _ = madvise(UnsafeMutableRawPointer(mutating: file + dropFrom), dropTo - dropFrom, MADV_DONTNEED)
        }
        guard mappedPosition < mappedSize else { return nil }
        let start = mappedPosition
        var window = capacity
        while true {
            let end = min(mappedSize, start + window)
            if end == mappedSize { break }
            if let cut = CSVBoundaries.lastRecordEnd(file + start, count: end - start) {
                previousStart = start
                mappedPosition = start + cut
                return UnsafeBufferPointer(start: file + start, count: cut)
            }
            if window >= maxRecordBytes {
                // The record at `start` is longer than allowed: skip to its end.
                var skip = CheckInRecordSkip(head: UnsafeBufferPointer(start: file + start, count: min(Self.headBytes, end - start)))
                let consumed = skip.scan(UnsafeBufferPointer(start: file + start, count: mappedSize - start))
                overlong = skip.record
                previousStart = start
                mappedPosition = start + consumed
                return UnsafeBufferPointer(start: file + start, count: 0)
            }
            window *= 2
        }
        previousStart = start
        mappedPosition = mappedSize
        return UnsafeBufferPointer(start: file + start, count: mappedSize - start)
    }

    /// Whether a batch has been handed out (the first one loses a UTF-8 byte order mark).
    private var started = false

    /// The next batch of whole records, valid until the next call, or nil at the end of the file.
    /// The first batch of a file starts with its header, without the UTF-8 byte order mark the file may begin with.
    /// - Throws: `CLIError` for read errors.
    func next() throws -> UnsafeBufferPointer<UInt8>? {
        guard let batch = try nextBatch() else { return nil }
        defer { started = true }
        if !started, batch.count >= 3, batch[0] == 0xEF, batch[1] == 0xBB, batch[2] == 0xBF {
            return UnsafeBufferPointer(rebasing: batch[3...])
        }
        return batch
    }

    private func nextBatch() throws -> UnsafeBufferPointer<UInt8>? {
        overlong = nil
        if let mapped { return nextMapped(mapped) }
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
            if let end = CSVBoundaries.lastRecordEnd(buffer, count: filled) {
                batchEnd = end
                return UnsafeBufferPointer(start: buffer, count: end)
            }
            // No record end in a full buffer: one record is longer than the buffer.
            if capacity >= maxRecordBytes {
                // Longer than allowed: skip it to its end, reading on as far as it goes.
                var skip = CheckInRecordSkip(head: UnsafeBufferPointer(start: buffer, count: min(Self.headBytes, filled)))
                var consumed = skip.scan(UnsafeBufferPointer(start: buffer, count: filled))
                while !skip.done {
                    filled = 0
                    while filled < capacity, !atEnd {
                        let n = try read(into: buffer + filled, count: capacity - filled)
                        if n == 0 { atEnd = true } else { filled += n }
                    }
                    consumed = skip.scan(UnsafeBufferPointer(start: buffer, count: filled))
                    if filled == 0 { break }
                }
                let tail = filled - consumed
                if tail > 0 { buffer.update(from: buffer + consumed, count: tail) }
                filled = tail
                batchEnd = 0
                overlong = skip.record
                return UnsafeBufferPointer(start: buffer, count: 0)
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

extension CheckInBatchInput {
    /// How many of a skipped record's first bytes are kept (for its id).
    static let headBytes = 4096
}

/// A record skipped for being longer than `CheckInBatchInput.maxRecordBytes`.
struct CheckInOverlongRecord {
    /// Its first bytes (up to `CheckInBatchInput.headBytes`).
    var head: [UInt8]
    /// Its length in bytes, line feed included.
    var bytes = 0
    /// Line feeds in it (for line numbers), the one ending it included.
    var lineFeeds = 0

    /// What was wrong with it.
    func problem(limit: Int) -> String {
        "a record of \(bytes) bytes, longer than \(limit), skipped"
    }
}

/// Finds the end of an overlong record (line) across buffers: its first line feed, counting bytes on the way.
struct CheckInRecordSkip {
    private(set) var done = false
    private(set) var record: CheckInOverlongRecord

    init(head: UnsafeBufferPointer<UInt8>) {
        record = CheckInOverlongRecord(head: Array(head))
    }

    /// Scans the next piece of the record; returns the bytes of `bytes` that belong to it (all of them
    /// unless its end is inside).
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if let i = bytes.firstIndex(of: 0x0A) {
            record.lineFeeds += 1
            done = true
            record.bytes += i + 1
            return i + 1
        }
        record.bytes += bytes.count
        return bytes.count
    }
}

/// A byte written by a background thread and never read: keeps look-ahead reads observable.
final class ByteSink: @unchecked Sendable {
    private var value: UInt8 = 0
    func store(_ byte: UInt8) { value = byte }
}
