import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

struct EventColumns: ReferenceColumns {
    let id, place, latitude, longitude, radius, start, end: Int

    init(resolving header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["event_id", "eventid"], in: header)
        place = position(["placeid", "place_id", "place"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
        start = r.firstIndex(of: .startTime) ?? -1
        end = r.firstIndex(of: .endTime) ?? -1
    }

    var required: [(name: String, position: Int)] { [("id", id), ("startTime", start), ("endTime", end)] }
}
