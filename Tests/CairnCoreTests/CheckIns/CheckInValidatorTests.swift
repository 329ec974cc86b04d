import Testing
@testable import CairnCore

/// The check-in tests draw from the same seeded generator as the index tests.
typealias CheckInTestRandom = IndexTestRandom

/// The obviously correct reference: linear scans, the exact geodesic for every pair, an array of pairs seen.
/// Results are compared by ids: (reason code or "valid", place id, event id, distance for outside_radius).
struct CheckInReference {
    let places: [CheckInPlace]
    let events: [CheckInEvent]
    let joins: [CheckInJoin]?
    let model: DistanceModel
    let policy: CheckInAccuracyPolicy

    struct Verdict: Equatable, CustomStringConvertible {
        var code: String
        var place: String?
        var event: String?
        var distance: Double?
        var description: String { "\(code) place=\(place ?? "-") event=\(event ?? "-") d=\(distance.map { String($0) } ?? "-")" }
    }

    /// Places in the validator's sense: the given ones (first id wins), then those defined by events' circles.
    var effectivePlaces: [CheckInPlace] {
        var result: [CheckInPlace] = []
        for place in places where !result.contains(where: { $0.id == place.id }) { result.append(place) }
        var seenEvents: [String] = []
        for event in events where !seenEvents.contains(event.id) {
            seenEvents.append(event.id)
            let name = (event.placeId?.isEmpty == false) ? event.placeId! : event.id
            if !result.contains(where: { $0.id == name }), let circle = event.circle {
                result.append(CheckInPlace(id: name, circle: circle))
            }
        }
        return result
    }

    var effectiveEvents: [CheckInEvent] {
        var result: [CheckInEvent] = []
        for event in events where !result.contains(where: { $0.id == event.id }) { result.append(event) }
        return result
    }

    func placeOf(_ event: CheckInEvent, _ places: [CheckInPlace]) -> CheckInPlace? {
        let name = (event.placeId?.isEmpty == false) ? event.placeId! : event.id
        return places.first { $0.id == name }
    }

    func judgeAll(_ checkIns: [CheckIn]) -> [Verdict] {
        let places = effectivePlaces
        let events = effectiveEvents
        var seen: [(String, String)] = []
        return checkIns.map { checkIn in
            var verdict = judge(checkIn, places, events)
            if verdict.code == "valid", let event = verdict.event {
                if seen.contains(where: { $0 == (checkIn.userId, event) }) {
                    verdict.code = "duplicate"
                } else {
                    seen.append((checkIn.userId, event))
                }
            }
            return verdict
        }
    }

    func inside(_ place: CheckInPlace, _ point: Coordinate, accuracy: Double) -> (Bool, Double) {
        let d = distanceMeters(from: place.circle.center, to: point, model: model)
        if policy == .lenient, accuracy > 0 { return (d - accuracy <= place.circle.radiusMeters, d) }
        return (d <= place.circle.radiusMeters, d)
    }

    func joined(_ user: String, _ event: String) -> Bool {
        guard let joins else { return true }
        return joins.contains { $0.userId == user && $0.eventId == event }
    }

