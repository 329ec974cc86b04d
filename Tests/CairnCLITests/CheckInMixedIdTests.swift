import CairnTestSupport
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

/// The batch validator's id tables keep numbered ids (`user-12`) in dense arrays and the rest in hash tables, and
/// look them up in stages; ids of both kinds, and near misses of the numbered form, must resolve exactly as the
/// library's one-row-at-a-time path does.
@Suite struct CheckInMixedIdTests {
    /// Ids of every shape: the numbered form (chosen as the dense prefix when it comes first), leading zeros, no
    /// digits, a different prefix, numbers too large for the dense array, pure numbers.
    func mixedId(_ prefix: String, _ random: inout SeededRandom, count: Int) -> String {
        let n = random.below(count)
        switch random.below(8) {
        case 0, 1, 2: return "\(prefix)-\(n)"
        case 3: return "\(prefix)-0\(n)"
        case 4: return "\(prefix)-\(n)x"
        case 5: return "\(prefix.uppercased())-\(n)"
        case 6: return "\(prefix)-\(100_000_000 + n)"
        default: return "\(n * 7919)"
        }
    }

    @Test func mixedIdShapesGiveTheLibrarysVerdicts() throws {
        var random = SeededRandom(seed: 77)
        let start = try #require(Timestamp(iso8601: "2026-06-01T10:00:00Z"))
        var places: [CheckInPlace] = []
        var placeText = "id,lat,lon,radius\n"
        var placeIds = Set<String>()
        while places.count < 60 {
            let id = mixedId("place", &random, count: 200)
            guard placeIds.insert(id).inserted else { continue }
            let latitude = random.uniform(-60...60), longitude = random.uniform(-179...179)
            places.append(CheckInPlace(id: id, circle: try Circle(center: Coordinate(latitude: latitude, longitude: longitude), radiusMeters: 500)))
            placeText += "\(id),\(latitude),\(longitude),500\n"
        }
        var events: [CheckInEvent] = []
        var eventText = "id,placeId,startTime,endTime\n"
        var eventIds = Set<String>()
        while events.count < 120 {
            let id = mixedId("event", &random, count: 400)
            guard eventIds.insert(id).inserted else { continue }
            let place = places[random.below(places.count)].id
            events.append(CheckInEvent(id: id, placeId: place,
                                       window: try TimeWindow(start: start, end: Timestamp(secondsSince1970: start.secondsSince1970 + 7200))))
            eventText += "\(id),\(place),2026-06-01T10:00:00Z,2026-06-01T12:00:00Z\n"
        }
        let validator = CheckInValidator(places: places, events: events)
        var rows = ["id,user,event,place,lat,lon,time"]
        var expected: [String] = []
        var validPairs = Set<[String]>()
        for n in 0..<3_000 {
            let user = mixedId("user", &random, count: 60)
            // Known or unknown events and places (unknown ones have the same shapes).
            var eventId: String?, placeId: String?
            if random.chance(0.7) {
                eventId = random.chance(0.9) ? events[random.below(events.count)].id : mixedId("event", &random, count: 400)
            } else {
                placeId = random.chance(0.9) ? places[random.below(places.count)].id : mixedId("place", &random, count: 200)
            }
            let target = eventId.flatMap { validator.eventIndex(of: $0) }.flatMap { events[$0].placeId }.flatMap { validator.placeIndex(of: $0) }
                ?? placeId.flatMap { validator.placeIndex(of: $0) }
            let origin = try Coordinate(latitude: 0, longitude: 0)
            let center = target.map { validator.place(at: $0).circle.center } ?? origin
            let latitude = center.latitude + random.uniform(-0.006...0.006), longitude = center.longitude
            let time = Timestamp(secondsSince1970: start.secondsSince1970 + random.uniform(-600...7800).rounded())
            let checkIn = CheckIn(id: "c\(n)", userId: user, eventId: eventId, placeId: placeId,
                                  latitude: latitude, longitude: longitude, time: time)
            var result = validator.judge(checkIn)
            if result.isValid, let event = eventId, !validPairs.insert([user, event]).inserted { result.reason = .duplicate }
            expected.append(result.reason?.code ?? "valid")
            rows.append("c\(n),\(user),\(eventId ?? ""),\(placeId ?? ""),\(latitude),\(longitude),\(time.iso8601)")
        }
        #expect(Set(expected).isSuperset(of: ["valid", "duplicate", "unknown_event", "unknown_place", "outside_radius", "before_start", "after_end"]))
        let folder = try TemporaryFolder()
        let base = ["--places", try folder.write("places.csv", placeText), "--events", try folder.write("events.csv", eventText),
                    "--checkins", try folder.write("checkins.csv", rows.joined(separator: "\n") + "\n")]
        let cli = CheckInCLITests()
        for (k, options) in [["--threads", "2"], ["--threads", "1"], ["--threads", "3", "--batch-bytes", "500"]].enumerated() {
            let lines = try cli.validate(base + options, folder: folder, out: "out\(k).csv")
            #expect(cli.verdicts(lines) == expected, "\(options)")
        }
    }
}
