import CairnCore
import CairnIO

struct PlaceColumns: ReferenceColumns {
    let id, latitude, longitude, radius: Int

    init(resolving header: [String]) {
        // Without an `id`: a GeoNames id or a place id names the place.
        id = Self.idPosition(in: header) { $0.lowercased() == "geonameid" || FieldAlias.resolve($0) == .place }
        latitude = Self.position(of: .latitude, in: header)
        longitude = Self.position(of: .longitude, in: header)
        radius = Self.position(of: .radius, in: header)
    }

    var required: [(name: String, position: Int)] { [("id", id), ("latitude", latitude), ("longitude", longitude)] }

    /// The first geometry column (`geometry`, `wkt`, `wkb`, ...), or -1: a file with one is read as features.
    /// - Complexity: O(n) in the header's columns.
    static func geometryPosition(in header: [String]) -> Int { position(of: .geometry, in: header) }
}
