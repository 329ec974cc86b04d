import CairnCore
import CairnIO

/// Derives realistic synthetic data from real places with a seeded generator: the same seed and sizes give
/// byte-identical files.
///
/// Parks sit 0.5–5 km from real towns, trailheads within 3 km of parks, places (venues with check-in radii)
/// within 2 km of towns, events at places with time windows in June–July 2026, users near towns, and check-ins
/// around events and parks with a known share of every invalid kind (written to `checkins-expected.csv`).
public struct SyntheticDataset: Sendable {
    /// The real towns everything is placed around.
    public let towns: [Feature]
    /// The seed of every random choice.
    public let seed: UInt64
    /// How many rows of each kind.
    public let sizes: SyntheticSizes
    /// Whether the places are the real towns themselves (the first `sizes.places`, in file order, each at its
    /// own location with its own id and name and a seeded check-in radius) instead of venues scattered near them.
    public var placesAreTowns = false

    /// A generator of `sizes` rows around `towns`, fixed by `seed`.
    /// - Complexity: O(1).
    public init(towns: [Feature], seed: UInt64, sizes: SyntheticSizes, placesAreTowns: Bool = false) {
        self.towns = towns
        self.seed = seed
        self.sizes = sizes
        self.placesAreTowns = placesAreTowns
    }

    static let amenities = ["offLeash", "fenced", "smallDogArea", "swimming", "trails", "agility", "hunting", "biking", "horseback"]
    static let sports = ["football", "basketball", "tennis", "running", "cycling", "climbing", "yoga", "volleyball", "hiking", "swimming"]
    static let difficulties = ["casual", "moderate", "challenging"]
    static let ageGroups = ["baby", "toddler", "schoolAge"]
    /// 2026-06-01T00:00:00Z.
    static let firstDay = Timestamp(secondsSince1970: 1_780_272_000)

    /// One generated file: its name and its CSV text.
    public struct File: Sendable {
        /// The file's name: `parks.csv`.
        public let name: String
        /// The whole CSV text, header first.
        public let text: String
    }

    /// The files, in the order they are generated.
    public static let fileNames = ["parks.csv", "trailheads.csv", "places.csv", "events.csv", "users.csv", "checkins.csv", "checkins-expected.csv"]

    /// Generates every file in memory.
    /// - Complexity: O(total rows).
    public func generate() -> [File] {
        var texts: [String: String] = [:]
        generate { name, text in texts[name, default: ""] += text }
        return Self.fileNames.map { File(name: $0, text: texts[$0] ?? "") }
    }

    /// Generates every file as a stream of text pieces: `write(fileName, text)`, each file's pieces in order
    /// (check-ins and their expected verdicts interleave). Memory does not grow with the number of check-ins
    /// beyond the valid (user, event) pairs (16 bytes each), so tens of millions can be written.
    /// - Complexity: O(total rows).
    public func generate(write: (String, String) -> Void) {
        var random = SeededRandom(seed: seed)
        let parks = makeParks(&random)
        write(parks.file.name, parks.file.text)
        let trailheads = makeTrailheads(parks: parks.sites, &random)
        write(trailheads.name, trailheads.text)
        let places = makePlaces(&random)
        write(places.file.name, places.file.text)
        let events = makeEvents(places: places.sites, &random)
        write(events.file.name, events.file.text)
        let users = makeUsers(&random)
        write(users.file.name, users.file.text)
        makeCheckIns(events: events.events, places: places.sites, parks: parks.sites, users: users.count, &random, write: write)
    }

    // MARK: - Helpers

    private func town(_ random: inout SeededRandom) -> Feature { towns[random.below(towns.count)] }

    /// A point `distance` metres from `origin` on a random bearing (WGS84 geodesic).
    private func scatter(_ origin: Coordinate, within range: ClosedRange<Double>, _ random: inout SeededRandom) -> Coordinate {
        // Finite bearing and distance: `destination` cannot fail; the origin stands in should it ever.
        (try? destination(from: origin, bearingDegrees: random.uniform(0...360), distanceMeters: random.uniform(range))) ?? origin
    }

    private func townName(_ town: Feature) -> String {
        if case .string(let name)? = town.attributes["name"] { return name }
        return town.id
    }

    private func coordinateText(_ c: Coordinate) -> String {
        "\(rounded(c.latitude, 6)),\(rounded(c.longitude, 6))"
    }

    private func rounded(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return TextEscaping.jsonNumber((value * scale).rounded() / scale)
    }

    private func csv(_ header: String, _ rows: [String]) -> String { ([header] + rows).joined(separator: "\n") + "\n" }

    // MARK: - Parks and trailheads

    struct Site {
        let id: String
        let location: Coordinate
        let radiusMeters: Double
    }

