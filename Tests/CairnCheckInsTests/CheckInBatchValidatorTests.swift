import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCheckIns

/// The pipeline from Swift, without the command: records longer than the limit, JSON lines, the header.
@Suite struct CheckInBatchValidatorTests {
    /// Runs the batch validator on `text` with a small record limit; returns the output rows (without the
    /// header) and the messages.
    func validateWithLimit(_ text: String, name: String, gzip: Bool = false, format: CheckInInputFormat = .csv) throws -> (rows: [String], messages: [String]) {
        let folder = try TemporaryFolder()
        var path = try folder.write(name, text)
        if gzip {
            _ = try SystemCommand.run(["gzip", path])
            path += ".gz"
        }
        let validator = CheckInValidator(places: [CheckInPlace(id: "p", circle: try Circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 100))],
                                         events: [CheckInEvent]())
        let batch = CheckInBatchValidator(validator: validator, inputFormat: format, outputFormat: .csv, countsVisits: false, workers: 2)
        let input = try CheckInBatchInput(path: path, batchBytes: 256, maxRecordBytes: 1024)
        var output: [UInt8] = []
        try batch.run(input: input) { output += $0 }
        let records = CSVText.records(String(decoding: output, as: UTF8.self))
        // CSV output starts with its header.
        #expect(records.first == "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id")
        return (Array(records.dropFirst()), batch.malformedMessages)
    }

    /// A record longer than the limit gets one `malformed_row` (with its id when its start shows one) and is
    /// skipped to the end of its line; its tail never becomes rows of its own; line numbers stay right. A stray
    /// quote never swallows the lines after it: the bad record is its own line, the next lines are read as rows.
    @Test(arguments: [false, true]) func anOverlongRecordIsOneMalformedRow(gzip: Bool) throws {
        let ok = "0,0,2026-06-01T10:00:00Z"
        let lines = ["id,userId,eventId,placeId,latitude,longitude,time",
                     "a,u,,p,\(ok)",
                     "big,u,,p,\"" + String(repeating: "x", count: 3000),
                     "b,u,,p,\(ok)",
                     "c,u,,p,\(ok)",
                     String(repeating: "y", count: 5000) + ",u,,p,\(ok)",
                     "d,u,,p,\(ok)",
                     "stray,u,,p,\"\(ok)"] + (0..<40).map { "e\($0),u,,p,\(ok)" }
        let (rows, messages) = try validateWithLimit(lines.joined(separator: "\n") + "\n", name: "c.csv", gzip: gzip)
        #expect(rows == ["a,valid,,,100,p,", "big,invalid,malformed_row,,,,", "b,valid,,,100,p,", "c,valid,,,100,p,",
                         ",invalid,malformed_row,,,,", "d,valid,,,100,p,", "stray,invalid,malformed_row,,,,"]
                + (0..<40).map { "e\($0),valid,,,100,p," })
        #expect(messages.count == 3)
        #expect(messages.first?.hasPrefix("line 3: a record of 3") == true)
        #expect(messages.dropFirst().first?.hasPrefix("line 6: a record of 5") == true)
        #expect(messages.last?.hasPrefix("line 8: a quote opened and not closed on its line") == true, "\(messages)")
        // The same within the limit (the scanner's path): the stray quote's line alone is malformed.
        let short = ["id,userId,eventId,placeId,latitude,longitude,time", "s,u,,p,\"\(ok)", "f,u,,p,\(ok)", "g,u,,p,\(ok)"]
        let (shortRows, shortMessages) = try validateWithLimit(short.joined(separator: "\n") + "\n", name: "s.csv", gzip: gzip)
        #expect(shortRows == ["s,invalid,malformed_row,,,,", "f,valid,,,100,p,", "g,valid,,,100,p,"])
        #expect(shortMessages.first?.hasPrefix("line 2: a quote opened and not closed on its line") == true, "\(shortMessages)")
    }

    @Test func anOverlongJSONLineIsOneMalformedRow() throws {
        let row = { (id: String) in "{\"id\":\"\(id)\",\"userId\":\"u\",\"placeId\":\"p\",\"lat\":0,\"lon\":0,\"time\":\"2026-06-01T10:00:00Z\"}" }
        let pad = "\"pad\":\"" + String(repeating: "z", count: 5000) + "\""
        let text = [row("a"),
                    "{\"id\":\"big\",\(pad)}",                                     // the id before the cut: kept
                    "{\(pad),\"id\":\"late\"}",                                    // after it: none
                    "{\"id\":" + String(repeating: "1", count: 5000) + "}",        // a number the cut may end early: none
                    "{\"id\":12,\(pad)}",
                    row("b")].joined(separator: "\n")
        let (rows, _) = try validateWithLimit(text, name: "c.jsonl", format: .jsonl)
        #expect(rows == ["a,valid,,,100,p,", "big,invalid,malformed_row,,,,", ",invalid,malformed_row,,,,", ",invalid,malformed_row,,,,",
                         "12,invalid,malformed_row,,,,", "b,valid,,,100,p,"])
    }

}
