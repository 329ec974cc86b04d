import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

/// A stray quote or an over-long record costs its own line only (issue #15 items 1 and 7): the record is rejected at
/// the line where it started and reading resumes on the next line; every other row comes back with its own values.
@Suite("CSV stray quotes and record size limit")
struct CSVStrayQuoteTests {
    /// The probe's file: a quote opened on line 2 and, three lines later, a row with quotes of its own.
    static let probe = "id,name,lat,lon\na,\"Joe's Bar,1,1\nb,Bob,2,2\nc,Cat,3,3\nd,The \"Dee\" pub,4,4\ne,Eve,5,5\n"

    /// Reads every record of the file at `path` with a chunk size and a record size limit.
    static func read(_ path: String, chunkSize: Int, maxRecordBytes: Int = 64 << 20) throws -> [ImportRecord] {
        let reader = try CSVFeatureReader(source: ByteSource(path: path), options: ImportOptions(), chunkSize: chunkSize,
                                          maxRecordBytes: maxRecordBytes)
        var records: [ImportRecord] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    @Test("the probe's stray quote: line 2 alone is rejected, the other rows keep their own coordinates",
          arguments: [4, 5, 7, 16, 1 << 18])
    func probeFile(chunkSize: Int) throws {
        let scratch = try TemporaryFolder()
        let records = try Self.read(scratch.write("probe.csv", Self.probe), chunkSize: chunkSize)
        #expect(records.map(\.line) == [2, 3, 4, 5, 6])
        let rejection = try #require(records.first?.rejection)
        #expect(rejection.line == 2 && rejection.field == "name")
        #expect(rejection.reason.contains("text follows a closing quote on line 5"), "\(rejection.reason)")
        #expect(rejection.reason.hasSuffix("only this line is rejected and reading resumes on line 3"))
        let features = records.compactMap(\.feature)
        #expect(features.map(\.id) == ["b", "c", "d", "e"])
        for (index, feature) in features.enumerated() {
            let value = Double(index + 2)
            #expect(feature.location == (try Coordinate(latitude: value, longitude: value)), "\(feature.id)")
        }
        #expect(features[2].attributes["name"] == .string("The \"Dee\" pub"))
    }

    @Test("each way a quoted field running over lines can break is one rejection at its first line")
    func brokenRecords() throws {
        // The end of the file inside the quote: the lines after it are rows again.
        let open = try readAllRecords(csv: "id,name,lat,lon\na,A,1,2\nb,\"B,1,2\nc,C,3,4\n", chunkSize: 5)
        #expect(open.map(\.summary).map { $0.hasPrefix("REJECTED") } == [false, true, false])
        #expect(open[1].rejection?.line == 3 && open[1].rejection?.reason == "unterminated quoted field starting on this line")
        #expect(open.compactMap(\.feature).map(\.id) == ["a", "c"])
        // More fields than the header's: at the record's end, or as soon as there are too many.
        let more = try readAllRecords(csv: "id,name,lat,lon\nb,\"B\nx\",2,2,9\nc,C,3,4\n", chunkSize: 4)
        #expect(more[0].rejection?.line == 2)
        #expect(more[0].rejection?.reason.contains("the record has 5 fields by line 3, expected 4") == true, "\(more[0].summary)")
        #expect(more.last?.feature?.id == "c" && more.last?.line == 4)
        let many = try readAllRecords(csv: "id,name,lat,lon\nb,\"B\nx\",2,2,9,10\nc,C,3,4\n", chunkSize: 4)
        #expect(many[0].rejection?.reason.contains("the record has more than 4 fields by line 3, expected 4") == true, "\(many[0].summary)")
        #expect(many.last?.feature?.id == "c" && many.last?.line == 4)
        // Fewer fields than the header's, found at the record's end.
        let few = try readAllRecords(csv: "id,name,lat,lon\nb,\"B\nx\",2\nc,C,3,4\n")
        #expect(few[0].rejection?.reason.contains("the record has 3 fields by line 3, expected 4") == true, "\(few[0].summary)")
        #expect(few.map(\.line) == [2, 3, 4] && few.last?.feature?.id == "c")
        // Text after a closing quote on the first line, then a quote running over lines.
        let early = try readAllRecords(csv: "id,name,lat,lon,note\nb,\"B\"x,2,\"two\nlines\"\nc,C,3,4,\n")
        #expect(early[0].rejection?.reason.contains("text follows a closing quote on line 2") == true, "\(early[0].summary)")
        #expect(early.last?.feature?.id == "c")
        // The same text after a closing quote on a record of one line is kept, as before.
        let lenient = try readAllRecords(csv: "id,name,lat,lon\nb,\"B\"x,2,2\n")
        #expect(lenient.first?.feature?.attributes["name"] == .string("Bx"))
        // A real quoted field over lines, with the header's field count, is a row.
        let real = try readAllRecords(csv: "id,name,lat,lon\nb,\"Two\r\nlines, \"\"quoted\"\"\",2,2\r\nc,C,3,4\r\n", chunkSize: 4)
        #expect(real.map(\.line) == [2, 4])
        #expect(real.first?.feature?.attributes["name"] == .string("Two\r\nlines, \"quoted\""))
    }

    @Test("a record longer than the limit is rejected alone at its line, reading goes on, the buffer stays within the limit")
    func recordSizeLimit() throws {
        let scratch = try TemporaryFolder()
        var text = "id,name,lat,lon\na,A,1,2\nb,\"open quote,1,2\n"
        for index in 0..<100 { text += "r\(index),Row,1,2\n" }
        text += "long," + String(repeating: "x", count: 1000) + ",1,2\r\n"
        text += "z,Z,3,4\n"
        text += "c,\"real but long" + String(repeating: "\ny", count: 200) + "\",5,6\n"
        text += "tail," + String(repeating: "t", count: 1000)
        let path = try scratch.write("long.csv", text)
        for chunkSize in [16, 61, 4096] {
            let records = try Self.read(path, chunkSize: chunkSize, maxRecordBytes: 256)
            let rejected = records.compactMap(\.rejection)
            let longLine = 3 + 100 + 1
            #expect(rejected.map(\.line) == [3, longLine, longLine + 2] + (longLine + 3 ... longLine + 202).map { $0 } + [longLine + 203],
                    "chunk size \(chunkSize): \(rejected.prefix(4))")
            #expect(rejected.first?.reason.hasPrefix("the record starting on this line is longer than 256 bytes") == true)
            #expect(rejected.first?.reason.hasSuffix("reading resumes on line 4") == true)
            #expect(records.compactMap(\.feature).map(\.id) == ["a"] + (0..<100).map { "r\($0)" } + ["z"], "chunk size \(chunkSize)")
            // The buffer never grows past the limit (+ 1 byte to see that a record goes over it).
            let tokenizer = CSVTokenizer(source: try ByteSource(path: path), chunkSize: chunkSize, maxRecordBytes: 256)
            var largest = 0
            while try tokenizer.nextRecord() { largest = max(largest, tokenizer.bufferCapacity) }
            #expect(largest <= max(257, chunkSize))
        }
        // Within the limit, the quote opened on line 3 runs to the next quote, on line 106, and breaks there.
        let roomy = try Self.read(path, chunkSize: 16)
        #expect(roomy[1].rejection?.line == 3 && roomy[1].rejection?.reason.contains("closing quote on line 106") == true)
        #expect(roomy.compactMap(\.feature).map(\.id) == ["a"] + (0..<100).map { "r\($0)" } + ["long", "z", "c"])
        #expect(roomy.last?.rejection?.line == 307)
    }

