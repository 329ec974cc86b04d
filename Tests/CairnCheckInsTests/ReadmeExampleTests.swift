import CairnCheckIns
import CairnCore
import CairnTestSupport
import Testing

/// Batch check-in validation through CairnCheckIns end to end (the README showed it before the library guide,
/// docs/LIBRARY.md, took the examples), kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func theCheckInExampleWorks() throws {
        let folder = try TemporaryFolder()
        let placesPath = try folder.write("places.csv", "id,lat,lon,radius\noodi,60.1738,24.9381,80\n")
        let eventsPath = try folder.write("events.csv", "id,placeId,startTime,endTime\nreading,oodi,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")
        let checkInsPath = try folder.write("checkins.csv", """
            id,userId,eventId,placeId,latitude,longitude,time
            c1,ada,reading,,60.1739,24.9382,2026-06-01T10:30:00Z
            c2,ada,reading,,60.1739,24.9382,2026-06-01T10:45:00Z
            c3,bob,,oodi,60.1800,24.9500,2026-06-01T11:00:00Z

            """)

        // --- example begins
        var references = CheckInReferenceData(defaultRadiusMeters: 150)      // for places without a radius
        try references.loadPlaces(path: placesPath)                          // CSV, JSON lines or GeoJSON, .gz too
        try references.loadEvents(path: eventsPath)
        let batch = CheckInBatchValidator(validator: references.makeValidator(model: .wgs84),
                                          inputFormat: .csv, outputFormat: .csv, countsVisits: true, workers: 2)
        var verdicts: [UInt8] = []                                           // or: output: CheckInOutputFile(path:)
        try batch.run(input: CheckInBatchInput(path: checkInsPath)) { rows in verdicts += rows }
        let valid = batch.counts[CheckInVerdictIndex.ordinal(nil)]           // 1 (c2 is a duplicate, c3 too far)
        let duplicates = batch.counts[CheckInVerdictIndex.ordinal(.duplicate)]
        let visits = batch.placeStats()                                      // per place: visits, top visitor
        // --- example ends

        #expect(batch.rows == 3)
        #expect(valid == 1)
        #expect(duplicates == 1)
        #expect(batch.counts[CheckInVerdictIndex.ordinal(.outsideRadius)] == 1)
        let lines = CSVText.records(String(decoding: verdicts, as: UTF8.self))
        #expect(lines.first == "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id")
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",") }
                == ["c1,valid,", "c2,invalid,duplicate", "c3,invalid,outside_radius"])
        #expect(visits.map(\.visits) == [1] && visits.first?.topVisitor == "ada")
    }
}
