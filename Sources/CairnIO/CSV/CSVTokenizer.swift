/// Splits a byte stream into RFC 4180 records and fields, one record at a time, with flat memory.
///
/// Works on bytes only: a chunk buffer filled from a `ByteSource`, and one reusable buffer holding the current
/// record's field bytes (quotes removed, `""` turned into `"`). No `String` is made here; the caller decodes
/// the fields it uses. A record may straddle chunks; a quoted field may span lines.
///
/// Lenient where RFC 4180 is silent or strict: a quote inside an unquoted field is kept as a literal character,
/// text after a closing quote is appended to the field, a lone CR ends a line like LF and CRLF do,
/// and a UTF-8 byte order mark at the start of the stream is skipped.
///
/// Reference: RFC 4180, "Common Format and MIME Type for Comma-Separated Values (CSV) Files", section 2.
final class CSVTokenizer {
    /// Where the scanner is inside the current field; kept between chunks.
    private enum State {
        /// Before the first byte of a field.
        case fieldStart
        /// Inside an unquoted field (or after a closing quote).
        case unquoted
        /// Inside a quoted field.
        case quoted
        /// Just after a quote inside a quoted field: either the closing quote or the first half of `""`.
        case quoteInQuoted
    }

    private static let quote: UInt8 = 0x22
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    private let source: ByteSource
    private let separator: UInt8
    /// The longest record accepted, in bytes, so that an unterminated quote cannot buffer a whole file.
    let maxRecordBytes: Int
    private let chunk: UnsafeMutableBufferPointer<UInt8>
    private var chunkCount = 0
    private var position = 0
    private var reachedEnd = false
    private var startedStream = false

    /// The line the scanner is on (1-based).
    private var line = 1
    /// The previous record ended with CR outside quotes: a LF right after belongs to it.
    private var skipLineFeed = false

    /// The current record's field bytes, back to back (`recordByteCount` of `recordCapacity` used).
    private var recordStorage: UnsafeMutablePointer<UInt8>
    private var recordByteCount = 0
    private var recordCapacity: Int
    /// The end offset in the record bytes of each field of the current record.
    private var fieldEndStorage: UnsafeMutablePointer<Int>
    private var fieldEndCount = 0
    private var fieldEndCapacity: Int
    /// The 1-based line where the current record starts.
    private(set) var recordLine = 0
    /// The current record ended inside a quoted field at the end of the stream.
    private(set) var recordHasUnterminatedQuote = false
    /// Some field of the current record was quoted.
    private(set) var recordHasQuotes = false

    /// Creates a tokenizer reading `source` in chunks of `chunkSize` bytes (at least 4).
    /// - Parameters:
    ///   - separator: the field separator byte (`,` for CSV, tab for TSV).
    ///   - maxRecordBytes: the longest record accepted (64 MiB by default); a longer one is an `InputError`.
    /// - Complexity: O(chunkSize) to allocate the buffer.
    init(source: ByteSource, separator: UInt8 = 0x2C, chunkSize: Int = 1 << 18, maxRecordBytes: Int = 64 << 20) {
        self.source = source
        self.separator = separator
        self.maxRecordBytes = maxRecordBytes
        chunk = .allocate(capacity: max(chunkSize, 4))
        recordCapacity = max(1, min(1024, maxRecordBytes))
        recordStorage = .allocate(capacity: recordCapacity)
        fieldEndCapacity = 64
        fieldEndStorage = .allocate(capacity: fieldEndCapacity)
    }

    deinit {
        chunk.deallocate()
        recordStorage.deallocate()
        fieldEndStorage.deallocate()
    }

    /// The number of fields in the current record.
    var fieldCount: Int { fieldEndCount }

