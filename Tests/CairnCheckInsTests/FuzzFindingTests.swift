import CairnCore
import CairnTestSupport
import Testing
@testable import CairnCheckIns

/// Inputs the fuzz targets (Fuzz/, `scripts/fuzz`) found breaking an invariant, kept as tests.
@Suite struct FuzzFindingTests {
    /// Runs the batch validator over `text` in batches of `batchBytes`; returns the verdict rows (JSON lines)
    /// and the malformed-row messages.
    func validate(_ text: String, batchBytes: Int) throws -> (rows: [String], messages: [String]) {
        let folder = try TemporaryFolder()
        let path = try folder.write("checkins.csv", text)
        let validator = CheckInValidator(places: [CheckInPlace(id: "p", circle: try Circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 100))],
                                         events: [CheckInEvent]())
        let batch = CheckInBatchValidator(validator: validator, inputFormat: .csv, outputFormat: .jsonl, countsVisits: false, workers: 1)
        let input = try CheckInBatchInput(path: path, batchBytes: batchBytes, maxRecordBytes: 1024)
        var output: [UInt8] = []
        try batch.run(input: input) { output += $0 }
        return (String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init), batch.malformedMessages)
    }

    /// fuzz target checkins-csv: blank lines filling the first batch before the header made the whole file
    /// silently yield no verdict (every later batch was skipped as "no header yet"). With 8 MiB batches that
    /// takes 8 MiB of blank lines; a small batch shows it with 300.
    @Test func blankLinesFillingABatchBeforeTheHeaderLoseNoRow() throws {
        let text = String(repeating: "\n", count: 300) + "id,userId,eventId,placeId,latitude,longitude,time\n"
            + "a,u,,p,0,0,2026-06-01T10:00:00Z\n" + "b,u,,p\n"
        let (rows, messages) = try validate(text, batchBytes: 256)
        #expect(rows.count == 2)
        #expect(rows.first?.contains("\"a\"") == true)
        // Line numbers count the blank lines: b is on line 303.
        #expect(messages.first?.hasPrefix("line 303:") == true, "\(messages)")
    }

    /// fuzz target checkins-csv: a line whose first field is empty and whose next field opens a quote it never
    /// closes (`,"2026-06-01`) was taken for a blank line and got no verdict; so was a line holding only `""`
    /// (which `cairn import` reports as a row with too few fields). Only an empty line (or a lone CR) is blank.
    @Test func aLineThatLooksEmptyOnlyAfterParsingGetsAVerdict() throws {
        let text = "id,userId,eventId,placeId,latitude,longitude,time\n" + "a,u,,p,0,0,2026-06-01T10:00:00Z\n"
            + ",\"2026-06-01T10:00:00Z\n" + "\"\"\r\n" + "\n" + "\r\n" + "b,u,,p,0,0,2026-06-01T10:00:00Z\n"
        let (rows, messages) = try validate(text, batchBytes: 1 << 16)
        #expect(rows.count == 4, "\(rows)")
        #expect(rows.dropFirst().first?.contains("malformed_row") == true)
        #expect(messages.count == 2)
        #expect(messages.first?.hasPrefix("line 3: a quote opened and not closed on its line") == true, "\(messages)")
        #expect(messages.last?.hasPrefix("line 4: expected 7 fields, got 1") == true, "\(messages)")
    }
}