    func judge(_ c: CheckIn, _ places: [CheckInPlace], _ events: [CheckInEvent]) -> Verdict {
        guard let point = try? Coordinate(latitude: c.latitude, longitude: c.longitude) else { return Verdict(code: "invalid_coordinate") }
        let accuracy = c.accuracyMeters ?? 0
        // The accuracy is read only by the lenient policy.
        guard policy == .ignore || (accuracy.isFinite && accuracy >= 0) else { return Verdict(code: "invalid_coordinate") }
        guard let time = c.time else { return Verdict(code: "invalid_time") }
        if let eventId = c.eventId, !eventId.isEmpty {
            guard let event = events.first(where: { $0.id == eventId }) else { return Verdict(code: "unknown_event") }
            guard let place = placeOf(event, places) else { return Verdict(code: "unknown_place", event: eventId) }
            if let placeId = c.placeId, !placeId.isEmpty, placeId != place.id {
                return Verdict(code: "place_mismatch", place: place.id, event: eventId)
            }
            let (ok, d) = inside(place, point, accuracy: accuracy)
            if !ok { return Verdict(code: "outside_radius", place: place.id, event: eventId, distance: d) }
            if time < event.window.start { return Verdict(code: "before_start", place: place.id, event: eventId) }
            if time >= event.window.end { return Verdict(code: "after_end", place: place.id, event: eventId) }
            if !joined(c.userId, eventId) { return Verdict(code: "not_joined", place: place.id, event: eventId) }
            return Verdict(code: "valid", place: place.id, event: eventId)
        }
        if let placeId = c.placeId, !placeId.isEmpty {
            guard let place = places.first(where: { $0.id == placeId }) else { return Verdict(code: "unknown_place") }
            let (ok, d) = inside(place, point, accuracy: accuracy)
            if !ok { return Verdict(code: "outside_radius", place: place.id, distance: d) }
            return Verdict(code: "valid", place: place.id)
        }
        // Point only: containing places (with the lenient policy's doubt); prefer those with an ongoing event the
        // user joined (joins given), then with an ongoing event; nearest; first in order on ties.
        var best: (place: CheckInPlace, event: CheckInEvent?, rank: Int, distance: Double)?
        for place in places {
            let (ok, d) = inside(place, point, accuracy: accuracy)
            guard ok else { continue }
            let ongoing = events.filter { placeOf($0, places)?.id == place.id && $0.window.contains(time) }
            func latest(_ list: [CheckInEvent]) -> CheckInEvent? {
                list.max { a, b in
                    a.window.start < b.window.start
                        || (a.window.start == b.window.start && events.firstIndex(of: a)! > events.firstIndex(of: b)!)
                }
            }
            var event: CheckInEvent?, rank = 0
            if joins != nil, let joinedEvent = latest(ongoing.filter { joined(c.userId, $0.id) }) {
                (event, rank) = (joinedEvent, 2)
            } else if let any = latest(ongoing) {
                (event, rank) = (any, 1)
            }
            if let current = best, rank < current.rank || (rank == current.rank && d >= current.distance) { continue }
            best = (place, event, rank, d)
        }
        guard let best else { return Verdict(code: "no_match") }
        if let event = best.event, best.rank == 1, joins != nil {
            return Verdict(code: "not_joined", place: best.place.id, event: event.id)
        }
        return Verdict(code: "valid", place: best.place.id, event: best.event?.id)
    }
}

extension CheckInValidator {
    /// The validator's results in the reference's terms.
    func verdicts(_ checkIns: [CheckIn]) -> [CheckInReference.Verdict] {
        validate(checkIns).map { r in
            CheckInReference.Verdict(code: r.reason?.code ?? "valid", place: r.placeIndex.map { placeId(at: $0) },
                                     event: r.eventIndex.map { eventId(at: $0) }, distance: r.distanceMeters)
        }
    }
}

@Suite struct CheckInValidatorTests {
    static let start = Timestamp(secondsSince1970: 1_780_300_000)

    func circle(_ lat: Double, _ lon: Double, _ r: Double) throws -> Circle {
        try Circle(center: Coordinate(latitude: lat, longitude: lon), radiusMeters: r)
    }

    func window(_ from: Double, _ to: Double) throws -> TimeWindow {
        try TimeWindow(start: Timestamp(secondsSince1970: Self.start.secondsSince1970 + from),
                       end: Timestamp(secondsSince1970: Self.start.secondsSince1970 + to))
    }

    func at(_ offset: Double) -> Timestamp { Timestamp(secondsSince1970: Self.start.secondsSince1970 + offset) }

    @Test func edgeOfTheRadiusIsInsideAndAHairBeyondIsOutside() throws {
        let center = try Coordinate(latitude: 60.17, longitude: 24.94)
        let point = try destination(from: center, bearingDegrees: 33, distanceMeters: 150)
        let exact = distanceMeters(from: center, to: point)
        for model in DistanceModel.allCases {
            let d = distanceMeters(from: center, to: point, model: model)
            let places = [CheckInPlace(id: "on", circle: try Circle(center: center, radiusMeters: d)),
                          CheckInPlace(id: "under", circle: try Circle(center: center, radiusMeters: d.nextDown))]
            let v = CheckInValidator(places: places, events: [CheckInEvent](), model: model)
            let results = v.validate(["on", "under"].map {
                CheckIn(id: $0, userId: "u", placeId: $0, latitude: point.latitude, longitude: point.longitude, time: at(0))
            })
            #expect(results[0].isValid)
            #expect(results[1].reason == .outsideRadius)
            #expect(results[1].distanceMeters == d)
        }
        #expect(abs(exact - 150) < 1e-6)
    }

