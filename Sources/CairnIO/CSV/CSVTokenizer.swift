/// Splits a byte stream into RFC 4180 records and fields, one record at a time, with memory bounded by the record
/// size limit.
///
/// Works on bytes only: one buffer holds the stream from the current record's first byte on (a record that straddles
/// reads is moved to the front, and the buffer grows for a long record up to `maxRecordBytes` + 1 bytes, never more);
/// fields are spans of that buffer, and quoted fields are unescaped in place (quotes removed, `""` turned into `"`)
/// once their record is known to be whole. No `String` is made here; the caller decodes the fields it uses.
///
/// Lenient where RFC 4180 is silent or strict: a quote inside an unquoted field is kept as a literal character,
/// text after a closing quote is appended to the field (on a record of one line), a lone CR ends a line like LF and
/// CRLF do, and a UTF-8 byte order mark at the start of the stream is skipped.
///
/// **Recovery from a stray quote.** A quoted field may run over lines; a stray quote (`a,"Joe's Bar,1,1`) opens one
/// that swallows the lines after it until some later quote. So a record whose quoted field runs past the end of its
/// first line must end the way a real one does, or it is taken for a stray quote: when text other than a separator
/// or a line break follows any closing quote of that record, when it ends with a field count other than
/// `expectedFieldCount` (or gets more fields than that while being read), or when the stream ends inside the quote,
/// the record gets a `problem`, is reported at the line where it started, and reading resumes on the line after that
/// start line (the bytes are still in the buffer), so only that line is lost and the lines it swallowed are read as
/// records again. A record that ends cleanly with the expected count is accepted, as RFC 4180 says. The cost stays
/// linear: reading stops at the first sign of a break, and a line whose quotes all pair up when read inside a quote
/// cannot itself open a quote running past its end, so re-read lines do not re-read far again. What cannot be told
/// from a real quoted field: a stray quote whose partner is followed by a separator or line break and which leaves
/// exactly the expected number of fields; that record is read whole (its values are then usually rejected).
///
/// **Size limit.** A record longer than `maxRecordBytes` (bytes in the stream, line breaks inside it included), or
/// with more fields than `maxRecordBytes / 16`, gets a `problem` and reading resumes on the line after its start line,
/// the same rule; a first line longer than the buffer is skipped to its end without being held.
///
/// Reference: RFC 4180, "Common Format and MIME Type for Comma-Separated Values (CSV) Files", section 2.
final class CSVTokenizer {
    /// Where the scanner is inside the current field.
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

    /// What a refill of the buffer in the middle of a record gave.
    private enum Refill {
        /// More bytes after the record's kept bytes.
        case more
        /// The end of the stream.
        case end
        /// The record fills the largest buffer allowed: it is longer than the limit.
        case full
    }

    private static let quote: UInt8 = 0x22
    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D

    private let source: ByteSource
    private let separator: UInt8
    /// The longest record accepted, in bytes, so that an unterminated quote cannot buffer a whole file.
    let maxRecordBytes: Int
    /// The number of fields a record must have, once known (the header's); nil accepts any.
    var expectedFieldCount: Int?

    /// The stream's bytes `[0, filled)`; the current record starts at `recordStart`, the scan is at `position`.
    private var buffer: UnsafeMutablePointer<UInt8>
    /// The buffer's size in bytes: the chunk size, more only for a record that does not fit, up to `maxCapacity`.
    private(set) var bufferCapacity: Int
    /// `maxRecordBytes` + 1 (the byte that shows a record is too long), at least the chunk size.
    private let maxCapacity: Int
    private var filled = 0
    private var position = 0
    private var recordStart = 0
    private var reachedEnd = false
    private var startedStream = false

    /// The line the scanner is on (1-based).
    private var line = 1
    /// The previous record ended with CR outside quotes: a LF right after belongs to it.
    private var skipLineFeed = false

    /// Per field of the current record, its start and end offsets from `recordStart`, interleaved.
    private var bounds: UnsafeMutablePointer<Int>
    /// Fields `bounds` has room for.
    private var boundsCapacity: Int
    /// The number of fields in the current record.
    private(set) var fieldCount = 0
    /// The 1-based line where the current record starts.
    private(set) var recordLine = 0
    /// Why the current record could not be read, or nil; its fields are then none.
    private(set) var problem: CSVRecordProblem?
    /// Some field of the current record was quoted.
    private(set) var recordHasQuotes = false

