import CairnCore
import CairnIO
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The hard check-in load of issue #20, seeded: every town is a place with a radius of 50–2,000 m, events at
/// random places last 30 minutes to 4 hours at random times across 2026, and each check-in names a random event
/// (1 % name none that exists) at a point scattered uniformly within ±1.5 radii of the place's centre, east and
/// north, so that most points lie near the circle's edge, at a time within ten minutes of the event's window.
/// Rows come in random order (each picks its event at random); users are drawn from 100,000.
///
/// The point is offset in metres on a local flat approximation (the metres per degree at the centre): the load
/// needs points near the edge, not at a given geodesic distance, and the validator measures them exactly.
public struct EdgeCheckInLoad: Sendable {
    /// The towns that become the places, in file order, each under its own id.
    public let towns: [Feature]
    /// The seed of every random choice.
    public let seed: UInt64
    /// How many events.
    public let events: Int
    /// How many check-ins.
    public let checkIns: Int

    /// The files, in the order they are written.
    public static let fileNames = ["places.csv", "events.csv", "checkins.csv"]

    /// A load of `events` events and `checkIns` check-ins at `towns`, fixed by `seed`.
    /// - Complexity: O(1).
    public init(towns: [Feature], seed: UInt64, events: Int, checkIns: Int) {
        self.towns = towns
        self.seed = seed
        self.events = events
        self.checkIns = checkIns
    }

    /// 2026-01-01T00:00:00Z.
    static let yearStartSeconds = 1_767_225_600.0
    static let yearSeconds = 365 * 86_400.0
    /// Users the check-ins are spread over.
    static let userCount = 100_000
    /// Metres per degree of latitude on the mean sphere, to scatter points (a flat approximation suffices).
    static let metresPerDegree = 111_195.0
    /// Rows per piece handed to `write`: memory stays flat whatever the sizes.
    static let rowsPerPiece = 8_192

    /// Writes the files as pieces of CSV text, `write(fileName, text)`, each file's pieces in order.
    /// Memory: the places' and events' numbers (about 40 bytes per event), never the rows.
    /// - Complexity: O(towns + events + check-ins).
    public func generate(write: (String, String) -> Void) {
        var random = SeededRandom(seed: seed)
        var text = "id,name,latitude,longitude,radiusMeters\n"
        var radii: [Double] = []
        radii.reserveCapacity(towns.count)
        for (n, town) in towns.enumerated() {
            let radius = random.uniform(50...2_000).rounded()
            radii.append(radius)
            text += "\(TextEscaping.csvField(town.id)),\(TextEscaping.csvField(name(town))),"
                + "\(coordinateText(town.location.latitude, town.location.longitude)),\(TextEscaping.jsonNumber(radius))\n"
            if n % Self.rowsPerPiece == Self.rowsPerPiece - 1 { write("places.csv", text); text = "" }
        }
        write("places.csv", text)

        text = "id,placeId,startTime,endTime\n"
        var eventPlaces: [Int32] = []
        var eventWindows: [(start: Double, end: Double)] = []
        eventPlaces.reserveCapacity(events)
        eventWindows.reserveCapacity(events)
        for n in 0..<events where !towns.isEmpty {
            let place = random.below(towns.count)
            let start = (Self.yearStartSeconds + random.uniform(0...Self.yearSeconds)).rounded()
            let end = start + (random.uniform(1_800...14_400) / 60).rounded() * 60
            eventPlaces.append(Int32(place))
            eventWindows.append((start, end))
            text += "e\(n + 1),\(TextEscaping.csvField(towns[place].id)),"
                + "\(Timestamp(secondsSince1970: start).iso8601),\(Timestamp(secondsSince1970: end).iso8601)\n"
            if n % Self.rowsPerPiece == Self.rowsPerPiece - 1 { write("events.csv", text); text = "" }
        }
        write("events.csv", text)

        text = "id,userId,eventId,latitude,longitude,time\n"
        for n in 0..<checkIns where !eventPlaces.isEmpty {
            let event = random.below(eventPlaces.count)
            let unknown = random.chance(0.01)
            let place = Int(eventPlaces[event])
            let centre = towns[place].location, radius = radii[place]
            let east = random.uniform(-1.5...1.5) * radius, north = random.uniform(-1.5...1.5) * radius
            let (latitude, longitude) = Self.offset(centre, eastMeters: east, northMeters: north)
            let window = eventWindows[event]
            let time = random.uniform((window.start - 600)...(window.end + 600)).rounded()
            let eventId = unknown ? "missing-\(n + 1)" : "e\(event + 1)"
            text += "c\(n + 1),u\(1 + random.below(Self.userCount)),\(eventId),"
                + "\(coordinateText(latitude, longitude)),\(Timestamp(secondsSince1970: time).iso8601)\n"
            if n % Self.rowsPerPiece == Self.rowsPerPiece - 1 { write("checkins.csv", text); text = "" }
        }
        write("checkins.csv", text)
    }

    /// The point `eastMeters` east and `northMeters` north of `centre` on the local flat approximation, with its
    /// latitude held within [-90, 90] and its longitude brought into [-180, 180].
    static func offset(_ centre: Coordinate, eastMeters: Double, northMeters: Double) -> (Double, Double) {
        let latitude = min(90, max(-90, centre.latitude + northMeters / Self.metresPerDegree))
        let cosine = max(1e-6, cos(centre.latitude * .pi / 180))
        var longitude = centre.longitude + eastMeters / (Self.metresPerDegree * cosine)
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return (latitude, longitude)
    }

    /// Seven decimals (about a centimetre): points near the edge stay near it.
    private func coordinateText(_ latitude: Double, _ longitude: Double) -> String {
        "\(TextEscaping.jsonNumber((latitude * 1e7).rounded() / 1e7)),\(TextEscaping.jsonNumber((longitude * 1e7).rounded() / 1e7))"
    }

    private func name(_ town: Feature) -> String {
        if case .string(let name)? = town.attributes["name"] { return name }
        return town.id
    }
}