    @Test func windowIsHalfOpen() throws {
        let places = [CheckInPlace(id: "p", circle: try circle(0, 0, 100))]
        let events = [CheckInEvent(id: "e", placeId: "p", window: try window(0, 3600))]
        let v = CheckInValidator(places: places, events: events)
        let times: [Double] = [-1, 0, 3599.999, 3600, 7200]
        let results = v.validate(times.enumerated().map { n, t in
            CheckIn(id: "c\(n)", userId: "u\(n)", eventId: "e", latitude: 0, longitude: 0, time: at(t))
        })
        #expect(results.map { $0.reason?.code ?? "valid" } == ["before_start", "valid", "valid", "after_end", "after_end"])
    }

    @Test func antimeridianAndPole() throws {
        let places = [CheckInPlace(id: "dateline", circle: try circle(0, 179.9995, 200)),
                      CheckInPlace(id: "north", circle: try circle(90, 0, 1000)),
                      CheckInPlace(id: "south", circle: try circle(-90, 180, 50))]
        let v = CheckInValidator(places: places, events: [CheckInEvent]())
        let checkIns = [
            CheckIn(id: "a", userId: "u", placeId: "dateline", latitude: 0, longitude: -179.9995, time: at(0)),
            CheckIn(id: "b", userId: "u", placeId: "dateline", latitude: 0, longitude: -179.997, time: at(0)),
            CheckIn(id: "c", userId: "u", placeId: "north", latitude: 89.995, longitude: 123, time: at(0)),
            CheckIn(id: "d", userId: "u", placeId: "north", latitude: 89.99, longitude: -45, time: at(0)),
            CheckIn(id: "e", userId: "u", placeId: "south", latitude: -90, longitude: -17, time: at(0)),
            CheckIn(id: "f", userId: "u", latitude: 0, longitude: 180, time: at(0)),
            CheckIn(id: "g", userId: "u", latitude: 89.999, longitude: 0, time: at(0)),
        ]
        let codes = v.validate(checkIns).map { $0.reason?.code ?? "valid" }
        #expect(codes == ["valid", "outside_radius", "valid", "outside_radius", "valid", "valid", "valid"])
        let reference = CheckInReference(places: places, events: [], joins: nil, model: .wgs84, policy: .ignore)
        #expect(v.verdicts(checkIns) == reference.judgeAll(checkIns))
    }

