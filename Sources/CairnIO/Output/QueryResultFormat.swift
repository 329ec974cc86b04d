/// How query results are written.
public enum QueryResultFormat: String, CaseIterable, Sendable {
    /// A GeoJSON FeatureCollection, one feature per line.
    case geojson
    /// A JSON array of flat objects, one per line.
    case json
    /// CSV with a header row.
    case csv
    /// One id per line, in result order.
    case ids
}