    // MARK: - Seeded random corruption

    /// A generated file: its bytes and, per data row, the line it starts on and how many lines it has.
    struct Generated {
        var bytes: [UInt8] = []
        var rows: [(id: String, line: Int, lines: Int, range: Range<Int>)] = []
    }

    /// A file of `rowCount` rows (id, name, lat, lon, note) whose names are plain, quoted with separators and
    /// doubled quotes, quoted over lines, or unquoted with quotes inside. No quoted text starts with a quote, a
    /// separator or a line break, and a quote inside an unquoted name is followed by a letter: a stray quote's
    /// partner is then always followed by text, so its record always breaks (see `CSVTokenizer`).
    static func generate(_ rng: inout SplitMix64, rowCount: Int, separator: String, lineEnd: String, finalLineEnd: Bool) -> Generated {
        var file = Generated()
        var line = 1
        func emit(_ text: String) { file.bytes += Array(text.utf8) }
        emit(["id", "name", "lat", "lon", "note"].joined(separator: separator) + lineEnd)
        line += 1
        for index in 0..<rowCount {
            let name: String
            var lines = 1
            switch rng.below(6) {
            case 0: name = "\"Smith\(separator) Jo \(index)\""
            case 1: name = "\"Say \"\"hi\"\" \(index)\""
            case 2:
                lines = 2 + rng.below(2)
                name = "\"Line one" + String(repeating: "\(lineEnd)more \(index)", count: lines - 1) + "\""
            case 3: name = "The \"Dee\" pub \(index)"
            default: name = "Plain name \(index)"
            }
            let latitude = Double(index % 170) - 84.5, longitude = Double(index) * 0.5 - 150
            let note = rng.below(3) == 0 ? "" : (rng.below(2) == 0 ? "n\(index)" : "\"note, \(index)\"")
            let start = file.bytes.count
            emit(["r\(index)", name, "\(latitude)", "\(longitude)", note].joined(separator: separator))
            file.rows.append(("r\(index)", line, lines, start ..< file.bytes.count))
            if index < rowCount - 1 || finalLineEnd { emit(lineEnd) }
            line += lines
        }
        return file
    }