    @Test func badCoordinatesAndTimes() throws {
        let places = [CheckInPlace(id: "p", circle: try circle(10, 10, 100))]
        let v = CheckInValidator(places: places, events: [CheckInEvent]())
        let rows: [(Double, Double, Timestamp?, Double?)] = [
            (.nan, 10, at(0), nil), (10, .nan, at(0), nil), (90.0001, 10, at(0), nil), (10, -180.0001, at(0), nil),
            (.infinity, 10, at(0), nil), (10, 10, nil, nil), (.nan, 10, nil, nil), (10, 10, at(0), -1), (10, 10, at(0), .nan),
        ]
        let codes = v.validate(rows.enumerated().map { n, row in
            CheckIn(id: "\(n)", userId: "u", placeId: "p", latitude: row.0, longitude: row.1, time: row.2, accuracyMeters: row.3)
        }).map { $0.reason?.code ?? "valid" }
        // The accuracy is read only by the lenient policy: ignored, a bad one is no reason.
        #expect(codes == ["invalid_coordinate", "invalid_coordinate", "invalid_coordinate", "invalid_coordinate",
                          "invalid_coordinate", "invalid_time", "invalid_coordinate", "valid", "valid"])
        let lenient = CheckInValidator(places: places, events: [CheckInEvent](), accuracyPolicy: .lenient)
        #expect(lenient.validate(rows.suffix(2).enumerated().map { n, row in
            CheckIn(id: "\(n)", userId: "u", placeId: "p", latitude: row.0, longitude: row.1, time: row.2, accuracyMeters: row.3)
        }).map { $0.reason?.code ?? "valid" } == ["invalid_coordinate", "invalid_coordinate"])
    }

    @Test func duplicatesFirstValidWinsAndRepeatIdsAreJudgedEach() throws {
        let places = [CheckInPlace(id: "p", circle: try circle(0, 0, 100))]
        let events = [CheckInEvent(id: "e", placeId: "p", window: try window(0, 100))]
        let v = CheckInValidator(places: places, events: events)
        let checkIns = [
            CheckIn(id: "1", userId: "ann", eventId: "e", latitude: 0, longitude: 0.01, time: at(5)), // outside
            CheckIn(id: "2", userId: "ann", eventId: "e", latitude: 0, longitude: 0, time: at(5)),    // first valid
            CheckIn(id: "2", userId: "ann", eventId: "e", latitude: 0, longitude: 0, time: at(6)),    // duplicate
            CheckIn(id: "3", userId: "bob", eventId: "e", latitude: 0, longitude: 0, time: at(7)),
            CheckIn(id: "4", userId: "ann", placeId: "p", latitude: 0, longitude: 0, time: at(8)),    // park visit: repeatable
            CheckIn(id: "5", userId: "ann", placeId: "p", latitude: 0, longitude: 0, time: at(9)),
        ]
        #expect(v.validate(checkIns).map { $0.reason?.code ?? "valid" } == ["outside_radius", "valid", "duplicate", "valid", "valid", "valid"])
    }

    @Test func unknownIdsJoinsAndEventDefinedPlaces() throws {
        let places = [CheckInPlace(id: "p", circle: try circle(0, 0, 100))]
        let events = [CheckInEvent(id: "e", placeId: "p", window: try window(0, 100)),
                      CheckInEvent(id: "own", placeId: "q", circle: try circle(1, 1, 50), window: try window(0, 100)),
                      CheckInEvent(id: "lost", placeId: "nowhere", window: try window(0, 100)),
                      CheckInEvent(id: "e", placeId: "q", window: try window(500, 600))]
        let joins = [CheckInJoin(userId: "ann", eventId: "e"), CheckInJoin(userId: "ann", eventId: "ghost")]
        let v = CheckInValidator(places: places, events: events, joins: joins)
        #expect(v.ignoredEvents == 1 && v.ignoredJoins == 1)
        let checkIns = [
            CheckIn(id: "1", userId: "ann", eventId: "e", latitude: 0, longitude: 0, time: at(1)),
            CheckIn(id: "2", userId: "bob", eventId: "e", latitude: 0, longitude: 0, time: at(1)),
            CheckIn(id: "3", userId: "ann", eventId: "ghost", latitude: 0, longitude: 0, time: at(1)),
            CheckIn(id: "4", userId: "ann", eventId: "lost", latitude: 0, longitude: 0, time: at(1)),
            CheckIn(id: "5", userId: "ann", placeId: "q", latitude: 1, longitude: 1, time: at(1)),
            CheckIn(id: "6", userId: "ann", placeId: "nope", latitude: 1, longitude: 1, time: at(1)),
            CheckIn(id: "7", userId: "ann", eventId: "own", latitude: 1, longitude: 1, time: at(1)),
            // An event and a place: judged against the event's place; naming another place (the check-in stands
            // inside it) or an unknown one is a contradiction; naming the event's own place is fine.
            CheckIn(id: "8", userId: "ann", eventId: "e", placeId: "q", latitude: 1, longitude: 1, time: at(1)),
            CheckIn(id: "9", userId: "ann", eventId: "e", placeId: "nope", latitude: 0, longitude: 0, time: at(1)),
            CheckIn(id: "10", userId: "cat", eventId: "own", placeId: "q", latitude: 1, longitude: 1, time: at(1)),
        ]
        #expect(v.validate(checkIns).map { $0.reason?.code ?? "valid" }
                == ["valid", "not_joined", "unknown_event", "unknown_place", "valid", "unknown_place", "not_joined",
                    "place_mismatch", "place_mismatch", "not_joined"])
        #expect(v.judge(checkIns[7]).placeIndex.map { v.placeId(at: $0) } == "p")
        let reference = CheckInReference(places: places, events: events, joins: joins, model: .wgs84, policy: .ignore)
        #expect(v.verdicts(checkIns) == reference.judgeAll(checkIns))
    }

    @Test func pointOnlyMatchesPreferOngoingEventsThenNearest() throws {
        let places = [CheckInPlace(id: "big", circle: try circle(0, 0, 5000)),
                      CheckInPlace(id: "small", circle: try circle(0, 0.01, 500)),
                      CheckInPlace(id: "far", circle: try circle(40, 40, 10))]
        let events = [CheckInEvent(id: "match", placeId: "big", window: try window(0, 100)),
                      CheckInEvent(id: "later", placeId: "big", window: try window(50, 100))]
        let v = CheckInValidator(places: places, events: events)
        let checkIns = [
            CheckIn(id: "1", userId: "u", latitude: 0, longitude: 0.01, time: at(10)),  // event at big beats nearer small
            CheckIn(id: "2", userId: "u", latitude: 0, longitude: 0.01, time: at(200)), // no event: nearest, small
            CheckIn(id: "3", userId: "v", latitude: 0, longitude: 0.01, time: at(60)),  // latest started: later
            CheckIn(id: "4", userId: "u", latitude: 10, longitude: 10, time: at(10)),   // nothing
            CheckIn(id: "5", userId: "u", latitude: 0, longitude: 0.01, time: at(20)),  // duplicate of 1
        ]
        let verdicts = v.verdicts(checkIns)
        #expect(verdicts.map(\.code) == ["valid", "valid", "valid", "no_match", "duplicate"])
        #expect(verdicts.map(\.place) == ["big", "small", "big", nil, "big"])
        #expect(verdicts.map(\.event) == ["match", nil, "later", nil, "match"])
        let reference = CheckInReference(places: places, events: events, joins: nil, model: .wgs84, policy: .ignore)
        #expect(verdicts == reference.judgeAll(checkIns))
    }

    @Test(arguments: [(DistanceModel.wgs84, CheckInAccuracyPolicy.ignore), (.sphere, .ignore), (.wgs84, .lenient)])
    func matchesTheReferenceOnSeededData(model: DistanceModel, policy: CheckInAccuracyPolicy) throws {
        var random = CheckInTestRandom(seed: 0xC4EC_1215 &+ UInt64(model == .sphere ? 1 : 0) &+ UInt64(policy == .lenient ? 2 : 0))
        // Places in a few awkward clusters: the antimeridian, near the poles, an ordinary city; some overlap.
        let clusters: [(Double, Double)] = [(0, 179.99), (0, -179.99), (89.98, 10), (-89.98, -100), (60.17, 24.94)]
        var places: [CheckInPlace] = []
        for n in 0..<120 {
            let (lat, lon) = clusters[n % clusters.count]
            let center = try destination(from: Coordinate(latitude: lat, longitude: lon), bearingDegrees: random.double(0...360),
                                         distanceMeters: random.double(0...3000))
            places.append(CheckInPlace(id: "p\(n % 110)", circle: try Circle(center: center, radiusMeters: random.double(1...2000).rounded())))
        }
        var events: [CheckInEvent] = []
        for n in 0..<200 {
            let start = random.double(0...5000).rounded()
            let placeId = random.chance(0.05) ? "missing\(n)" : "p\(random.int(0...109))"
            let own = random.chance(0.5) ? try circle(random.double(-1...1), random.double(-1...1), 300) : nil
            events.append(CheckInEvent(id: "e\(n % 190)", placeId: placeId, circle: own, window: try window(start, start + random.double(1...4000).rounded())))
        }
        // Joins with WGS84 (both policies), none with the sphere: each case is covered whatever the seed draws.
        let joins: [CheckInJoin]? = model == .wgs84 ? (0..<300).map { _ in CheckInJoin(userId: "u\(random.int(0...9))", eventId: "e\(random.int(0...199))") } : nil
        let reference = CheckInReference(places: places, events: events, joins: joins, model: model, policy: policy)
        let effective = reference.effectivePlaces
        var checkIns: [CheckIn] = []
        for n in 0..<1500 {
            let user = "u\(random.int(0...9))"
            var eventId: String?
            var placeId: String?
            let target: CheckInPlace
            switch random.int(0...9) {
            case 0...4:
                let event = events[random.int(0...events.count - 1)]
                eventId = random.chance(0.03) ? "ghost" : event.id
                target = reference.placeOf(event, effective) ?? effective[0]
                // Sometimes the place too: the event's own (consistent), another one, or an unknown one.
                if random.chance(0.15) {
                    placeId = [target.id, effective[random.int(0...effective.count - 1)].id, "ghost"][random.int(0...2)]
                }
            case 5...7:
                target = effective[random.int(0...effective.count - 1)]
                placeId = random.chance(0.03) ? "ghost" : target.id
            default:
                target = effective[random.int(0...effective.count - 1)]
            }
            // Near the edge on purpose: 0.98–1.02 of the radius, or exactly the radius along a bearing.
            let r = target.circle.radiusMeters
            let distance = random.chance(0.2) ? r : r * random.double(0.98...1.02)
            let point = try destination(from: target.circle.center, bearingDegrees: random.double(0...360), distanceMeters: distance, model: model)
            var lat = point.latitude, lon = point.longitude
            if random.chance(0.02) { lat = .nan }
            if random.chance(0.02) { lon = 180.5 }
            let time: Timestamp? = random.chance(0.02) ? nil : at(random.double(-100...9000).rounded())
            let accuracy: Double? = policy == .lenient && random.chance(0.5) ? random.double(0...0.03 * max(r, 1)) : nil
            checkIns.append(CheckIn(id: "c\(n)", userId: user, eventId: eventId, placeId: placeId,
                                    latitude: lat, longitude: lon, time: time, accuracyMeters: accuracy))
        }
        let validator = CheckInValidator(places: places, events: events, joins: joins, model: model, accuracyPolicy: policy)
        let got = validator.verdicts(checkIns)
        let want = reference.judgeAll(checkIns)
        var mismatches = 0
        for (n, pair) in zip(got, want).enumerated() where pair.0 != pair.1 {
            mismatches += 1
            if mismatches <= 5 { Issue.record("check-in \(n): got \(pair.0), want \(pair.1)") }
        }
        #expect(mismatches == 0)
        // The data must exercise the interesting verdicts.
        let codes = Set(want.map(\.code))
        for code in ["valid", "outside_radius", "before_start", "after_end", "duplicate", "invalid_coordinate", "invalid_time", "unknown_event", "unknown_place"] {
            #expect(codes.contains(code), "no \(code) in the seeded data")
        }
    }

    @Test func visitStatsCountRepeatVisitsAndNameTheTopVisitor() throws {
        let places = [CheckInPlace(id: "park", circle: try circle(0, 0, 100)), CheckInPlace(id: "quiet", circle: try circle(5, 5, 100))]
        let v = CheckInValidator(places: places, events: [CheckInEvent]())
        let users = ["bob", "ann", "bob", "cat", "ann", "bob", "ann", "zed"]
        let checkIns = users.enumerated().map { n, user in
            CheckIn(id: "\(n)", userId: user, placeId: "park", latitude: 0, longitude: n == 7 ? 1 : 0, time: at(Double(n)))
        }
        // Two shards by a user split, as the CLI does; the merge must equal one ledger.
        var one = CheckInLedger(validator: v, countsVisits: true)
        _ = v.validate(checkIns, ledger: &one)
        var left = CheckInLedger(validator: v, countsVisits: true), right = CheckInLedger(validator: v, countsVisits: true)
        _ = v.validate(checkIns.filter { $0.userId < "b" }, ledger: &left)
        _ = v.validate(checkIns.filter { $0.userId >= "b" }, ledger: &right)
        let stats = CheckInLedger.placeStats([one])
        #expect(stats == CheckInLedger.placeStats([left, right]))
        #expect(stats.count == 1)
        let park = try #require(stats.first)
        #expect(park.placeIndex == 0 && park.visits == 7 && park.visitors == 3)
        #expect(park.topVisitor == "ann" && park.topVisitorVisits == 3) // ann and bob tie at 3: the smaller id wins
    }

    @Test func emptyInputsAreOrdinary() throws {
        let v = CheckInValidator(places: [CheckInPlace](), events: [CheckInEvent]())
        #expect(v.validate([CheckIn]()).isEmpty)
        let results = v.validate([CheckIn(id: "a", userId: "u", latitude: 1, longitude: 1, time: at(0)),
                                  CheckIn(id: "b", userId: "u", eventId: "e", latitude: 1, longitude: 1, time: at(0)),
                                  CheckIn(id: "c", userId: "u", placeId: "p", latitude: 1, longitude: 1, time: at(0))])
        #expect(results.map { $0.reason?.code ?? "valid" } == ["no_match", "unknown_event", "unknown_place"])
    }
}