    private func makeParks(_ random: inout SeededRandom) -> (sites: [Site], file: File) {
        var sites: [Site] = []
        var rows: [String] = []
        let kinds = ["Park", "Gardens", "Green", "Common", "Woods", "Dog Park", "Meadow"]
        for n in 0..<sizes.parks {
            let near = town(&random)
            let location = scatter(near.location, within: 500...5_000, &random)
            let id = "park-\(n + 1)"
            let radius = (random.uniform(80...600)).rounded()
            sites.append(Site(id: id, location: location, radiusMeters: radius))
            let name = "\(townName(near)) \(kinds[random.below(kinds.count)])"
            let flags = Self.amenities.map { _ in random.chance(0.35) ? "true" : "false" }
            let rating = rounded(random.uniform(2.5...5), 1)
            let hours = random.chance(0.5) ? "06:00-22:00" : "dawn-dusk"
            rows.append("\(id),\(TextEscaping.csvField(name)),\(coordinateText(location)),\(TextEscaping.jsonNumber(radius)),\(rating),\(hours),\(flags.joined(separator: ",")),\(TextEscaping.csvField(townName(near)))")
        }
        let header = "id,name,latitude,longitude,radiusMeters,rating,hours," + Self.amenities.joined(separator: ",") + ",nearestCity"
        return (sites, File(name: "parks.csv", text: csv(header, rows)))
    }

    private func makeTrailheads(parks: [Site], _ random: inout SeededRandom) -> File {
        var rows: [String] = []
        for n in 0..<sizes.trailheads where !parks.isEmpty {
            let park = parks[random.below(parks.count)]
            let location = scatter(park.location, within: 50...3_000, &random)
            let difficulty = Self.difficulties[random.below(3)]
            let groups = Self.ageGroups.filter { _ in random.chance(0.5) }
            let length = rounded(random.uniform(0.3...14), 1)
            let stroller = difficulty == "casual" && random.chance(0.6)
            let loop = random.chance(0.4)
            rows.append("trail-\(n + 1),Trail \(n + 1),\(coordinateText(location)),\(park.id),\(length),\(difficulty),\(groups.joined(separator: ";")),\(stroller),\(loop)")
        }
        return File(name: "trailheads.csv", text: csv("id,name,latitude,longitude,park,lengthMiles,difficulty,ageGroups,strollerAccessible,loop", rows))
    }

    // MARK: - Places, events, users

    private func makePlaces(_ random: inout SeededRandom) -> (sites: [Site], file: File) {
        var sites: [Site] = []
        var rows: [String] = []
        let venues = ["Arena", "Stadium", "Court", "Field", "Hall", "Club", "Centre", "Pitch"]
        if placesAreTowns {
            for town in towns.prefix(sizes.places) {
                let radius = (random.uniform(30...300)).rounded()
                sites.append(Site(id: town.id, location: town.location, radiusMeters: radius))
                rows.append("\(TextEscaping.csvField(town.id)),\(TextEscaping.csvField(townName(town))),\(coordinateText(town.location)),\(TextEscaping.jsonNumber(radius)),geonames,\(TextEscaping.csvField(town.id))")
            }
            return (sites, File(name: "places.csv", text: csv("id,name,latitude,longitude,radiusMeters,externalSource,externalId", rows)))
        }
        for n in 0..<sizes.places {
            let near = town(&random)
            let location = scatter(near.location, within: 0...2_000, &random)
            let radius = (random.uniform(30...300)).rounded()
            let id = "place-\(n + 1)"
            sites.append(Site(id: id, location: location, radiusMeters: radius))
            let name = "\(townName(near)) \(venues[random.below(venues.count)])"
            let external = String(random.next() >> 16, radix: 16)
            rows.append("\(id),\(TextEscaping.csvField(name)),\(coordinateText(location)),\(TextEscaping.jsonNumber(radius)),foursquare,\(external)")
        }
        return (sites, File(name: "places.csv", text: csv("id,name,latitude,longitude,radiusMeters,externalSource,externalId", rows)))
    }

    struct Event {
        let id: String
        let place: Site
        let start: Double
        let end: Double
    }

    private func makeEvents(places: [Site], _ random: inout SeededRandom) -> (events: [Event], file: File) {
        var events: [Event] = []
        var rows: [String] = []
        for n in 0..<sizes.events where !places.isEmpty {
            let place = places[random.below(places.count)]
            let day = Double(random.below(61)) * 86_400
            let start = Self.firstDay.secondsSince1970 + day + Double(8 + random.below(12)) * 3600 + Double(random.below(4)) * 900
            let end = start + Double(1 + random.below(4)) * 3600
            let id = "event-\(n + 1)"
            events.append(Event(id: id, place: place, start: start, end: end))
            let sport = Self.sports[random.below(Self.sports.count)]
            let visibility = random.chance(0.8) ? "public" : "private"
            rows.append("\(id),\(sport) at \(place.id),\(place.id),\(coordinateText(place.location)),\(TextEscaping.jsonNumber(place.radiusMeters)),\(Timestamp(secondsSince1970: start).iso8601),\(Timestamp(secondsSince1970: end).iso8601),\(sport),\(visibility),user-\(1 + random.below(max(1, sizes.users)))")
        }
        return (events, File(name: "events.csv", text: csv("id,name,placeId,latitude,longitude,radiusMeters,startTime,endTime,category,visibility,creatorId", rows)))
    }

