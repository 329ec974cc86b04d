import CairnCore

/// Writes query results in one of the result formats, the same bytes for every front end (the CLI, a server).
///
/// - `geojson`: `{"type":"FeatureCollection","features":[`, then one Feature per line (`FeatureEncoding.geoJSON`),
///   then `]}`; a measured result carries `distance_m` first among its properties.
/// - `json`: an array of flat objects (`FeatureEncoding.json`), one per line.
/// - `csv`: a header of the fixed columns, `distance_m` when any row is measured, then every attribute name of the
///   results, sorted; one row per result.
/// - `ids`: one id per line.
public struct QueryResultWriter: Sendable {
    /// The format written.
    public let format: QueryResultFormat

    /// A writer of `format`.
    /// - Complexity: O(1).
    public init(format: QueryResultFormat) {
        self.format = format
    }

    /// Writes `rows`, in order, to `sink` as one complete document.
    /// - Complexity: O(n·a) for n rows of a attributes (CSV first collects the attribute names of all rows).
    public func write(_ rows: [QueryResultRow], to sink: some ByteSink) {
        func extra(_ row: QueryResultRow) -> [(String, Double)] { row.distanceMeters.map { [("distance_m", $0)] } ?? [] }
        switch format {
        case .ids:
            for row in rows { sink.write(row.feature.id + "\n") }
        case .geojson:
            sink.write("{\"type\":\"FeatureCollection\",\"features\":[")
            for (n, row) in rows.enumerated() {
                sink.write((n == 0 ? "\n" : ",\n") + FeatureEncoding.geoJSON(row.feature, extra: extra(row)))
            }
            sink.write("\n]}\n")
        case .json:
            sink.write("[")
            for (n, row) in rows.enumerated() {
                sink.write((n == 0 ? "\n" : ",\n") + FeatureEncoding.json(row.feature, extra: extra(row)))
            }
            sink.write("\n]\n")
        case .csv:
            let measured = rows.contains { $0.distanceMeters != nil }
            let columns = FeatureEncoding.csvColumns(for: rows.map(\.feature), extra: measured ? ["distance_m"] : [])
            sink.write(columns.joined(separator: ",") + "\n")
            for row in rows {
                let values = row.distanceMeters.map { ["distance_m": $0] } ?? [:]
                sink.write(FeatureEncoding.csvRow(row.feature, columns: columns, extra: values) + "\n")
            }
        }
    }
}
