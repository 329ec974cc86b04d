/// Splits a byte stream into records for JSON lines and GeoJSON text sequences, one record in memory at a time.
///
/// Two framings, chosen from the first non-whitespace byte of the file:
/// - `.recordSeparators` (RFC 7464 / RFC 8142): each record starts with RS (0x1E) and should end with LF; a record
///   may span lines. A record that does not end with LF is possibly truncated (RFC 7464, section 2.3).
/// - `.lines`: one record per line (LF, with an optional CR before it).
///
/// A record longer than `maxRecordBytes` keeps only its first `maxRecordBytes` bytes in memory; the rest is read
/// and dropped up to the record's end, so memory stays about the limit whatever the record, and the caller
/// rejects that record alone (`Record.length` says how long it was).
final class DelimitedRecordSplitter {
    enum Framing { case lines, recordSeparators }

    /// One record's bytes and where they start.
    struct Record {
        /// The 1-based line and byte column of `bytes[0]`.
        var line: Int
        var column: Int
        /// Whether the record ended with a line feed (always true for lines except perhaps the last).
        var terminated: Bool
        /// The record's length in bytes, counted whole even when only its first `maxRecordBytes` were kept.
        var length = 0
        /// Whether the record was longer than `maxRecordBytes` (then `bytes` holds only its beginning).
        var isOversized = false
    }

    private static let recordSeparator: UInt8 = 0x1E
    private let cursor: JSONByteCursor
    let framing: Framing
    /// The current record's bytes (without RS; for lines without LF and CR).
    private(set) var bytes: [UInt8] = []
    /// The longest record kept in memory, in bytes.
    let maxRecordBytes: Int
    /// The record's length so far, kept and dropped bytes together.
    private var length = 0

    init(cursor: JSONByteCursor, maxRecordBytes: Int = ImportOptions.defaultMaxRecordBytes) throws(InputError) {
        self.cursor = cursor
        self.maxRecordBytes = max(1, maxRecordBytes)
        try cursor.skipByteOrderMark()
        let first = try cursor.skipWhitespace()
        framing = first == DelimitedRecordSplitter.recordSeparator ? .recordSeparators : .lines
    }

    /// Reads the next record into `bytes`; nil at the end of the file.
    /// - Complexity: O(n) in the record's bytes.
    func next() throws(InputError) -> Record? {
        // A buffer grown by one big record is given back rather than held for the rest of the file.
        if bytes.capacity > DelimitedRecordSplitter.keptCapacity { bytes = [] } else { bytes.removeAll(keepingCapacity: true) }
        length = 0
        guard try cursor.refill() else { return nil }
        switch framing {
        case .lines:
            let record = Record(line: cursor.line, column: cursor.column, terminated: false)
            while try cursor.refill() {
                let start = cursor.position
                var index = start
                while index < cursor.count && cursor.bytes[index] != 0x0A { index += 1 }
                keep(from: start, to: index)
                if index < cursor.count {
                    cursor.noteNewline(at: index)
                    cursor.position = index + 1
                    if bytes.last == 0x0D && !isOversized { bytes.removeLast() }
                    return finished(Record(line: record.line, column: record.column, terminated: true))
                }
                cursor.position = index
            }
            if bytes.last == 0x0D && !isOversized { bytes.removeLast() }
            return finished(record)
        case .recordSeparators:
            // The cursor is at an RS (or, for text before the first RS, at that text).
            if cursor.bytes[cursor.position] == DelimitedRecordSplitter.recordSeparator { cursor.position += 1 }
            guard try cursor.refill() else { return Record(line: cursor.line, column: cursor.column, terminated: false) }
            let line = cursor.line, column = cursor.column
            while try cursor.refill() {
                let start = cursor.position
                var index = start
                while index < cursor.count {
                    let byte = cursor.bytes[index]
                    if byte == DelimitedRecordSplitter.recordSeparator { break }
                    if byte == 0x0A { cursor.noteNewline(at: index) }
                    index += 1
                }
                keep(from: start, to: index)
                cursor.position = index
                if index < cursor.count { break }
            }
            var terminated = false
            for byte in bytes.reversed() {
                if byte == 0x0A { terminated = true; break }
                if byte != 0x20 && byte != 0x09 && byte != 0x0D { break }
            }
            return finished(Record(line: line, column: column, terminated: terminated))
        }
    }

    /// Above this capacity (1 MiB) the record buffer is released after use.
    private static let keptCapacity = 1 << 20

    /// Whether the current record is longer than `maxRecordBytes`.
    private var isOversized: Bool { length > maxRecordBytes }

    /// Counts `cursor.bytes[start..<end]` into the record and keeps what fits under the limit.
    @inline(__always)
    private func keep(from start: Int, to end: Int) {
        let room = maxRecordBytes - bytes.count
        if end - start <= room {
            cursor.append(from: start, to: end, into: &bytes)
        } else if room > 0 {
            // Grown to the limit exactly, not to the next power of two.
            bytes.reserveCapacity(maxRecordBytes)
            cursor.append(from: start, to: start + room, into: &bytes)
        }
        length += end - start
    }

    private func finished(_ record: Record) -> Record {
        var record = record
        record.length = length
        record.isOversized = isOversized
        return record
    }

    /// Whether the current record holds only whitespace (a blank line, or an empty RS record).
    var isBlank: Bool { bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A } }

    /// The line of the first non-whitespace byte of the current record, given the record's first line.
    func contentLine(from record: Record) -> Int {
        var line = record.line
        for byte in bytes {
            if byte == 0x0A { line += 1 } else if byte != 0x20 && byte != 0x09 && byte != 0x0D { break }
        }
        return line
    }
}

/// Parses the splitter's current record, turning a syntax error into a rejection at `line`; a record longer than
/// the limit is rejected unparsed.
func parseDelimitedRecord(_ splitter: DelimitedRecordSplitter, _ record: DelimitedRecordSplitter.Record, line: Int,
                 file: String) -> Result<JSONValue, RowRejection> {
    if record.isOversized {
        return .failure(RowRejection(file: file, line: line, field: nil,
                                     reason: oversizedRecordReason(length: record.length, limit: splitter.maxRecordBytes)))
    }
    do throws(JSONSyntaxError) {
        return .success(try JSONParser.parse(splitter.bytes, firstLine: record.line, firstColumn: record.column))
    } catch {
        let atEnd = error.message.hasPrefix("unexpected end of input") || error.message.hasPrefix("unterminated")
        if !record.terminated && atEnd {
            return .failure(RowRejection(file: file, line: line, field: nil,
                                         reason: "unexpected end of file inside a feature (is the file truncated?)"))
        }
        return .failure(RowRejection(file: file, line: line, field: nil, reason: error.description))
    }
}

/// Why a record over the size limit is rejected, naming the flag that raises it.
func oversizedRecordReason(length: Int, limit: Int) -> String {
    let limitText = limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
    return "the record is \(length) bytes long, over the limit of \(limitText) (raise it with --max-record-mib)"
}
