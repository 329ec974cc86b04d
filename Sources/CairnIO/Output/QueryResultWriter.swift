import CairnCore

/// Writes query results in one of the result formats, the same bytes for every front end (the CLI, a server).
///
/// - `geojson`: `{"type":"FeatureCollection","features":[`, then one Feature per line (`FeatureEncoding.geoJSON`),
///   then `]}`; a measured result carries `distance_m` first among its properties.
/// - `json`: an array of flat objects (`FeatureEncoding.json`), one per line.
/// - `csv`: a header of the fixed columns, `distance_m` when any row is measured, `geometry` (WKT) when any row has
///   a shape, then every attribute name of the results, sorted; one row per result.
/// - `ids`: one id per line.
///
/// The document is written as UTF-8 into one growing byte buffer (no `String` per row); `write(_:to:)` hands it to
/// the sink in chunks of about 64 KiB, so that a result of any size streams in bounded memory.
public struct QueryResultWriter: Sendable {
    /// The format written.
    public let format: QueryResultFormat

    /// About this many bytes are gathered before they go to the sink.
    static let chunkBytes = 1 << 16

    /// A writer of `format`.
    /// - Complexity: O(1).
    public init(format: QueryResultFormat) {
        self.format = format
    }

    /// Writes `rows`, in order, to `sink` as one complete document; with `coordinates` (one position per row), the
    /// positions are written in that output system instead of longitude/latitude: GeoJSON `[x, y]` under a `crs`
    /// member, JSON `x` and `y` members, CSV columns `x` and `y`, and shapes with every vertex in that system
    /// (see `OutputCoordinates`).
    /// - Complexity: O(n·a) for n rows of a attributes (CSV first collects the attribute names of all rows).
    public func write(_ rows: [QueryResultRow], coordinates: OutputCoordinates? = nil, to sink: some ByteSink) {
        precondition(coordinates.map { $0.positions.count == rows.count } ?? true, "one output position per row")
        var buffer: [UInt8] = []
        buffer.reserveCapacity(Self.chunkBytes + Self.chunkBytes / 4)
        append(rows, coordinates: coordinates, to: &buffer) { full in
            sink.write(full)
            full.removeAll(keepingCapacity: true)
        }
        sink.write(buffer)
    }

    /// The whole document for `rows`, as `write(_:to:)` writes it: for an answer held in memory (an HTTP body).
    /// - Complexity: O(n·a).
    public func encode(_ rows: [QueryResultRow]) -> [UInt8] {
        encoded(rows)
    }

    /// The whole document for a `DynamicFeatureIndex`'s hits as they are (a server's answer): the same bytes as
    /// `encode(_:)` of rows made from them, without a row and a copy of each feature.
    /// - Complexity: O(n·a).
    public func encode(_ hits: ArraySlice<DynamicHit>) -> [UInt8] {
        encoded(hits)
    }

    /// The document for `rows` in one buffer. Internal and generic: specialised here for each public entry point
    /// (a public generic would run unspecialised from another module, through value witnesses per row).
    private func encoded(_ rows: some Collection<some QueryResult>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64 + rows.count * 256) // a GeoNames place takes about 230 bytes of GeoJSON
        append(rows, coordinates: nil, to: &bytes) { _ in }
        return bytes
    }

    /// Appends the document to `out`, calling `spill` with `out` after a row whenever it holds `chunkBytes` or more.
    private func append(_ rows: some Collection<some QueryResult>, coordinates: OutputCoordinates?, to out: inout [UInt8],
                        spill: (inout [UInt8]) -> Void) {
        let positions = coordinates?.positions
        var order = AttributeOrder() // reused from row to row
        switch format {
        case .ids:
            for row in rows {
                out.append(utf8: row.feature.id)
                out.append(UInt8(ascii: "\n"))
                if out.count >= Self.chunkBytes { spill(&out) }
            }
        case .geojson:
            out.append(literal: "{\"type\":\"FeatureCollection\",")
            coordinates?.appendGeoJSONMember(to: &out)
            out.append(literal: "\"features\":[")
            for (n, row) in rows.enumerated() {
                out.append(literal: n == 0 ? "\n" : ",\n")
                FeatureEncoding.appendGeoJSON(row.feature, distanceMeters: row.distanceMeters, extra: [], position: positions?[n],
                                              projectedShape: coordinates?.shape(ofRow: n), order: &order, to: &out)
                if out.count >= Self.chunkBytes { spill(&out) }
            }
            out.append(literal: "\n]}\n")
        case .json:
            out.append(UInt8(ascii: "["))
            for (n, row) in rows.enumerated() {
                out.append(literal: n == 0 ? "\n" : ",\n")
                FeatureEncoding.appendProperties(row.feature, distanceMeters: row.distanceMeters, extra: [],
                                                 includeLocation: true, position: positions?[n],
                                                 projectedShape: coordinates?.shape(ofRow: n), order: &order, to: &out)
                if out.count >= Self.chunkBytes { spill(&out) }
            }
            out.append(literal: "\n]\n")
        case .csv:
            let measured = rows.contains { $0.distanceMeters != nil }
            let shaped = rows.contains { $0.feature.shape != nil }
            var names = Set<String>()
            for row in rows { names.formUnion(row.feature.attributes.keys) }
            let columns = FeatureEncoding.csvColumns(
                attributeNames: names, extra: (measured ? ["distance_m"] : []) + (shaped ? [FeatureEncoding.geometryColumn] : []))
            for (n, column) in columns.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                // In an output system the location columns are x and y (in place of longitude and latitude).
                out.append(utf8: coordinates == nil ? column : (column == "latitude" ? "y" : (column == "longitude" ? "x" : column)))
            }
            out.append(UInt8(ascii: "\n"))
            // Two loops, so that the usual one (no output system) is compiled with the position known to be nil.
            guard let positions else {
                for row in rows {
                    FeatureEncoding.appendCSVRow(row.feature, columns: columns, distanceMeters: row.distanceMeters, extra: [:],
                                                 position: nil, to: &out)
                    out.append(UInt8(ascii: "\n"))
                    if out.count >= Self.chunkBytes { spill(&out) }
                }
                return
            }
            for (n, row) in rows.enumerated() {
                FeatureEncoding.appendCSVRow(row.feature, columns: columns, distanceMeters: row.distanceMeters, extra: [:],
                                             position: positions[n], projectedShape: coordinates?.shape(ofRow: n), to: &out)
                out.append(UInt8(ascii: "\n"))
                if out.count >= Self.chunkBytes { spill(&out) }
            }
        }
    }
}
