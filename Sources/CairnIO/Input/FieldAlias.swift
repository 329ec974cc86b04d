/// The one table of input field names: what a column of a CSV header or a member of a JSON object means, by any
/// of its accepted names (compared case-insensitively). `cairn import` (through `FieldRole`), the check-in
/// reader and the check-in reference files read their headers through it, so a name means the same everywhere.
/// docs/INPUT-OUTPUT.md lists the names.
public enum FieldAlias: CaseIterable, Hashable, Sendable {
    /// A check-in's own id (`id` itself is a feature's or a check-in's id, resolved by each reader).
    case checkInId
    /// The feature kind.
    case kind
    /// Degrees north.
    case latitude
    /// Degrees east.
    case longitude
    /// A circle's radius (a bare number is metres).
    case radius
    /// An event's start.
    case startTime
    /// An event's end.
    case endTime
    /// An instant: when a sighting was seen, when a check-in was made.
    case time
    /// A user's id.
    case user
    /// An event's id, named by a check-in or a join.
    case event
    /// A place's id, named by a check-in or an event.
    case place
    /// A GPS accuracy, metres.
    case accuracy
    /// A whole geometry in one field: WKT, or WKB in hexadecimal digits.
    case geometry

    /// The accepted names, lower-case, the canonical one first.
    /// - Complexity: O(1).
    public var names: [String] {
        switch self {
        case .checkInId: ["checkin_id", "checkinid", "check_in_id"]
        case .kind: ["kind"]
        case .latitude: ["latitude", "lat", "lattitude"]
        case .longitude: ["longitude", "lon", "lng", "long", "longtitude"]
        case .radius: ["radiusmeters", "radius", "rad", "radius_m", "radius_meters"]
        case .startTime: ["starttime", "start", "start_time", "starts_at"]
        case .endTime: ["endtime", "end", "end_time", "ends_at"]
        // One list for import's sightings and for check-ins: both read an instant.
        case .time: ["time", "timestamp", "seen_at", "seenat", "checkin_time", "checkintime", "created_at", "createdat", "at"]
        case .user: ["userid", "user", "user_id"]
        case .event: ["eventid", "event", "event_id"]
        case .place: ["placeid", "place", "place_id", "park", "parkid", "park_id"]
        case .accuracy: ["accuracy", "accuracym", "accuracy_m", "accuracymeters", "accuracy_meters", "horizontal_accuracy"]
        case .geometry: ["geometry", "geom", "the_geom", "wkt", "wkb"]
        }
    }

    /// Every accepted name, lower-case.
    private static let table: [String: FieldAlias] = {
        var table: [String: FieldAlias] = [:]
        for alias in allCases {
            for name in alias.names { table[name] = alias }
        }
        return table
    }()

    /// What `name` means (any case; no trimming), or nil for a name of no alias.
    /// - Complexity: O(n) in the length of the name.
    public static func resolve(_ name: String) -> FieldAlias? {
        table[name.lowercased()]
    }
}
