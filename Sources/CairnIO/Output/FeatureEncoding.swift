import CairnCore

/// Text forms of a feature for output: GeoJSON, a flat JSON object, and CSV.
///
/// Every form carries the id, kind, latitude/longitude, radius, times and all attributes, with attributes
/// in name order so the output is deterministic. A feature with a shape (`Feature.shape`) carries it whole: as the
/// GeoJSON geometry, as a `geometry` member (a GeoJSON geometry object) of the flat JSON object, and as a `geometry`
/// column in WKT in CSV; latitude/longitude stay its representative point. Each form is written once, as UTF-8 appended to a byte buffer
/// (the `append…` functions the writers use, no `String` per feature); the `String` forms wrap them.
public enum FeatureEncoding {
    /// A GeoJSON Feature (its shape, or a `[lon, lat]` Point geometry); `extra` properties (such as `distance_m`)
    /// come first.
    /// - Complexity: O(a) in the number of attributes.
    public static func geoJSON(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        var out: [UInt8] = []
        appendGeoJSON(feature, extra: extra, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A flat JSON object: `id`, `kind`, `latitude`, `longitude`, optional `geometry` (a shape as a GeoJSON
    /// geometry object), `radiusMeters`, `startTime`, `endTime`, then `extra`, then attributes.
    /// - Complexity: O(a).
    public static func json(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        var out: [UInt8] = []
        appendJSON(feature, extra: extra, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A GeoJSON Feature in an output coordinate system, the first row of `coordinates`: its shape there, or a
    /// Point at its position, with the system named in a legacy `crs` member of the Feature (see `OutputCoordinates`).
    /// - Complexity: O(a + v) for v vertices.
    public static func geoJSON(_ feature: Feature, coordinates: OutputCoordinates) -> String {
        var out: [UInt8] = [], order = AttributeOrder()
        appendGeoJSON(feature, distanceMeters: nil, extra: [], position: coordinates.positions.first,
                      projectedShape: coordinates.shapes.first ?? nil, order: &order, to: &out)
        // `{"type":"Feature",` opens every Feature: the member goes right after it.
        var member: [UInt8] = []
        coordinates.appendGeoJSONMember(to: &member)
        out.insert(contentsOf: member, at: "{\"type\":\"Feature\",".utf8.count)
        return String(decoding: out, as: UTF8.self)
    }

    /// The flat JSON object of `json(_:extra:)` with `x` and `y`, the first position of `coordinates`, in place of
    /// latitude and longitude, and its `geometry` (a shape) in that system.
    /// - Complexity: O(a + v) for v vertices.
    public static func json(_ feature: Feature, coordinates: OutputCoordinates) -> String {
        var out: [UInt8] = [], order = AttributeOrder()
        appendProperties(feature, distanceMeters: nil, extra: [], includeLocation: true, position: coordinates.positions.first,
                         projectedShape: coordinates.shapes.first ?? nil, order: &order, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The properties object `geoJSON` writes: `kind`, optional `radiusMeters`, times, then attributes.
    /// - Complexity: O(a).
    public static func properties(_ feature: Feature) -> String {
        var out: [UInt8] = [], order = AttributeOrder()
        appendProperties(feature, distanceMeters: nil, extra: [], includeLocation: false, order: &order, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends what `geoJSON(_:extra:)` returns, as UTF-8.
    /// - Complexity: O(a).
    public static func appendGeoJSON(_ feature: Feature, extra: [(String, Double)] = [], to out: inout [UInt8]) {
        var order = AttributeOrder()
        appendGeoJSON(feature, distanceMeters: nil, extra: extra, order: &order, to: &out)
    }

    /// Appends what `json(_:extra:)` returns, as UTF-8.
    /// - Complexity: O(a).
    public static func appendJSON(_ feature: Feature, extra: [(String, Double)] = [], to out: inout [UInt8]) {
        var order = AttributeOrder()
        appendProperties(feature, distanceMeters: nil, extra: extra, includeLocation: true, order: &order, to: &out)
    }

    /// The GeoJSON Feature with `distance_m` (when given) as the first extra property: what the result writers
    /// write per row, without an array of extras per row; `order` is the document's, reused from row to row.
    /// `position`, when given, is written in place of the location: x and y in an output coordinate system; with it,
    /// `projectedShape` is the feature's shape in that system (`OutputCoordinates.shapes`), written as the geometry.
    static func appendGeoJSON(_ feature: Feature, distanceMeters: Double?, extra: [(String, Double)],
                              position: OutputPosition? = nil, projectedShape: ShapeParts? = nil,
                              order: inout AttributeOrder, to out: inout [UInt8]) {
        out.append(literal: "{\"type\":\"Feature\",\"id\":")
        TextEscaping.appendJSONString(feature.id, to: &out)
        if let parts = position == nil ? feature.shape?.parts : projectedShape {
            out.append(literal: ",\"geometry\":")
            ShapeOutput.appendGeoJSON(parts, to: &out)
            out.append(literal: ",\"properties\":")
        } else {
            out.append(literal: ",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            TextEscaping.appendJSONNumber(position?.x ?? feature.location.longitude, to: &out)
            out.append(UInt8(ascii: ","))
            TextEscaping.appendJSONNumber(position?.y ?? feature.location.latitude, to: &out)
            out.append(literal: "]},\"properties\":")
        }
        appendProperties(feature, distanceMeters: distanceMeters, extra: extra, includeLocation: false, order: &order, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The properties object (or with `includeLocation`, the flat object): `distance_m` and then `extra` sit after
    /// the times and before the attributes, which come in name order (`order`, reused from row to row).
    /// With `position`, the flat object's location is `x` and `y` in an output coordinate system, and its `geometry`
    /// is `projectedShape`, the shape in that system.
    static func appendProperties(_ feature: Feature, distanceMeters: Double?, extra: [(String, Double)],
                                 includeLocation: Bool, position: OutputPosition? = nil, projectedShape: ShapeParts? = nil,
                                 order: inout AttributeOrder, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        if includeLocation {
            out.append(literal: "\"id\":")
            TextEscaping.appendJSONString(feature.id, to: &out)
            out.append(UInt8(ascii: ","))
        }
        out.append(literal: "\"kind\":\"")
        out.append(utf8: feature.kind.rawValue)
        out.append(UInt8(ascii: "\""))
        if includeLocation, let position {
            out.append(literal: ",\"x\":")
            TextEscaping.appendJSONNumber(position.x, to: &out)
            out.append(literal: ",\"y\":")
            TextEscaping.appendJSONNumber(position.y, to: &out)
            if let projectedShape {
                out.append(literal: ",\"geometry\":")
                ShapeOutput.appendGeoJSON(projectedShape, to: &out)
            }
        } else if includeLocation {
            out.append(literal: ",\"latitude\":")
            TextEscaping.appendJSONNumber(feature.location.latitude, to: &out)
            out.append(literal: ",\"longitude\":")
            TextEscaping.appendJSONNumber(feature.location.longitude, to: &out)
            if let shape = feature.shape {
                out.append(literal: ",\"geometry\":")
                ShapeOutput.appendGeoJSON(shape, to: &out)
            }
        }
        if let radius = feature.radiusMeters {
            out.append(literal: ",\"radiusMeters\":")
            TextEscaping.appendJSONNumber(radius, to: &out)
        }
        if let window = feature.timeWindow {
            if feature.kind == .sighting {
                out.append(literal: ",\"time\":")
                appendTime(window.start, to: &out)
            } else {
                out.append(literal: ",\"startTime\":")
                appendTime(window.start, to: &out)
                out.append(literal: ",\"endTime\":")
                appendTime(window.end, to: &out)
            }
        }
        if let distanceMeters {
            out.append(literal: ",\"distance_m\":")
            TextEscaping.appendJSONNumber(distanceMeters, to: &out)
        }
        for (name, value) in extra {
            out.append(UInt8(ascii: ","))
            TextEscaping.appendJSONString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            TextEscaping.appendJSONNumber(value, to: &out)
        }
        order.appendJSONMembers(of: feature.attributes, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// An instant as a JSON string (ISO 8601).
    private static func appendTime(_ time: Timestamp, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        out.append(utf8: time.iso8601)
        out.append(UInt8(ascii: "\""))
    }

    /// An attribute value as JSON: strings, numbers and bools natively, times as ISO 8601 strings, sets as arrays.
    /// - Complexity: O(n) in the value's size.
    public static func jsonValue(_ value: AttributeValue) -> String {
        var out: [UInt8] = []
        appendJSONValue(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends what `jsonValue(_:)` returns, as UTF-8.
    /// - Complexity: O(n) in the value's size.
    public static func appendJSONValue(_ value: AttributeValue, to out: inout [UInt8]) {
        switch value {
        case .string(let s): TextEscaping.appendJSONString(s, to: &out)
        case .number(let n): TextEscaping.appendJSONNumber(n, to: &out)
        case .bool(let b): out.append(literal: b ? "true" : "false")
        case .time(let t): appendTime(t, to: &out)
        case .stringSet(let values):
            out.append(UInt8(ascii: "["))
            for (n, s) in values.enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                TextEscaping.appendJSONString(s, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
    }

    /// The CSV header for `features`: the fixed columns, then `extra`, then `geometry` when a feature has a shape,
    /// then every attribute name found, sorted.
    /// - Complexity: O(n·a).
    public static func csvColumns(for features: [Feature], extra: [String] = []) -> [String] {
        var names = Set<String>()
        for feature in features { names.formUnion(feature.attributes.keys) }
        let shaped = features.contains { $0.shape != nil }
        return csvColumns(attributeNames: names, extra: extra + (shaped ? [geometryColumn] : []))
    }

    /// The CSV column that holds a shape, in WKT.
    static let geometryColumn = "geometry"

    /// The CSV header for attributes named `names`: the fixed columns, then `extra`, then `names`, sorted.
    static func csvColumns(attributeNames names: Set<String>, extra: [String]) -> [String] {
        fixedColumns + extra + names.sorted()
    }

    /// One CSV row of `feature` under `columns` (from `csvColumns(for:extra:)`); `extra` values by column name.
    /// - Complexity: O(c) in the number of columns.
    public static func csvRow(_ feature: Feature, columns: [String], extra: [String: Double] = [:]) -> String {
        var out: [UInt8] = []
        appendCSVRow(feature, columns: columns, extra: extra, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends what `csvRow(_:columns:extra:)` returns, as UTF-8 (no line end).
    /// - Complexity: O(c).
    public static func appendCSVRow(_ feature: Feature, columns: [String], extra: [String: Double] = [:], to out: inout [UInt8]) {
        appendCSVRow(feature, columns: columns, distanceMeters: nil, extra: extra, to: &out)
    }

    /// The CSV row with `distance_m` (when given) as an extra column: what the result writers write per row,
    /// without a dictionary of extras per row.
    /// With `position`, the `latitude` and `longitude` columns (headed `y` and `x` by `QueryResultWriter`) hold y and x in an
    /// output coordinate system, and the `geometry` column `projectedShape`, the shape in that system.
    static func appendCSVRow(_ feature: Feature, columns: [String], distanceMeters: Double?, extra: [String: Double],
                             position: OutputPosition? = nil, projectedShape: ShapeParts? = nil, to out: inout [UInt8]) {
        for (n, column) in columns.enumerated() {
            if n > 0 { out.append(UInt8(ascii: ",")) }
            if n < fixedColumnCount, fixedColumns[n] == column {
                // the usual header: the fixed columns come first, in order
                if n == 2 || n == 3, let position {
                    TextEscaping.appendJSONNumber(n == 2 ? position.y : position.x, to: &out)
                } else {
                    appendFixedColumn(n, of: feature, to: &out)
                }
                continue
            }
            if let index = fixedColumns.firstIndex(of: column) {
                if index == 2 || index == 3, let position {
                    TextEscaping.appendJSONNumber(index == 2 ? position.y : position.x, to: &out)
                } else {
                    appendFixedColumn(index, of: feature, to: &out)
                }
            } else if let distanceMeters, column == "distance_m" {
                TextEscaping.appendJSONNumber(distanceMeters, to: &out)
            } else if let value = extra[column] {
                TextEscaping.appendJSONNumber(value, to: &out)
            } else if column == geometryColumn, feature.attributes[column] == nil {
                if let parts = position == nil ? feature.shape?.parts : projectedShape {
                    TextEscaping.appendCSVField(ShapeOutput.wkt(parts), to: &out)
                }
            } else if let value = feature.attributes[column] {
                TextEscaping.appendCSVField(value.description, to: &out)
            }
        }
    }

    private static let fixedColumns = ["id", "kind", "latitude", "longitude", "radiusMeters", "startTime", "endTime"]
    private static let fixedColumnCount = 7

    /// The value of fixed column `index` (of `fixedColumns`).
    private static func appendFixedColumn(_ index: Int, of feature: Feature, to out: inout [UInt8]) {
        switch index {
        case 0: TextEscaping.appendCSVField(feature.id, to: &out)
        case 1: out.append(utf8: feature.kind.rawValue)
        case 2: TextEscaping.appendJSONNumber(feature.location.latitude, to: &out)
        case 3: TextEscaping.appendJSONNumber(feature.location.longitude, to: &out)
        case 4: if let radius = feature.radiusMeters { TextEscaping.appendJSONNumber(radius, to: &out) }
        case 5: if let window = feature.timeWindow { out.append(utf8: window.start.iso8601) }
        default: if feature.kind != .sighting, let window = feature.timeWindow { out.append(utf8: window.end.iso8601) }
        }
    }
}
