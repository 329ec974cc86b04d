import CairnCheckIns
import CairnCore
import CairnTestSupport
import Foundation
import Testing

/// Reference ids are kept as bytes from the CSV scan to the validator's tables (`CheckInIdList`, hashed where they
/// are read): every id must come out as the one a `String` gave before, found by its bytes, the first row winning.
@Suite struct CheckInReferenceInterningTests {
    /// The place and event indices a check-in naming `event` resolves to.
    func resolved(_ validator: CheckInValidator, event: String) -> (event: Int, place: Int) {
        var event = event
        let target = event.withUTF8 { validator.resolve(eventKey: UnsafeRawBufferPointer($0), placeKey: UnsafeRawBufferPointer(start: nil, count: 0)) }
        return (target.event, target.place)
    }

    /// Thousands of seeded ids of 1 to 60 bytes (past the table's 24 inline bytes), read on two threads in many
    /// pieces: each is found by its bytes at its row, its event's place is the one it names, and ids never given
    /// are not found. A hash computed over the wrong bytes, or ends not moved when pieces are joined, fails here.
    @Test func seededIdsAreFoundByTheirBytesInFileOrder() throws {
        var random = SplitMix64(seed: 20)
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789-_.")
        func id(_ n: Int) -> String {
            let length = Int(random.next() % 60)
            return String((0..<length).map { _ in letters[Int(random.next() % UInt64(letters.count))] }) + "#\(n)"
        }
        let placeIds = (0..<4_000).map { id($0) }
        let eventIds = (0..<6_000).map { id($0) }
        let eventPlaces = eventIds.indices.map { _ in Int(random.next() % UInt64(placeIds.count)) }
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\n"
            + placeIds.enumerated().map { "\($1),\(Double($0 % 80)),\(Double($0 % 170)),100\n" }.joined())
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\n"
            + zip(eventIds, eventPlaces).map { "\($0),\(placeIds[$1]),2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n" }.joined())
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        references.workers = 2
        try references.loadPlaces(path: places)
        try references.loadEvents(path: events)
        let validator = references.makeValidator()
        #expect(validator.placeCount == placeIds.count && validator.eventCount == eventIds.count)
        for (row, id) in placeIds.enumerated() where validator.placeIndex(of: id) != row {
            Issue.record("place \(id) at row \(row) found at \(String(describing: validator.placeIndex(of: id)))")
        }
        for (row, id) in eventIds.enumerated() {
            let target = resolved(validator, event: id)
            #expect(target.event == row && target.place == eventPlaces[row], "event \(id)")
        }
        #expect(references.events.map(\.id) == eventIds)
        #expect(references.places.map(\.id) == placeIds)
        for missing in ["", "#", placeIds[0] + "x", String(placeIds[1].dropLast())] where !placeIds.contains(missing) {
            #expect(validator.placeIndex(of: missing) == nil, "\(missing)")
        }
    }

    /// A repeated id keeps its first row, within a file and across two files.
    @Test func repeatedIdsKeepTheirFirstRow() throws {
        let folder = try TemporaryFolder()
        let first = try folder.write("a.csv", "id,lat,lon,radius\nhall,60,24,100\nhall,61,25,200\nyard,60,24,300\n")
        let second = try folder.write("b.csv", "id,lat,lon,radius\nyard,60,24,400\ngate,60,24,500\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\n"
            + "talk,hall,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\ntalk,gate,2026-06-02T10:00:00Z,2026-06-02T12:00:00Z\n"
            + "walk,gate,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: first)
        try references.loadPlaces(path: second)
        try references.loadEvents(path: events)
        let validator = references.makeValidator()
        #expect(validator.ignoredPlaces == 2 && validator.ignoredEvents == 1)
        #expect((0..<validator.placeCount).map { validator.placeId(at: $0) } == ["hall", "yard", "gate"])
        #expect((0..<validator.placeCount).map { validator.radiusMeters(ofPlace: $0) } == [100, 300, 500])
        #expect(resolved(validator, event: "talk") == (0, 0))
        #expect(resolved(validator, event: "walk") == (1, 2))
    }

    /// Ids with quotes, commas, spaces, non-ASCII text and bytes that are not UTF-8: each is the text a `String`
    /// made of the field held (an invalid sequence becomes U+FFFD, as before), found by that text.
    @Test func idsWithOddBytesAreTheirText() throws {
        let folder = try TemporaryFolder()
        var placesText = Array("id,lat,lon,radius\n\"a,b\",60,24,100\n\"say \"\"hi\"\"\",60,24,100\n café ,60,24,100\n".utf8)
        placesText += Array("x".utf8) + [0xFF, 0xC3] + Array(",60,24,100\n".utf8)
        let places = try folder.write("places.csv", bytes: placesText)
        var eventsText = Array("id,placeId,startTime,endTime\n".utf8)
        for (n, place) in [Array("\"a,b\"".utf8), Array("\"say \"\"hi\"\"\"".utf8), Array(" café ".utf8), Array("x".utf8) + [0xFF, 0xC3]].enumerated() {
            eventsText += Array("e\(n),".utf8) + place + Array(",2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n".utf8)
        }
        eventsText += Array("é".utf8) + [0xFE] + Array(",,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n".utf8)
        let events = try folder.write("events.csv", bytes: eventsText)
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: places)
        try references.loadEvents(path: events)
        let ids = ["a,b", "say \"hi\"", " café ", "x\u{FFFD}\u{FFFD}"]
        #expect(references.places.map(\.id) == ids)
        #expect(references.events.map(\.placeId) == ids + [nil])
        #expect(references.events.last?.id == "é\u{FFFD}")
        let validator = references.makeValidator()
        for (n, id) in ids.enumerated() {
            #expect(validator.placeIndex(of: id) == n, "\(id)")
            #expect(resolved(validator, event: "e\(n)") == (n, n), "\(id)")
        }
        #expect(validator.eventIndex(of: "é\u{FFFD}") == 4)
    }

    /// Empty reference files: a notice each, nothing loaded, and a check-in is then `unknown_event`.
    @Test func emptyReferenceFilesLoadNothing() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\n")
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: places)
        try references.loadEvents(path: events)
        #expect(references.places.isEmpty && references.events.isEmpty)
        #expect(references.skippedMessages.count == 1 && references.skippedMessages[0].contains("empty file"))
        let validator = references.makeValidator()
        #expect(validator.placeCount == 0 && validator.eventCount == 0)
        #expect(resolved(validator, event: "e1").event == -1)
    }

    /// An id of 100,000 bytes is found whole; one that differs in its last byte only is another id.
    @Test func aHugeIdIsFoundWhole() throws {
        let huge = String(repeating: "h", count: 100_000)
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\n\(huge),60,24,100\n\(huge.dropLast())i,60,24,200\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\n\(huge)e,\(huge.dropLast())i,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")
        var references = CheckInReferenceData(defaultRadiusMeters: nil)
        try references.loadPlaces(path: places)
        try references.loadEvents(path: events)
        let validator = references.makeValidator()
        #expect(validator.placeIndex(of: huge) == 0)
        #expect(validator.placeIndex(of: huge.dropLast() + "i") == 1)
        #expect(validator.placeIndex(of: huge + "h") == nil)
        #expect(resolved(validator, event: huge + "e") == (0, 1))
    }
}

