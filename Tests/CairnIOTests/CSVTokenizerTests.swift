@testable import CairnIO
import Testing
import CairnTestSupport

/// The tokenizer against records it must reproduce: random fields are encoded as RFC 4180 text, then read back
/// with many chunk sizes; the fields, the count and each record's first line must come back exactly.
@Suite("CSV tokenizer")
struct CSVTokenizerTests {
    /// A record as written: its fields' bytes.
    typealias Record = [[UInt8]]

    /// Bytes that make fields interesting: separators, quotes, every line break, multi-byte UTF-8, spaces.
    static let alphabet: [[UInt8]] = [
        Array("a".utf8), Array("Z".utf8), Array("7".utf8), Array(" ".utf8), Array(",".utf8), Array("\"".utf8),
        Array("\n".utf8), Array("\r".utf8), Array("\r\n".utf8), Array("é".utf8), Array("北".utf8), Array("😀".utf8),
        Array("\t".utf8),
    ]

    static func randomField(_ rng: inout SplitMix64) -> [UInt8] {
        let length = Int(rng.next() % 6)
        var field: [UInt8] = []
        for _ in 0..<length { field += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
        return field
    }

    /// Encodes one field, quoting when needed (and sometimes when not).
    static func encode(_ field: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        let needsQuotes = field.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D } || field.isEmpty && rng.next() % 4 == 0
        guard needsQuotes || rng.next() % 5 == 0 else { return field }
        var out: [UInt8] = [0x22]
        for byte in field {
            out.append(byte)
            if byte == 0x22 { out.append(0x22) }
        }
        out.append(0x22)
        return out
    }

    /// Lines before `offset` in `bytes`, counting CRLF, LF and lone CR as one line break each.
    static func lineNumber(at offset: Int, in bytes: [UInt8]) -> Int {
        var line = 1
        var index = 0
        while index < offset {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index] == 0x0D {
                line += 1
                if index + 1 < offset, bytes[index + 1] == 0x0A { index += 1 }
            }
            index += 1
        }
        return line
    }

    /// Reads every record with the tokenizer.
    static func tokenize(path: String, chunkSize: Int, expectedFieldCount: Int? = nil) throws -> [(line: Int, fields: Record, problem: CSVRecordProblem?)] {
        let tokenizer = CSVTokenizer(source: try ByteSource(path: path), chunkSize: chunkSize)
        tokenizer.expectedFieldCount = expectedFieldCount
        var records: [(line: Int, fields: Record, problem: CSVRecordProblem?)] = []
        while try tokenizer.nextRecord() {
            let fields = (0..<tokenizer.fieldCount).map { Array(tokenizer.field($0)) }
            records.append((tokenizer.recordLine, fields, tokenizer.problem))
        }
        return records
    }

    @Test("random RFC 4180 text round-trips for every chunk size", arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func roundTrip(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let scratch = try TemporaryFolder()
        var bytes: [UInt8] = seed % 2 == 0 ? [0xEF, 0xBB, 0xBF] : []
        var expected: [(line: Int, fields: Record)] = []
        let fieldCount = 1 + Int(rng.next() % 5)
        for _ in 0..<200 {
            var record: Record = (0..<fieldCount).map { _ in Self.randomField(&rng) }
            // A record of one empty unquoted field is an empty line: make it non-empty.
            if record == [[]] { record = [Array("x".utf8)] }
            let start = bytes.count
            expected.append((Self.lineNumber(at: start, in: bytes), record))
            for (index, field) in record.enumerated() {
                if index > 0 { bytes.append(0x2C) }
                bytes += Self.encode(field, &rng)
            }
            bytes += rng.next() % 2 == 0 ? [0x0A] : [0x0D, 0x0A]
        }
        // The last record sometimes has no line break at the end.
        if rng.next() % 2 == 0 { bytes.removeLast(bytes.last == 0x0A && bytes.dropLast().last == 0x0D ? 2 : 1) }
        let path = try scratch.write("random.csv", bytes: bytes)
        for chunkSize in [4, 5, 7, 9, 16, 33, 100, 1 << 16] {
            // Every record has the same field count: with it expected or not, quoted fields over lines are whole.
            let records = try Self.tokenize(path: path, chunkSize: chunkSize, expectedFieldCount: chunkSize % 2 == 0 ? fieldCount : nil)
            try #require(records.count == expected.count, "seed \(seed), chunk size \(chunkSize)")
            for (got, want) in zip(records, expected) {
                #expect(got.fields == want.fields, "seed \(seed), chunk size \(chunkSize), line \(want.line)")
                #expect(got.line == want.line, "seed \(seed), chunk size \(chunkSize)")
                #expect(got.problem == nil)
            }
        }
    }

    @Test("a record of too many fields is refused alone like a record of too many bytes")
    func tooManyFields() throws {
        let scratch = try TemporaryFolder()
        let path = try scratch.write("commas.csv", "a,b\n" + String(repeating: ",", count: 5000) + "\nc,d\n")
        let tokenizer = CSVTokenizer(source: try ByteSource(path: path), chunkSize: 64, maxRecordBytes: 4096)
        #expect(try tokenizer.nextRecord())
        #expect(try tokenizer.nextRecord())
        #expect(tokenizer.problem == .tooManyFields(limit: 256) && tokenizer.recordLine == 2)
        #expect(try tokenizer.nextRecord())
        #expect(tokenizer.problem == nil && tokenizer.recordLine == 3 && tokenizer.fieldCount == 2)
        let roomy = CSVTokenizer(source: try ByteSource(path: path), chunkSize: 64, maxRecordBytes: 1 << 20)
        _ = try roomy.nextRecord()
        #expect(try roomy.nextRecord())
        #expect(roomy.fieldCount == 5001)
    }

    @Test("empty lines come back as one empty field; an unterminated quote is flagged and the next line read again")
    func edges() throws {
        let scratch = try TemporaryFolder()
        let path = try scratch.write("e.csv", "a,b\n\n\r\n\"x\"y,\"\"\"\"\n\"open,\nstill open")
        let records = try Self.tokenize(path: path, chunkSize: 4)
        #expect(records.map(\.line) == [1, 2, 3, 4, 5, 6])
        #expect(records[1].fields == [[]] && records[2].fields == [[]])
        #expect(records[3].fields == [Array("xy".utf8), Array("\"".utf8)])
        #expect(records[4].problem == .unterminatedQuote(field: 0))
        #expect(records[5].fields == [Array("still open".utf8)])
    }
}