    @Test("a stray quote anywhere in any row loses that row's lines only; every other row keeps its own values",
          arguments: Array(UInt64(1)...UInt64(120)))
    func randomStrayQuote(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let separator = seed % 3 == 0 ? "\t" : ","
        let name = separator == "\t" ? "r.tsv" : "r.csv"
        let lineEnd = rng.below(2) == 0 ? "\n" : "\r\n"
        let file = Self.generate(&rng, rowCount: 40, separator: separator, lineEnd: lineEnd, finalLineEnd: rng.below(3) != 0)
        let scratch = try TemporaryFolder()
        let clean = try Self.read(scratch.write(name, bytes: file.bytes), chunkSize: 1 << 16)
        try #require(clean.count == file.rows.count && clean.allSatisfy { $0.feature != nil }, "seed \(seed): \(clean.map(\.summary))")

        let row = file.rows[rng.below(file.rows.count)]
        // Anywhere in the row, its first and last byte included, and just before its line end.
        let offset = row.range.lowerBound + rng.below(row.range.count + 1)
        var corrupted = file.bytes
        corrupted.insert(0x22, at: offset)
        let path = try scratch.write("bad-" + name, bytes: corrupted)
        // A quote between a CR and a LF (inside a quoted field) splits them into two line breaks: one line more.
        let shift = offset > 0 && offset + 1 < corrupted.count && corrupted[offset - 1] == 0x0D && corrupted[offset + 1] == 0x0A ? 1 : 0
        let span = row.line ..< row.line + row.lines + shift
        let expected = clean.filter { $0.feature?.id != row.id }.map { record in
            let rest = record.summary.drop { $0 != " " }
            return "\(record.line + (record.line >= span.lowerBound ? shift : 0))\(rest)"
        }
        for (chunkSize, limit) in [(4, 64 << 20), (5, 64 << 20), (7, 300), (16, 64 << 20), (61, 300), (1 << 16, 64 << 20)] {
            let records = try Self.read(path, chunkSize: chunkSize, maxRecordBytes: limit)
            let context = "seed \(seed), chunk \(chunkSize), limit \(limit), quote at byte \(offset - row.range.lowerBound) of line \(row.line)"
            // Outside the broken row's lines: exactly the clean file's rows, each with its own values.
            #expect(records.filter { !span.contains($0.line) }.map(\.summary) == expected, "\(context)")
            // Nothing is silently lost: the broken row is reported (or read, with the quote as text) at its line.
            #expect(records.contains { $0.line == row.line }, "\(context)")
            for record in records where span.contains(record.line) {
                if let feature = record.feature, feature.id == row.id {
                    // Read with the quote as a character of a text field: its place is its own.
                    #expect(feature.location == clean.first { $0.feature?.id == row.id }?.feature?.location, "\(context)")
                }
            }
        }
    }
}
