import CairnCore
import CairnIO
import CairnStore
import Dispatch
import Foundation

struct PlaceColumns: ReferenceColumns {
    let id, latitude, longitude, radius: Int

    init(resolving header: [String]) {
        let r = roles(header)
        id = r.firstIndex(of: .id) ?? position(["geonameid", "place_id", "placeid"], in: header)
        latitude = r.firstIndex(of: .latitude) ?? -1
        longitude = r.firstIndex(of: .longitude) ?? -1
        radius = r.firstIndex(of: .radius) ?? -1
    }

    var required: [(name: String, position: Int)] { [("id", id), ("latitude", latitude), ("longitude", longitude)] }
}
