import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCheckIns

/// `checkins validate` on a stray quote and on over-long records (issue #15 items 1 and 7): the broken line gets one
/// `malformed_row`, every other line keeps its own verdict, in order, whatever the batch size and threads.
@Suite struct CheckInStrayQuoteTests {
    static let header = "id,userId,eventId,placeId,latitude,longitude,time"
    static let time = "2026-06-01T10:00:00Z"

    /// Validates the check-ins at `path` against places `p` (0, 0) and `px` (1, 1), 100 m each; returns the output
    /// rows without the header, and the messages.
    static func validate(_ path: String, batchBytes: Int = 1 << 16, workers: Int = 2, maxRecordBytes: Int = 1 << 20)
        throws -> (rows: [String], messages: [String])
    {
        let places = [CheckInPlace(id: "p", circle: try Circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 100)),
                      CheckInPlace(id: "px", circle: try Circle(center: Coordinate(latitude: 1, longitude: 1), radiusMeters: 100))]
        let validator = CheckInValidator(places: places, events: [CheckInEvent]())
        let batch = CheckInBatchValidator(validator: validator, inputFormat: .csv, outputFormat: .csv, countsVisits: false, workers: workers)
        var output: [UInt8] = []
        try batch.run(input: CheckInBatchInput(path: path, batchBytes: batchBytes, maxRecordBytes: maxRecordBytes)) { output += $0 }
        // Output rows are lines: no id here holds a line break.
        var rows = String(decoding: output, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if rows.last == "" { rows.removeLast() }
        #expect(rows.first == "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id")
        return (Array(rows.dropFirst()), batch.malformedMessages)
    }

    @Test func theProbesStrayQuoteCostsItsOwnLineOnly() throws {
        let folder = try TemporaryFolder()
        let lines = [Self.header, "a,u,,\"p,0,0,\(Self.time)", "b,u,,p,0,0,\(Self.time)", "c,u,,p,0,0,\(Self.time)",
                     "d,The \"Dee\" user,,p,0,0,\(Self.time)", "e,u,,p,0,0,\(Self.time)"]
        let (rows, messages) = try Self.validate(folder.write("c.csv", lines.joined(separator: "\n") + "\n"))
        #expect(rows == ["a,invalid,malformed_row,,,,", "b,valid,,,100,p,", "c,valid,,,100,p,", "d,valid,,,100,p,", "e,valid,,,100,p,"])
        #expect(messages == ["line 2: a quote opened and not closed on its line"])
    }

    /// The probe that found a silent loss: a stray quote after an empty first field made the line look empty.
    @Test func aStrayQuoteAfterAnEmptyFirstFieldIsAMalformedRowNotABlankLine() throws {
        let folder = try TemporaryFolder()
        let text = [Self.header, "a,u,,p,0,0,\(Self.time)", ",u,,\"p,0,0,\(Self.time)", "\"\"", "b,u,,p,0,0,\(Self.time)"].joined(separator: "\n")
        let (rows, messages) = try Self.validate(folder.write("c.csv", text))
        #expect(rows == ["a,valid,,,100,p,", ",invalid,malformed_row,,,,", ",invalid,malformed_row,,,,", "b,valid,,,100,p,"])
        #expect(messages.count == 2 && messages.first == "line 3: a quote opened and not closed on its line", "\(messages)")
        #expect(messages.last?.hasPrefix("line 4: ") == true, "\(messages)")
    }

    /// Text after a closing quote stays in the field, as `cairn import` reads it: `"p"x` is place `px`, not `p`.
    @Test func textAfterAClosingQuoteStaysInTheField() throws {
        let folder = try TemporaryFolder()
        let text = [Self.header, "a,u,,\"p\"x,1,1,\(Self.time)", "b,u,,\"p\"\r", "c,u,,p,0,0,\"\(Self.time)\"\r"].joined(separator: "\n")
        let (rows, _) = try Self.validate(folder.write("c.csv", text + "\n"))
        #expect(rows == ["a,valid,,,100,px,", "b,invalid,malformed_row,,,,", "c,valid,,,100,p,"])
    }

