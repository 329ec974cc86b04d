import CairnIO

/// What a check-in field means, resolved from a CSV header or a JSON key (case-insensitive, with aliases).
enum CheckInColumn: Int, CaseIterable {
    case id, user, event, place, latitude, longitude, time, accuracy

    /// The column a name means, if any, by `FieldAlias` (the one alias table): `id` or a check-in id's name,
    /// then the user, event, place, coordinates, time and accuracy.
    static func resolve(_ name: String) -> CheckInColumn? {
        let name = name.trimmingSpaces
        if name.lowercased() == "id" { return .id }
        switch FieldAlias.resolve(name) {
        case .checkInId: return .id
        case .user: return .user
        case .event: return .event
        case .place: return .place
        case .latitude: return .latitude
        case .longitude: return .longitude
        case .time: return .time
        case .accuracy: return .accuracy
        case .kind, .radius, .startTime, .endTime, .geometry, nil: return nil
        }
    }

    /// The columns every check-in input needs.
    static let required: [CheckInColumn] = [.id, .user, .latitude, .longitude, .time]
}
