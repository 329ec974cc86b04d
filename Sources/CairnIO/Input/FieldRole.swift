import CairnCore

/// What an input field means to a feature, after resolving aliases through `FieldAlias`, the one table.
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
    /// A whole geometry: WKT or hexadecimal WKB.
    case geometry
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
        case .geometry: "geometry"
        case .attribute(let name): name
        }
    }

    /// Resolves an input field name. `idColumn` names the id field (default `id`).
    /// - Complexity: O(n) in the length of the name.
    public static func resolve(_ name: String, idColumn: String?) -> FieldRole {
        if let idColumn {
            if name == idColumn { return .id }
        } else if name.lowercased() == "id" {
            return .id
        }
        switch FieldAlias.resolve(name) {
        case .latitude: return .latitude
        case .longitude: return .longitude
        case .radius: return .radius
        case .startTime: return .startTime
        case .endTime: return .endTime
        case .time: return .time
        case .kind: return .kind
        case .geometry: return .geometry
        // Ids of users, events, places, accuracies: attributes of a feature.
        case .checkInId, .user, .event, .place, .accuracy, nil: break
        }
        return .attribute(name)
    }
}
