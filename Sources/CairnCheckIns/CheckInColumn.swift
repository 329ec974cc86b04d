import CairnCore

/// What a check-in field means, resolved from a CSV header or a JSON key (case-insensitive, with aliases).
enum CheckInColumn: Int, CaseIterable {
    case id, user, event, place, latitude, longitude, time, accuracy

    /// Accepted names, lower-case.
    static let aliases: [String: CheckInColumn] = {
        var table: [String: CheckInColumn] = [:]
        for name in ["id", "checkin_id", "checkinid", "check_in_id"] { table[name] = .id }
        for name in ["user", "userid", "user_id"] { table[name] = .user }
        for name in ["event", "eventid", "event_id"] { table[name] = .event }
        for name in ["place", "placeid", "place_id", "park", "parkid", "park_id"] { table[name] = .place }
        for name in ["lat", "latitude", "lattitude"] { table[name] = .latitude }
        for name in ["lon", "lng", "long", "longitude", "longtitude"] { table[name] = .longitude }
        for name in ["time", "timestamp", "checkin_time", "checkintime", "created_at", "createdat", "at"] { table[name] = .time }
        for name in ["accuracy", "accuracym", "accuracy_m", "accuracymeters", "accuracy_meters", "horizontal_accuracy"] { table[name] = .accuracy }
        return table
    }()

    /// The column a name means, if any.
    static func resolve(_ name: String) -> CheckInColumn? {
        aliases[name.trimmingSpaces.lowercased()]
    }

    /// The columns every check-in input needs.
    static let required: [CheckInColumn] = [.id, .user, .latitude, .longitude, .time]
}