    private func makeUsers(_ random: inout SeededRandom) -> (count: Int, file: File) {
        var rows: [String] = []
        for n in 0..<sizes.users {
            let location = scatter(town(&random).location, within: 0...10_000, &random)
            let interests = Self.sports.filter { _ in random.chance(0.25) }
            rows.append("user-\(n + 1),\(coordinateText(location)),\(interests.joined(separator: ";"))")
        }
        return (sizes.users, File(name: "users.csv", text: csv("id,latitude,longitude,interests", rows)))
    }

    // MARK: - Check-ins

    private func makeCheckIns(events: [Event], places: [Site], parks: [Site], users: Int, _ random: inout SeededRandom,
                              write: (String, String) -> Void) {
        // Rows go out in blocks of this many, so memory stays flat however many are asked for.
        let block = 4_096
        var rows = "id,userId,eventId,placeId,latitude,longitude,time\n"
        var expected = "line,checkin_id,expected_verdict\n"
        var written = 0
        // Valid (user, event) pairs by number: user n (1-based) and event index, as (n << 32 | index).
        var validByUserEvent: [(user: Int, event: Int)] = []
        var validPairs = Set<UInt64>()
        let invalidKinds = SyntheticVerdict.allCases.filter { $0 != .valid }
        let userCount = max(1, users)
        for n in 0..<sizes.checkIns where !events.isEmpty && !parks.isEmpty {
            let id = "checkin-\(n + 1)"
            var verdict = SyntheticVerdict.valid
            if random.chance(SyntheticVerdict.invalidShare * Double(invalidKinds.count)) {
                verdict = invalidKinds[random.below(invalidKinds.count)]
            }
            if verdict == .duplicate, validByUserEvent.isEmpty { verdict = .valid }
            var userNumber = 1 + random.below(userCount)
            var eventIndex = random.below(events.count)
            if verdict == .duplicate {
                let earlier = validByUserEvent[random.below(validByUserEvent.count)]
                userNumber = earlier.user
                eventIndex = earlier.event
            }
            let user = "user-\(userNumber)"
            let event = events[eventIndex]
            // A fifth of the valid check-ins are park visits (a place id, no event, no time window).
            let parkVisit = verdict == .valid && random.chance(0.2)
            let site = parkVisit ? parks[random.below(parks.count)] : event.place
            var eventId = parkVisit ? "" : event.id
            var placeId = parkVisit ? site.id : ""
            var distance = random.uniform(0...0.9) * site.radiusMeters
            if verdict == .outside_radius { distance = random.uniform(1.2...3) * site.radiusMeters + 1 }
            var coordinate = coordinateText(scatter(site.location, within: distance...distance, &random))
            var time = parkVisit
                ? Self.firstDay.secondsSince1970 + random.uniform(0...(61 * 86_400))
                : random.uniform(event.start...(event.end - 1))
            var timeText: String?
            switch verdict {
            case .before_start: time = event.start - random.uniform(1...7_200)
            case .after_end: time = random.chance(0.1) ? event.end : event.end + random.uniform(0...7_200)
            case .unknown_event: eventId = "event-missing-\(n + 1)"
            case .unknown_place: eventId = ""; placeId = "place-missing-\(n + 1)"
            case .invalid_coordinate:
                let bad = ["95.5,24.9", "-91,10", "45.1,200.5", "NaN,12.5", "12.5,-181"]
                coordinate = bad[random.below(bad.count)]
            case .invalid_time:
                let bad = ["2026-13-01T10:00:00Z", "yesterday", "2026-06-31T10:00:00Z", "2026-06-10T25:61:00Z"]
                timeText = bad[random.below(bad.count)]
            default: break
            }
            time = time.rounded()
            let timeField = timeText ?? Timestamp(secondsSince1970: time).iso8601
            if verdict == .malformed_row {
                rows += "\(id),\(user),\(eventId),\(coordinate)\n"
            } else {
                rows += "\(id),\(user),\(eventId),\(placeId),\(coordinate),\(timeField)\n"
            }
            written += 1
            if verdict == .valid, !parkVisit {
                // A random user may pick the same event twice: the second valid check-in is then a duplicate.
                if validPairs.insert(UInt64(userNumber) << 32 | UInt64(eventIndex)).inserted {
                    validByUserEvent.append((userNumber, eventIndex))
                } else {
                    verdict = .duplicate
                }
            }
            expected += "\(written + 1),\(id),\(verdict.rawValue)\n"
            if written % block == 0 {
                write("checkins.csv", rows)
                write("checkins-expected.csv", expected)
                rows = ""
                expected = ""
            }
        }
        write("checkins.csv", rows)
        write("checkins-expected.csv", expected)
    }
}