    /// The bytes of field `index` of the current record, valid until the next call to `nextRecord()`.
    /// - Complexity: O(1).
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = index == 0 ? 0 : fieldEndStorage[index - 1]
        return UnsafeBufferPointer(start: recordStorage + start, count: fieldEndStorage[index] - start)
    }

    /// Reads the next record; returns false at the end of the stream.
    /// An empty line gives a record with one empty field (the caller skips it).
    /// - Throws: `InputError` when the source cannot be read, or a record is longer than `maxRecordBytes`.
    /// - Complexity: O(n) in the bytes of the record.
    func nextRecord() throws(InputError) -> Bool {
        if !startedStream { try startStream() }
        recordByteCount = 0
        fieldEndCount = 0
        recordHasUnterminatedQuote = false
        recordHasQuotes = false

        let separator = self.separator
        let quote = Self.quote, lineFeed = Self.lineFeed, carriageReturn = Self.carriageReturn
        let bytes = UnsafeBufferPointer(chunk)
        // The scanner's state lives in locals in the hot loop and goes back to the properties at each exit.
        var state = State.fieldStart
        var position = self.position
        var line = self.line
        var started = false
        var quotedAfterCarriageReturn = false
        defer {
            self.position = position
            self.line = line
        }

        while true {
            if position == chunkCount {
                let more = reachedEnd ? false : try refill()
                position = 0
                if !more { return try finishAtEndOfStream(started: started, inQuotedField: state == .quoted) }
            }
            if !started {
                if skipLineFeed {
                    skipLineFeed = false
                    if bytes[position] == lineFeed {
                        position += 1
                        continue
                    }
                }
                started = true
                recordLine = line
            }

            switch state {
            case .fieldStart:
                if bytes[position] == quote {
                    position += 1
                    state = .quoted
                    recordHasQuotes = true
                    quotedAfterCarriageReturn = false
                    continue
                }
                state = .unquoted
                fallthrough

            case .unquoted:
                // Fast path: copy the run of ordinary bytes at once.
                let count = chunkCount
                var end = position
                while end < count {
                    let c = bytes[end]
                    if c == separator || c == lineFeed || c == carriageReturn { break }
                    end &+= 1
                }
                try appendBytes(bytes.baseAddress.unsafelyUnwrapped + position, end - position)
                position = end
                if end == count { continue }
                let c = bytes[end]
                position += 1
                try endField()
                if c == separator {
                    state = .fieldStart
                } else {
                    line += 1
                    skipLineFeed = c == carriageReturn
                    return true
                }

            case .quoted:
                let count = chunkCount
                var end = position
                while end < count {
                    let c = bytes[end]
                    if c == quote || c == lineFeed || c == carriageReturn { break }
                    end &+= 1
                }
                if end > position { quotedAfterCarriageReturn = false }
                try appendBytes(bytes.baseAddress.unsafelyUnwrapped + position, end - position)
                position = end
                if end == count { continue }
                let c = bytes[end]
                position += 1
                if c == quote {
                    state = .quoteInQuoted
                } else {
                    // A line break inside a quoted field is part of the value; it still moves the line count.
                    if c == carriageReturn {
                        line += 1
                        quotedAfterCarriageReturn = true
                    } else {
                        if !quotedAfterCarriageReturn { line += 1 }
                        quotedAfterCarriageReturn = false
                    }
                    try appendByte(c)
                }

            case .quoteInQuoted:
                if bytes[position] == quote {
                    try appendByte(quote)
                    position += 1
                    state = .quoted
                    quotedAfterCarriageReturn = false
                } else {
                    // That was the closing quote; anything up to the separator is appended as is.
                    state = .unquoted
                }
            }
        }
    }

    @inline(__always)
    private func appendBytes(_ start: UnsafePointer<UInt8>, _ count: Int) throws(InputError) {
        if count == 0 { return }
        if recordByteCount + count > recordCapacity { try growRecord(minimumCapacity: recordByteCount + count) }
        (recordStorage + recordByteCount).update(from: start, count: count)
        recordByteCount += count
    }

    @inline(__always)
    private func appendByte(_ byte: UInt8) throws(InputError) {
        if recordByteCount == recordCapacity { try growRecord(minimumCapacity: recordByteCount + 1) }
        recordStorage[recordByteCount] = byte
        recordByteCount += 1
    }

    @inline(__always)
    private func endField() throws(InputError) {
        if fieldEndCount == fieldEndCapacity {
            let capacity = fieldEndCapacity * 2
            // Field offsets count against the record limit too (a line of a million commas has no bytes to count).
            guard capacity * MemoryLayout<Int>.stride <= max(maxRecordBytes, 1024) else { throw recordTooLong() }
            let grown = UnsafeMutablePointer<Int>.allocate(capacity: capacity)
            grown.moveInitialize(from: fieldEndStorage, count: fieldEndCount)
            fieldEndStorage.deallocate()
            fieldEndStorage = grown
            fieldEndCapacity = capacity
        }
        fieldEndStorage[fieldEndCount] = recordByteCount
        fieldEndCount += 1
    }

    private func recordTooLong() -> InputError {
        InputError(file: source.path, line: recordLine,
                   message: "the record starting on this line is longer than \(maxRecordBytes) bytes; is a quoted field left unterminated?")
    }

    private func growRecord(minimumCapacity: Int) throws(InputError) {
        guard minimumCapacity <= maxRecordBytes else { throw recordTooLong() }
        let capacity = min(max(recordCapacity * 2, minimumCapacity), maxRecordBytes)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.update(from: recordStorage, count: recordByteCount)
        recordStorage.deallocate()
        recordStorage = grown
        recordCapacity = capacity
    }

    /// Ends the record in progress at the end of the stream; returns whether there was one.
    private func finishAtEndOfStream(started: Bool, inQuotedField: Bool) throws(InputError) -> Bool {
        guard started else { return false }
        recordHasUnterminatedQuote = inQuotedField
        try endField()
        return true
    }

    /// Reads the next chunk; returns false at the end of the stream.
    private func refill() throws(InputError) -> Bool {
        let count = try source.read(into: UnsafeMutableRawBufferPointer(chunk))
        chunkCount = count
        position = 0
        if count == 0 { reachedEnd = true }
        return count > 0
    }

    /// Fills the first bytes (at least 3 unless the stream is shorter) and skips a UTF-8 byte order mark.
    private func startStream() throws(InputError) {
        startedStream = true
        chunkCount = 0
        while chunkCount < 3 {
            let count = try source.read(into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: chunk[chunkCount...])))
            if count == 0 { break }
            chunkCount += count
        }
        if chunkCount == 0 { reachedEnd = true }
        if chunkCount >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF { position = 3 }
    }
}
