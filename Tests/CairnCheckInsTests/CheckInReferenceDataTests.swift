import CairnCheckIns
import CairnCore
import CairnTestSupport
import Testing

/// Reference data read from every format means the same thing: an event given by its place id alone.
@Suite struct CheckInReferenceDataTests {
    /// Validates one check-in at the place during the event against events read from `eventsName`.
    func verdicts(eventsName: String, events: String) throws -> (rows: [String], skipped: [String]) {
        let folder = try TemporaryFolder()
        let placesPath = try folder.write("places.csv", "id,lat,lon,radius\noodi,60.1738,24.9381,80\n17,60.2,24.9,80\n")
        let eventsPath = try folder.write(eventsName, events)
        let checkInsPath = try folder.write("checkins.csv", """
            id,userId,eventId,placeId,latitude,longitude,time
            c1,ada,reading,,60.1739,24.9382,2026-06-01T10:30:00Z
            c2,bob,numbered,,60.2,24.9,2026-06-01T10:30:00Z

            """)
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: placesPath)
        try references.loadEvents(path: eventsPath)
        let batch = CheckInBatchValidator(validator: references.makeValidator(model: .wgs84),
                                          inputFormat: .csv, outputFormat: .csv, countsVisits: false, workers: 1)
        var output: [UInt8] = []
        try batch.run(input: CheckInBatchInput(path: checkInsPath)) { output += $0 }
        let rows = CSVText.records(String(decoding: output, as: UTF8.self)).dropFirst()
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",") }
        return (Array(rows), references.skippedMessages)
    }

    /// #15 item 5: JSON-lines events given by `placeId` (no coordinates) were skipped as "missing latitude", so
    /// every check-in at them was `unknown_event`; they now read as the same CSV rows do.
    @Test func eventsGivenByPlaceIdReadTheSameFromJSONLinesAsFromCSV() throws {
        let csv = try verdicts(eventsName: "events.csv", events: """
            id,placeId,startTime,endTime
            reading,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z
            numbered,17,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z

            """)
        #expect(csv.rows == ["c1,valid,", "c2,valid,"])
        let jsonLines = try verdicts(eventsName: "events.jsonl", events: """
            {"id":"reading","placeId":"oodi","startTime":"2026-06-01T10:00:00Z","endTime":"2026-06-01T12:00:00Z"}
            {"id":"numbered","placeId":17,"startTime":"2026-06-01T10:00:00Z","endTime":"2026-06-01T12:00:00Z"}

            """)
        #expect(jsonLines.skipped == [])
        #expect(jsonLines.rows == csv.rows)
    }

    /// An event with its own coordinates keeps its circle as the fallback place, and a place id named beside
    /// coordinates is still the place it is judged at.
    @Test func eventsWithCoordinatesKeepTheirCircle() throws {
        let result = try verdicts(eventsName: "events.jsonl", events: """
            {"id":"reading","lat":60.1739,"lon":24.9382,"radius":50,"startTime":"2026-06-01T10:00:00Z","endTime":"2026-06-01T12:00:00Z"}
            {"id":"numbered","placeId":"17","lat":10,"lon":10,"radius":50,"startTime":"2026-06-01T10:00:00Z","endTime":"2026-06-01T12:00:00Z"}

            """)
        #expect(result.rows == ["c1,valid,", "c2,valid,"])
    }

    /// A reference row that opens a quote after an empty first field (`,"x…`) is reported as skipped, as any other
    /// unclosed quote is, not taken for a blank line and dropped silently; the rows around it are read.
    @Test func aStrayQuoteAfterAnEmptyFirstFieldIsReportedNotDropped() throws {
        let folder = try TemporaryFolder()
        for (name, text) in [("places.csv", "id,lat,lon,radius\noodi,60.1738,24.9381,80\n,\"stray,60.2,24.9,80\n17,60.2,24.9,80\n"),
                             ("events.csv", "id,placeId,startTime,endTime\n,\"stray,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n"
                                + "reading,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")] {
            _ = try folder.write(name, text)
        }
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: folder.path("places.csv"))
        try references.loadEvents(path: folder.path("events.csv"))
        #expect(references.places.count == 2 && references.events.count == 1)
        #expect(references.skippedCount == 2)
        #expect(references.skippedMessages.contains { $0.contains("places.csv:3") && $0.contains("quote") })
        #expect(references.skippedMessages.contains { $0.contains("events.csv:2") && $0.contains("quote") })
    }

    /// #15 item 6 for check-ins: a place, event or join whose id holds a control character is skipped with its line
    /// and the id escaped, as `cairn import` rejects such a row; the other rows are read.
    @Test func referenceIdsWithControlCharactersAreSkipped() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\npark-1\u{0}evil,60.2,24.9,80\noodi,60.1738,24.9381,80\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\n"
            + "read\u{1B}[2Jing,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\nreading,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")
        let joins = try folder.write("joins.csv", "userId,eventId\nada\u{7F},reading\nbob,reading\n")
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: places)
        try references.loadEvents(path: events)
        try references.loadJoins(path: joins)
        #expect(references.places.map(\.id) == ["oodi"])
        #expect(references.events.map(\.id) == ["reading"])
        #expect(references.joins?.map(\.userId) == ["bob"])
        #expect(references.skippedCount == 3)
        #expect(references.skippedMessages.contains { $0.contains("places.csv:2") && $0.contains("park-1\\u{0}evil") })
        #expect(references.skippedMessages.contains { $0.contains("events.csv:2") && $0.contains("\\u{1B}") })
        #expect(references.skippedMessages.contains { $0.contains("joins.csv:2") && $0.contains("\\u{7F}") })
    }
}
