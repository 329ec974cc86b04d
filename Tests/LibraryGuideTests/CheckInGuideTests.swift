import CairnCheckIns
import CairnCore
import CairnTestSupport
import Testing

/// docs/LIBRARY.md, "CheckInValidator" and "CairnCheckIns": the guide's code, verbatim, then the results it states.
@Suite struct CheckInGuideTests {
    @Test func validatorJudgesCheckInsInOrder() throws {
        let museum = CheckInPlace(id: "british-museum", circle: try Circle(
            center: Coordinate(latitude: 51.5194, longitude: -0.1270), radiusMeters: 150))
        let opens = Timestamp(secondsSince1970: 1_780_308_000)   // 2026-06-01T10:00:00Z
        let closes = Timestamp(secondsSince1970: 1_780_315_200)  // 2026-06-01T12:00:00Z
        let talk = CheckInEvent(id: "talk", placeId: "british-museum", window: try TimeWindow(start: opens, end: closes))
        let validator = CheckInValidator(places: [museum], events: [talk])

        let at = Timestamp(iso8601: "2026-06-01T10:30:00Z")
        let late = Timestamp(iso8601: "2026-06-01T12:15:00Z")
        let results = validator.validate([
            CheckIn(id: "1", userId: "ada", eventId: "talk", latitude: 51.5195, longitude: -0.1269, time: at),
            CheckIn(id: "2", userId: "ada", eventId: "talk", latitude: 51.5195, longitude: -0.1269, time: at),
            CheckIn(id: "3", userId: "bob", eventId: "talk", latitude: 51.5080, longitude: -0.1281, time: at),
            CheckIn(id: "4", userId: "eve", eventId: "talk", latitude: 51.5195, longitude: -0.1269, time: late),
            CheckIn(id: "5", userId: "joe", eventId: "talk", latitude: 91, longitude: 0, time: at),
        ])
        let verdicts = results.map { $0.reason?.code ?? "valid" }
        // ["valid", "duplicate", "outside_radius", "after_end", "invalid_coordinate"]
        let bobsDistance = results[2].distanceMeters.map { Int($0.rounded()) }
        // 1271

        #expect(verdicts == ["valid", "duplicate", "outside_radius", "after_end", "invalid_coordinate"])
        #expect(bobsDistance == 1271)
    }

    @Test func batchValidationOfFiles() throws {
        let temporary = try TemporaryFolder()
        defer { temporary.remove() }
        let folder = temporary.path

        let placesPath = folder + "/places.csv"
        try """
            id,lat,lon,radius
            oodi,60.1738,24.9381,80
            kiasma,60.1717,24.9365,
            """.write(toFile: placesPath, atomically: true, encoding: .utf8)
        let checkInsPath = folder + "/checkins.csv"
        try """
            id,userId,eventId,placeId,latitude,longitude,time
            c1,ada,,oodi,60.1739,24.9382,2026-06-01T10:30:00Z
            c2,bob,,oodi,60.1800,24.9382,2026-06-01T10:31:00Z
            c3,eve,,kiasma,60.1717,24.9365,2026-06-01T10:32:00Z
            c4,joe,,oodi,60.1739,24.9382,yesterday
            """.write(toFile: checkInsPath, atomically: true, encoding: .utf8)

        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: placesPath)
        // references.skippedMessages: ["…/places.csv:3: missing radius, or not a distance above 0 (give --radius for a default)"]

        let batch = CheckInBatchValidator(validator: references.makeValidator(), inputFormat: .csv,
                                          outputFormat: .csv, countsVisits: true, workers: 2)
        var output: [UInt8] = []
        try batch.run(input: CheckInBatchInput(path: checkInsPath)) { output += $0 }
        // batch.rows == 4; batch.counts, by verdict; batch.placeStats(): visits per place

        #expect(references.skippedMessages == [
            "\(placesPath):3: missing radius, or not a distance above 0 (give --radius for a default)"])
        #expect(String(decoding: output, as: UTF8.self) == """
            checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id
            c1,valid,,,80,oodi,
            c2,invalid,outside_radius,690.798,80,oodi,
            c3,invalid,unknown_place,,,,
            c4,invalid,invalid_time,,,,

            """)
        #expect(batch.rows == 4)
        #expect(batch.placeStats().map(\.visits) == [1])
    }
}
