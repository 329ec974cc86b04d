import CairnCore
import CairnIO

/// The layout of a places CSV file read the fast way as areas (`CheckInReferenceData`): an `id` column, one
/// geometry column (`geometry`, `wkt`, ...) and otherwise only attribute columns, each named once.
///
/// Such a file means to the feature reader (`CSVFeatureReader`, kind place) exactly this: the id, the area, its
/// representative point as the location, no radius; the attributes are typed and dropped, and no attribute value
/// can reject a row. Any other header (latitude, longitude, radius, kind or time columns, an empty or repeated
/// name, no `id`) is left to the feature reader.
struct AreaPlaceColumns: Sendable {
    /// The columns of the id and of the geometry.
    let id, geometry: Int
    /// The number of columns.
    let count: Int

    /// The layout of `header` (names as the check-in scanner trims them), or nil when it is not of that form.
    /// - Complexity: O(n) in the header's columns.
    init?(_ header: [String]) {
        // The scanner keeps at most 256 fields a record: with fewer columns, a longer record never looks whole.
        guard header.count < 256 else { return nil }
        var id = -1, geometry = -1
        var roles = Set<FieldRole>()
        for (column, name) in header.enumerated() {
            guard !name.isEmpty else { return nil }
            let role = FieldRole.resolve(name, idColumn: nil)
            guard roles.insert(role).inserted else { return nil }
            switch role {
            case .id: id = column
            case .geometry: geometry = column
            case .attribute: continue
            default: return nil
            }
        }
        guard id >= 0, geometry >= 0 else { return nil }
        self.id = id
        self.geometry = geometry
        count = header.count
    }
}
