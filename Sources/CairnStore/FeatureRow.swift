import CairnCore
import Foundation
import GRDB

/// Maps a `Feature` to the columns of the `feature` table and back.
enum FeatureRow {
    /// Inserts a feature, or updates every column of the row with the same id (keeping its rowid).
    /// The `feature_rtree_after_*` triggers keep the R*Tree in step.
    static let upsertSQL = upsertSQL(withGeometry: true)

    /// `upsertSQL` for a feature without a shape: the geometry column is left out of the insert (so NULL) and set to
    /// NULL by an update. Why a second statement: a point-only import then binds and stores one column less a row.
    static let pointUpsertSQL = upsertSQL(withGeometry: false)

    private static func upsertSQL(withGeometry: Bool) -> String {
        """
        INSERT INTO feature (id, kind, latitude, longitude, radius_m, start_time, end_time, attributes\(withGeometry ? ", geometry" : ""))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?\(withGeometry ? ", ?" : ""))
        ON CONFLICT (id) DO UPDATE SET
            kind = excluded.kind, latitude = excluded.latitude, longitude = excluded.longitude,
            radius_m = excluded.radius_m, start_time = excluded.start_time, end_time = excluded.end_time,
            attributes = excluded.attributes, geometry = \(withGeometry ? "excluded.geometry" : "NULL")
        """
    }

    /// The columns `decode` expects, in order; `prefix` qualifies them (e.g. `f.`).
    static func columns(_ prefix: String = "") -> String {
        ["id", "kind", "latitude", "longitude", "radius_m", "start_time", "end_time", "attributes", "geometry"]
            .map { prefix + $0 }.joined(separator: ", ")
    }

    /// Rebuilds a feature from a row whose columns `first...` were selected with `columns()`, checking it as `Feature.init` does.
    /// - Throws: `StoreError.invalidRow` naming the id and the fault.
    static func decode(_ row: Row, from first: Int = 0, path: String) throws -> Feature {
        let id: String = row[first + 0] ?? ""
        func invalid(_ reason: String) -> StoreError { .invalidRow(path: path, id: id, reason: reason) }
        guard let kindText: String = row[first + 1], let kind = FeatureKind(rawValue: kindText) else {
            throw invalid("unknown kind '\(row[first + 1] as String? ?? "NULL")'")
        }
        guard let latitude: Double = row[first + 2], let longitude: Double = row[first + 3] else { throw invalid("missing location") }
        let location: Coordinate
        do { location = try Coordinate(latitude: latitude, longitude: longitude) } catch { throw invalid(error.description) }
        let start: Double? = row[first + 5]
        let end: Double? = row[first + 6]
        do {
            var window: TimeWindow?
            if let start, let end {
                window = try TimeWindow(
                    start: Timestamp(secondsSince1970: start), end: Timestamp(secondsSince1970: end))
            } else if start != nil || end != nil {
                throw invalid("start_time and end_time must be both set or both NULL")
            }
            let attributes = try AttributeJSON.decode(row[first + 7] ?? "")
            var shape: Shape?
            if let wkb: Data = row[first + 8] { shape = try Shape(wkb: wkb) }
            return try Feature(
                id: id, kind: kind, location: location, radiusMeters: row[first + 4], timeWindow: window, attributes: attributes,
                shape: shape)
        } catch let error as FeatureError {
            throw invalid(error.description)
        } catch let error as AttributeJSONError {
            throw invalid(error.description)
        } catch let error as ShapeError {
            throw invalid("geometry: \(error)")
        }
    }
}
