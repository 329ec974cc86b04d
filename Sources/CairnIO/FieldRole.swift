import CairnCore

/// What an input field means to Cairn, after resolving aliases (`lat|latitude|lattitude`, ...).
public enum FieldRole: Hashable, Sendable {
    /// The feature's id.
    case id
    /// The feature kind (`park`, `place`, ...).
    case kind
    /// Degrees north.
    case latitude
    /// Degrees east.
    case longitude
    /// The circle radius (`500`, `500m`, `1.2km`); a bare number is metres.
    case radius
    /// An event's start.
    case startTime
    /// An event's end.
    case endTime
    /// A sighting's instant.
    case time
    /// Anything else: kept as a typed attribute under this name.
    case attribute(String)

    /// The canonical name used in messages.
    public var name: String {
        switch self {
        case .id: "id"
        case .kind: "kind"
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .radius: "radiusMeters"
        case .startTime: "startTime"
        case .endTime: "endTime"
        case .time: "time"
        case .attribute(let name): name
        }
    }

    /// Aliases accepted in input, compared case-insensitively (ARCHITECTURE.md, "Domain").
    static let aliases: [String: FieldRole] = {
        var table: [String: FieldRole] = [:]
        for name in ["lat", "latitude", "lattitude"] { table[name] = .latitude }
        for name in ["lon", "lng", "long", "longitude", "longtitude"] { table[name] = .longitude }
        for name in ["radius", "rad", "radiusmeters", "radius_m", "radius_meters"] { table[name] = .radius }
        for name in ["start", "starttime", "start_time", "starts_at"] { table[name] = .startTime }
        for name in ["end", "endtime", "end_time", "ends_at"] { table[name] = .endTime }
        for name in ["time", "timestamp", "seen_at", "seenat"] { table[name] = .time }
        table["kind"] = .kind
        return table
    }()

    /// Resolves an input field name. `idColumn` names the id field (default `id`).
    /// - Complexity: O(n) in the length of the name.
    public static func resolve(_ name: String, idColumn: String?) -> FieldRole {
        if let idColumn {
            if name == idColumn { return .id }
        } else if name.lowercased() == "id" {
            return .id
        }
        if let role = aliases[name.lowercased()] { return role }
        return .attribute(name)
    }
}