    /// A record longer than the limit is one `malformed_row` at its line whether the file is mapped or read
    /// (`.gz`), and the buffer never holds more than the limit: a record over it is never read in whole.
    @Test(arguments: [false, true]) func aRecordJustOverTheLimitIsRejectedMappedOrRead(gzip: Bool) throws {
        let folder = try TemporaryFolder()
        let ok = "u,,p,0,0,\(Self.time)"
        let long = "long," + String(repeating: "x", count: 400) + ",,p,0,0,\(Self.time)"
        let fits = "fits," + String(repeating: "y", count: 250) + ",,p,0,0,\(Self.time)"
        var path = try folder.write("c.csv", [Self.header, "a,\(ok)", long, "b,\(ok)", fits, "c,\(ok)"].joined(separator: "\n") + "\n")
        if gzip {
            _ = try SystemCommand.run(["gzip", path])
            path += ".gz"
        }
        let (rows, messages) = try Self.validate(path, batchBytes: 64, maxRecordBytes: 300)
        #expect(rows == ["a,valid,,,100,p,", "long,invalid,malformed_row,,,,", "b,valid,,,100,p,", "fits,valid,,,100,p,", "c,valid,,,100,p,"])
        #expect(messages.first?.hasPrefix("line 3: a record of \(long.utf8.count + 1) bytes, longer than 300") == true, "\(messages)")
    }

    /// A valid check-in file: rows with and without ids, quoted fields, valid and outside-radius check-ins.
    static func generate(_ rng: inout SplitMix64, rows: Int, lineEnd: String, finalLineEnd: Bool) -> (bytes: [UInt8], rows: [Range<Int>]) {
        var bytes = Array((Self.header + lineEnd).utf8)
        var ranges: [Range<Int>] = []
        for index in 0..<rows {
            let id = rng.below(8) == 0 ? "" : (rng.below(4) == 0 ? "\"c\(index)\"" : "c\(index)")
            let place = rng.below(4) == 0 ? "\"p\"" : "p"
            let where_ = rng.below(3) == 0 ? "0.01,0.01" : "0,0"
            let time = rng.below(4) == 0 ? "\"\(Self.time)\"" : Self.time
            let start = bytes.count
            bytes += Array("\(id),u\(index % 5),,\(place),\(where_),\(time)".utf8)
            ranges.append(start ..< bytes.count)
            if index < rows - 1 || finalLineEnd { bytes += Array(lineEnd.utf8) }
        }
        return (bytes, ranges)
    }

    @Test("a stray quote anywhere in any row changes that row's verdict only, for any batch size and threads",
          arguments: Array(UInt64(1)...UInt64(60)))
    func randomStrayQuote(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        let lineEnd = rng.below(2) == 0 ? "\n" : "\r\n"
        let file = Self.generate(&rng, rows: 50, lineEnd: lineEnd, finalLineEnd: rng.below(3) != 0)
        let folder = try TemporaryFolder()
        let (clean, cleanMessages) = try Self.validate(folder.write("clean.csv", bytes: file.bytes))
        // Rows without an id are malformed already (`missing check-in id`).
        try #require(clean.count == file.rows.count, "seed \(seed)")
        let row = rng.below(file.rows.count)
        let offset = file.rows[row].lowerBound + rng.below(file.rows[row].count + 1)
        var corrupted = file.bytes
        corrupted.insert(0x22, at: offset)
        let path = try folder.write("bad.csv", bytes: corrupted)
        for (batchBytes, workers) in [(64, 1), (100, 2), (256, 3), (1 << 16, 2)] {
            let (rows, messages) = try Self.validate(path, batchBytes: batchBytes, workers: workers)
            let context = "seed \(seed), batch \(batchBytes), workers \(workers), quote at byte \(offset - file.rows[row].lowerBound) of row \(row)"
            try #require(rows.count == clean.count, "\(context)")
            for index in rows.indices where index != row { #expect(rows[index] == clean[index], "\(context), row \(index)") }
            // The messages of the other lines are the clean file's (the header is line 1).
            let own = "line \(row + 2): "
            #expect(messages.filter { !$0.hasPrefix(own) } == cleanMessages.filter { !$0.hasPrefix(own) }, "\(context)")
        }
    }
}
