import CairnCore
import CairnIO

struct EventColumns: ReferenceColumns {
    let id, place, latitude, longitude, radius, start, end: Int

    init(resolving header: [String]) {
        id = Self.idPosition(in: header) { FieldAlias.resolve($0) == .event }
        place = Self.position(of: .place, in: header)
        latitude = Self.position(of: .latitude, in: header)
        longitude = Self.position(of: .longitude, in: header)
        radius = Self.position(of: .radius, in: header)
        start = Self.position(of: .startTime, in: header)
        end = Self.position(of: .endTime, in: header)
    }

    var required: [(name: String, position: Int)] { [("id", id), ("startTime", start), ("endTime", end)] }
}
