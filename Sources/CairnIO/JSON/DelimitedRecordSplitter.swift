/// Splits a byte stream into records for JSON lines and GeoJSON text sequences, one record in memory at a time.
///
/// Two framings, chosen from the first non-whitespace byte of the file:
/// - `.recordSeparators` (RFC 7464 / RFC 8142): each record starts with RS (0x1E) and should end with LF; a record
///   may span lines. A record that does not end with LF is possibly truncated (RFC 7464, section 2.3).
/// - `.lines`: one record per line (LF, with an optional CR before it).
final class DelimitedRecordSplitter {
    enum Framing { case lines, recordSeparators }

    /// One record's bytes and where they start.
    struct Record {
        /// The 1-based line and byte column of `bytes[0]`.
        var line: Int
        var column: Int
        /// Whether the record ended with a line feed (always true for lines except perhaps the last).
        var terminated: Bool
    }

    private static let recordSeparator: UInt8 = 0x1E
    private let cursor: JSONByteCursor
    let framing: Framing
    /// The current record's bytes (without RS; for lines without LF and CR).
    private(set) var bytes: [UInt8] = []

    init(cursor: JSONByteCursor) throws(InputError) {
        self.cursor = cursor
        try cursor.skipByteOrderMark()
        let first = try cursor.skipWhitespace()
        framing = first == DelimitedRecordSplitter.recordSeparator ? .recordSeparators : .lines
    }

    /// Reads the next record into `bytes`; nil at the end of the file.
    /// - Complexity: O(n) in the record's bytes.
    func next() throws(InputError) -> Record? {
        bytes.removeAll(keepingCapacity: true)
        guard try cursor.refill() else { return nil }
        switch framing {
        case .lines:
            let record = Record(line: cursor.line, column: cursor.column, terminated: false)
            while try cursor.refill() {
                let start = cursor.position
                var index = start
                while index < cursor.count && cursor.bytes[index] != 0x0A { index += 1 }
                cursor.append(from: start, to: index, into: &bytes)
                if index < cursor.count {
                    cursor.noteNewline(at: index)
                    cursor.position = index + 1
                    if bytes.last == 0x0D { bytes.removeLast() }
                    return Record(line: record.line, column: record.column, terminated: true)
                }
                cursor.position = index
            }
            if bytes.last == 0x0D { bytes.removeLast() }
            return record
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
                cursor.append(from: start, to: index, into: &bytes)
                cursor.position = index
                if index < cursor.count { break }
            }
            var terminated = false
            for byte in bytes.reversed() {
                if byte == 0x0A { terminated = true; break }
                if byte != 0x20 && byte != 0x09 && byte != 0x0D { break }
            }
            return Record(line: line, column: column, terminated: terminated)
        }
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

/// Parses the splitter's current record, turning a syntax error into a rejection at `line`.
func parseDelimitedRecord(_ splitter: DelimitedRecordSplitter, _ record: DelimitedRecordSplitter.Record, line: Int,
                 file: String) -> Result<JSONValue, RowRejection> {
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
