import CairnIO
import SystemPackage
import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads a text file in large batches that end at a record boundary (a line feed: records are lines), so
/// that each batch can be split and parsed in parallel. Regular files are mapped; other files (pipes, devices)
/// are read through swift-system's `FileDescriptor`; `.gz` files through `ByteSource` (zlib); `-` is standard
/// input.
///
/// Memory is one buffer of about `batchBytes` (more only for a single record longer than that, up to
/// `maxRecordBytes` + 1), whatever the file size. A record longer than `maxRecordBytes` (its line feed not
/// counted), mapped or read, is not handed out: it is skipped to its end (an empty batch comes back and
/// `overlong` describes it), so that it costs one `malformed_row` at its line and its tail is never read as records
/// of its own; reading goes on with the next line (the rule of `cairn import`, where records are lines).
public final class CheckInBatchInput {
    /// The input's path as given (`-` for standard input), for messages.
    public let path: String
    private let gz: ByteSource?
    /// The open file (nil for `.gz`, read through `gz`).
    private let descriptor: FileDescriptor?
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

    /// Opens `path` (`-`: standard input; `.gz`: decompressed as it is read).
    /// - Parameters:
    ///   - path: the file to read; `-` for standard input.
    ///   - batchBytes: about how many bytes a batch holds (whole records).
    ///   - maxRecordBytes: the longest record handed out; a longer one becomes one `malformed_row`.
    /// - Throws: `CheckInError` when the file cannot be opened or is a directory.
    /// - Complexity: O(1) (a regular file is mapped, not read).
    public init(path: String, batchBytes: Int = 8 << 20, maxRecordBytes: Int = 64 << 20) throws(CheckInError) {
        self.path = path
        self.maxRecordBytes = max(maxRecordBytes, batchBytes)
        if path == "-" {
            gz = nil
            descriptor = .standardInput
        } else if path.hasSuffix(".gz") {
            do { gz = try ByteSource(path: path) } catch { throw CheckInError("\(error)") }
            descriptor = nil
        } else {
            let info: Stat, fd: FileDescriptor
            do {
                info = try Stat(FilePath(path))
                guard info.type != .directory else { throw CheckInError("\(path): is a directory, expected a file") }
                fd = try FileDescriptor.open(FilePath(path), .readOnly)
            } catch let error as CheckInError {
                throw error
            } catch {
                throw CheckInError("\(path): cannot open: \(error)")
            }
            gz = nil
            descriptor = fd
            // A regular file is mapped: batches are read in place, with no copy and no read calls; pages of
            // finished batches are released (MADV_DONTNEED), so memory stays about one batch.
            // mmap returns MAP_FAILED ((void *)-1) on failure; reading then falls back to read(2).
            if info.type == .regular, info.size > 0,
               let region = mmap(nil, Int(info.size), PROT_READ, MAP_PRIVATE, fd.rawValue, 0),
               region != UnsafeMutableRawPointer(bitPattern: -1) {
                mapped = UnsafePointer(region.assumingMemoryBound(to: UInt8.self))
                mappedSize = Int(info.size)
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
        if let descriptor, descriptor != .standardInput { try? descriptor.close() }
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
            CheckInBatchInput.prefaultChecksum.store(sum)
            semaphore.signal()
        }
    }

    /// Where the prefault's bytes go, so that the reads are not optimised away.
    static let prefaultChecksum = PrefaultChecksum()

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
            if window > maxRecordBytes {
                // No line feed in `maxRecordBytes` + 1 bytes: the record at `start` is longer than allowed; skip to its end.
                var skip = CheckInRecordSkip(head: UnsafeBufferPointer(start: file + start, count: min(Self.headBytes, end - start)))
                let consumed = skip.scan(UnsafeBufferPointer(start: file + start, count: mappedSize - start))
                overlong = skip.record
                previousStart = start
                mappedPosition = start + consumed
                return UnsafeBufferPointer(start: file + start, count: 0)
            }
            // Never past the limit (+ 1 byte for the line feed of a record of exactly the limit), as when reading.
            window = min(window * 2, maxRecordBytes + 1)
        }
        previousStart = start
        mappedPosition = mappedSize
        return UnsafeBufferPointer(start: file + start, count: mappedSize - start)
    }

    /// Whether a batch has been handed out (the first one loses a UTF-8 byte order mark).
    private var started = false

    /// The next batch of whole records, valid until the next call, or nil at the end of the file.
    /// The first batch of a file starts with its header, without the UTF-8 byte order mark the file may begin with.
    /// - Throws: `CheckInError` for read errors.
    func next() throws(CheckInError) -> UnsafeBufferPointer<UInt8>? {
        guard let batch = try nextBatch() else { return nil }
        defer { started = true }
        if !started, batch.count >= 3, batch[0] == 0xEF, batch[1] == 0xBB, batch[2] == 0xBF {
            return UnsafeBufferPointer(rebasing: batch[3...])
        }
        return batch
    }

    private func nextBatch() throws(CheckInError) -> UnsafeBufferPointer<UInt8>? {
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
            if capacity > maxRecordBytes {
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
            // Memory never goes past the limit (+ 1 byte for the line feed of a record of exactly the limit).
            let grown = min(capacity * 2, maxRecordBytes + 1)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            bigger.update(from: buffer, count: filled)
            buffer.deallocate()
            buffer = bigger
            capacity = grown
        }
    }

    private func read(into target: UnsafeMutablePointer<UInt8>, count: Int) throws(CheckInError) -> Int {
        if let gz {
            do {
                return try gz.read(into: UnsafeMutableRawBufferPointer(start: target, count: count))
            } catch {
                throw CheckInError(error.description)
            }
        }
        guard let descriptor else { return 0 }
        do {
            // Interrupted reads are retried; 0 bytes is the end of the file.
            return try descriptor.read(into: UnsafeMutableRawBufferPointer(start: target, count: count))
        } catch {
            throw CheckInError("\(path): cannot read: \(error)")
        }
    }
}

extension CheckInBatchInput {
    /// How many of a skipped record's first bytes are kept (for its id).
    static let headBytes = 4096
}