/// Places and events read at once (`loadPlacesAndEvents`, as the CLI reads them) give what the serial calls give:
/// the rows, the skipped count, the messages in the same order (ten skipped rows at most, notices always), and the
/// first failing file's error.
@Suite struct CheckInReferenceAtOnceTests {
    @Test func atOnceEqualsOneAfterTheOther() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\n"
            + (0..<12).map { "bad\($0),x,24,100\n" }.joined() + "hall,60,24,100\n")
        let emptyEvents = try folder.write("empty.csv", "")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\nlate,hall,soon,never\n"
            + "talk,hall,2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n")
        var serial = CheckInReferenceData(defaultRadiusMeters: nil)
        serial.workers = 2
        try serial.loadPlaces(path: places)
        try serial.loadEvents(path: emptyEvents)
        try serial.loadEvents(path: events)
        var atOnce = CheckInReferenceData(defaultRadiusMeters: nil)
        atOnce.workers = 2
        try atOnce.loadPlacesAndEvents(placePaths: [places], eventPaths: [emptyEvents, events])
        #expect(atOnce.places == serial.places && atOnce.events == serial.events)
        #expect(atOnce.skippedCount == serial.skippedCount && atOnce.skippedCount == 13)
        #expect(atOnce.skippedMessages == serial.skippedMessages && atOnce.skippedMessages.count == 11)

        var failing = CheckInReferenceData(defaultRadiusMeters: nil)
        let placesError = #expect(throws: CheckInError.self) {
            try failing.loadPlacesAndEvents(placePaths: [folder.path("none.csv")], eventPaths: [folder.path("nothing.csv")])
        }
        #expect(placesError?.description.contains("none.csv") == true)
    }
}