    /// Creates a tokenizer reading `source` in chunks of `chunkSize` bytes (at least 4).
    /// - Parameters:
    ///   - separator: the field separator byte (`,` for CSV, tab for TSV).
    ///   - maxRecordBytes: the longest record accepted (64 MiB by default); a longer one gets a `problem`.
    /// - Complexity: O(chunkSize) to allocate the buffer.
    init(source: ByteSource, separator: UInt8 = 0x2C, chunkSize: Int = 1 << 18, maxRecordBytes: Int = 64 << 20) {
        self.source = source
        self.separator = separator
        // At most 2^60 bytes, so that offsets past the limit never overflow.
        self.maxRecordBytes = min(max(1, maxRecordBytes), 1 << 60)
        bufferCapacity = max(chunkSize, 4)
        maxCapacity = max(bufferCapacity, self.maxRecordBytes &+ 1)
        buffer = .allocate(capacity: bufferCapacity)
        boundsCapacity = 32
        bounds = .allocate(capacity: 2 * boundsCapacity)
    }

    deinit {
        buffer.deallocate()
        bounds.deallocate()
    }

    /// The bytes of field `index` of the current record, valid until the next call to `nextRecord()`.
    /// - Complexity: O(1).
    func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = bounds[2 &* index], end = bounds[2 &* index &+ 1]
        return UnsafeBufferPointer(start: buffer + recordStart + start, count: end &- start)
    }

    /// Reads the next record; returns false at the end of the stream. A record that cannot be read as one has a
    /// `problem` (and no fields); the next call reads on from the line after its first line.
    /// An empty line gives a record with one empty field (the caller skips it).
    /// - Throws: `InputError` when the source cannot be read.
    /// - Complexity: O(n) in the bytes of the record (amortised: a record taken for a stray quote is read again
    ///   from its second line).
    func nextRecord() throws(InputError) -> Bool {
        if !startedStream { try startStream() }
        fieldCount = 0
        problem = nil
        recordHasQuotes = false

        let separator = self.separator
        let quote = Self.quote, lineFeed = Self.lineFeed, carriageReturn = Self.carriageReturn
        // The scanner's state lives in locals in the hot loop and goes back to the properties at each exit.
        var bytes = buffer
        var state = State.fieldStart
        var position = self.position
        var line = self.line
        var started = false
        var quotedAfterCarriageReturn = false
        /// The current field's start, from `recordStart`.
        var fieldStart = 0
        /// Just after the record's first line break (inside a quoted field), from `recordStart`, or -1: where reading
        /// resumes when the record is rejected.
        var firstBreak = -1
        var firstBreakIsCarriageReturn = false
        /// The field whose quote ran past the first line.
        var spanningField = 0
        /// The line where text followed a closing quote (0: none yet).
        var textAfterQuoteLine = 0
        /// Just past the record's first `maxRecordBytes` + 1 bytes: the scan never goes beyond (none before the record starts).
        var limitEnd = Int.max
        defer {
            self.position = position
            self.line = line
        }

        while true {
            // The byte at `limitEnd` - 1 is in the record and the record goes on: it is longer than the limit.
            if position >= limitEnd {
                try abandon(.tooLong(limitBytes: maxRecordBytes), firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                            position: &position, line: &line, lineEnded: false)
                return true
            }
            if position == filled {
                if !started {
                    // Between records nothing needs keeping.
                    filled = 0
                    position = 0
                    recordStart = 0
                    if reachedEnd { return false }
                    if !(try fill()) { return false }
                    bytes = buffer
                    continue
                }
                let before = recordStart
                let refill = try refillKeepingRecord()
                position &-= before
                limitEnd &-= before
                bytes = buffer
                if refill == .end {
                    if state == .quoted {
                        try abandon(.unterminatedQuote(field: fieldCount), firstBreak: firstBreak,
                                    firstBreakIsCarriageReturn: firstBreakIsCarriageReturn, position: &position, line: &line, lineEnded: true)
                        return true
                    }
                    if fieldCount == boundsCapacity, !growBounds() {
                        try abandon(.tooManyFields(limit: maxFields), firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                                    position: &position, line: &line, lineEnded: true)
                        return true
                    }
                    appendField(start: fieldStart, end: position &- recordStart)
                    return try finishRecord(end: position &- recordStart, lastLine: line, firstBreak: firstBreak,
                                            firstBreakIsCarriageReturn: firstBreakIsCarriageReturn, spanningField: spanningField,
                                            position: &position, line: &line)
                }
                if refill == .full {
                    try abandon(.tooLong(limitBytes: maxRecordBytes), firstBreak: firstBreak,
                                firstBreakIsCarriageReturn: firstBreakIsCarriageReturn, position: &position, line: &line, lineEnded: false)
                    return true
                }
            }
            if !started {
                if skipLineFeed {
                    skipLineFeed = false
                    if bytes[position] == lineFeed {
                        position &+= 1
                        continue
                    }
                }
                started = true
                recordLine = line
                recordStart = position
                limitEnd = position &+ maxRecordBytes &+ 1
            }

            switch state {
            case .fieldStart:
                if bytes[position] == quote {
                    position &+= 1
                    state = .quoted
                    recordHasQuotes = true
                    quotedAfterCarriageReturn = false
                    continue
                }
                state = .unquoted
                fallthrough

            case .unquoted:
                // Fast path: skip the run of ordinary bytes at once, up to the byte past the size limit.
                let count = min(filled, limitEnd)
                var end = position
                while end < count {
                    let c = bytes[end]
                    if c == separator || c == lineFeed || c == carriageReturn { break }
                    end &+= 1
                }
                position = end
                if end == count { continue }
                let c = bytes[end]
                position &+= 1
                let fieldEnd = end &- recordStart
                if fieldCount == boundsCapacity, !growBounds() {
                    let lineEnded = c != separator
                    if lineEnded {
                        line &+= 1
                        skipLineFeed = c == carriageReturn
                    }
                    try abandon(.tooManyFields(limit: maxFields), firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                                position: &position, line: &line, lineEnded: lineEnded)
                    return true
                }
                appendField(start: fieldStart, end: fieldEnd)
                if c == separator {
                    state = .fieldStart
                    fieldStart = fieldEnd &+ 1
                    // A record running over lines with more fields than due is broken already: stop reading it.
                    if firstBreak >= 0, let expected = expectedFieldCount, fieldCount > expected {
                        try abandon(.fieldCount(field: spanningField, line: line, count: fieldCount, expected: expected, atLeast: true),
                                    firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                                    position: &position, line: &line, lineEnded: false)
                        return true
                    }
                } else {
                    line &+= 1
                    skipLineFeed = c == carriageReturn
                    return try finishRecord(end: fieldEnd, lastLine: line &- 1, firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                                            spanningField: spanningField, position: &position, line: &line)
                }

            case .quoted:
                let count = min(filled, limitEnd)
                var end = position
                while end < count {
                    let c = bytes[end]
                    if c == quote || c == lineFeed || c == carriageReturn { break }
                    end &+= 1
                }
                if end > position { quotedAfterCarriageReturn = false }
                position = end
                if end == count { continue }
                let c = bytes[end]
                position &+= 1
                if c == quote {
                    state = .quoteInQuoted
                } else {
                    // A line break inside a quoted field is part of the value; it still moves the line count.
                    if c == carriageReturn {
                        line &+= 1
                        quotedAfterCarriageReturn = true
                    } else {
                        if !quotedAfterCarriageReturn { line &+= 1 }
                        quotedAfterCarriageReturn = false
                    }
                    if firstBreak < 0 {
                        firstBreak = position &- recordStart
                        firstBreakIsCarriageReturn = c == carriageReturn
                        spanningField = fieldCount
                        if textAfterQuoteLine > 0 {
                            try abandon(.textAfterQuote(field: spanningField, line: textAfterQuoteLine), firstBreak: firstBreak,
                                        firstBreakIsCarriageReturn: firstBreakIsCarriageReturn, position: &position, line: &line, lineEnded: false)
                            return true
                        }
                    }
                }

            case .quoteInQuoted:
                let c = bytes[position]
                if c == quote {
                    position &+= 1
                    state = .quoted
                    quotedAfterCarriageReturn = false
                } else {
                    // That was the closing quote; anything up to the separator stays in the field.
                    state = .unquoted
                    if c != separator, c != lineFeed, c != carriageReturn {
                        if firstBreak >= 0 {
                            try abandon(.textAfterQuote(field: spanningField, line: line), firstBreak: firstBreak,
                                        firstBreakIsCarriageReturn: firstBreakIsCarriageReturn, position: &position, line: &line, lineEnded: false)
                            return true
                        }
                        if textAfterQuoteLine == 0 { textAfterQuoteLine = line }
                    }
                }
            }
        }
    }

    /// The most fields a record may have: their offsets (16 bytes a field) count against the record size limit,
    /// since a line of a million separators has few bytes to count.
    private var maxFields: Int { max(maxRecordBytes, 1024) / (2 * MemoryLayout<Int>.stride) }

    @inline(__always)
    private func appendField(start: Int, end: Int) {
        bounds[2 &* fieldCount] = start
        bounds[2 &* fieldCount &+ 1] = end
        fieldCount &+= 1
    }

    /// Doubles the room for field offsets; false when that would pass `maxFields`.
    private func growBounds() -> Bool {
        guard boundsCapacity < maxFields else { return false }
        let capacity = min(boundsCapacity * 2, maxFields)
        let grown = UnsafeMutablePointer<Int>.allocate(capacity: 2 * capacity)
        grown.moveInitialize(from: bounds, count: 2 * fieldCount)
        bounds.deallocate()
        bounds = grown
        boundsCapacity = capacity
        return true
    }

    /// Ends a record at its end (`end` from `recordStart`, line break excluded; `lastLine` its last line): checks its length and, when it ran
    /// over lines, its field count; unescapes its quoted fields. Returns true.
    private func finishRecord(end: Int, lastLine: Int, firstBreak: Int, firstBreakIsCarriageReturn: Bool, spanningField: Int,
                              position: inout Int, line: inout Int) throws(InputError) -> Bool {
        if end > maxRecordBytes {
            try abandon(.tooLong(limitBytes: maxRecordBytes), firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                        position: &position, line: &line, lineEnded: true)
            return true
        }
        if firstBreak >= 0, let expected = expectedFieldCount, fieldCount != expected {
            try abandon(.fieldCount(field: spanningField, line: lastLine, count: fieldCount, expected: expected, atLeast: false),
                        firstBreak: firstBreak, firstBreakIsCarriageReturn: firstBreakIsCarriageReturn,
                        position: &position, line: &line, lineEnded: true)
            return true
        }
        if recordHasQuotes { unescapeQuotedFields() }
        return true
    }

    /// Gives the current record `problem` and moves to the line after its first line: back to just after its first
    /// line break when it ran over lines, else past the end of that line (`lineEnded`: the scan is already there).
    private func abandon(_ problem: CSVRecordProblem, firstBreak: Int, firstBreakIsCarriageReturn: Bool,
                         position: inout Int, line: inout Int, lineEnded: Bool) throws(InputError) {
        self.problem = problem
        fieldCount = 0
        if firstBreak >= 0 {
            position = recordStart &+ firstBreak
            line = recordLine &+ 1
            skipLineFeed = firstBreakIsCarriageReturn
        } else if !lineEnded {
            try skipPastLineBreak(&position)
            line = recordLine &+ 1
        }
    }

    /// Moves `position` past the next CR or LF, reading on without keeping what it passes; at the end of the stream
    /// when there is none.
    private func skipPastLineBreak(_ position: inout Int) throws(InputError) {
        while true {
            var index = position
            while index < filled, buffer[index] != Self.lineFeed, buffer[index] != Self.carriageReturn { index &+= 1 }
            if index < filled {
                position = index &+ 1
                skipLineFeed = buffer[index] == Self.carriageReturn
                return
            }
            filled = 0
            position = 0
            recordStart = 0
            if reachedEnd { return }
            if !(try fill()) { return }
        }
    }

    /// Removes the quotes of each quoted field of the current record in place: `""` becomes `"`, and text after the
    /// closing quote is kept as is. Each field only shrinks, so writing trails reading.
    private func unescapeQuotedFields() {
        let base = buffer + recordStart
        let quote = Self.quote
        for index in 0..<fieldCount {
            let start = bounds[2 &* index], end = bounds[2 &* index &+ 1]
            guard end > start, base[start] == quote else { continue }
            var read = start &+ 1, write = start
            while read < end {
                let c = base[read]
                if c == quote {
                    if read &+ 1 < end, base[read &+ 1] == quote {
                        base[write] = quote
                        write &+= 1
                        read &+= 2
                        continue
                    }
                    read &+= 1
                    break
                }
                base[write] = c
                write &+= 1
                read &+= 1
            }
            while read < end {
                base[write] = base[read]
                write &+= 1
                read &+= 1
            }
            bounds[2 &* index &+ 1] = write
        }
    }

    /// Makes room after the current record's bytes and reads more there: moves the record to the front, grows the
    /// buffer when the record fills more than half of it (up to `maxCapacity`), then reads.
    private func refillKeepingRecord() throws(InputError) -> Refill {
        let keep = filled &- recordStart
        if recordStart > 0 {
            if keep > 0 { UnsafeMutableRawPointer(buffer).copyMemory(from: buffer + recordStart, byteCount: keep) }
            recordStart = 0
            filled = keep
        }
        if keep > bufferCapacity / 2, bufferCapacity < maxCapacity {
            // Doubling keeps the moves of a long record linear in its length.
            let capacity = bufferCapacity > maxCapacity / 2 ? maxCapacity : bufferCapacity * 2
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            grown.update(from: buffer, count: keep)
            buffer.deallocate()
            buffer = grown
            bufferCapacity = capacity
        }
        if keep == bufferCapacity { return .full }
        if reachedEnd { return .end }
        return try fill() ? .more : .end
    }

    /// Reads into `[filled, bufferCapacity)`; returns false at the end of the stream.
    private func fill() throws(InputError) -> Bool {
        let count = try source.read(into: UnsafeMutableRawBufferPointer(start: buffer + filled, count: bufferCapacity &- filled))
        if count == 0 {
            reachedEnd = true
            return false
        }
        filled &+= count
        return true
    }

    /// Fills the first bytes (at least 3 unless the stream is shorter) and skips a UTF-8 byte order mark.
    private func startStream() throws(InputError) {
        startedStream = true
        while filled < 3, try fill() {}
        if filled >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { position = 3 }
    }
}
