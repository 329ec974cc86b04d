import CairnCore

/// Text forms of a feature for output: GeoJSON, a flat JSON object, and CSV.
///
/// Every form carries the id, kind, latitude/longitude, radius, times and all attributes, with attributes
/// in name order so the output is deterministic.
public enum FeatureEncoding {
    /// A GeoJSON Feature (`[lon, lat]` Point geometry); `extra` properties (such as `distance_m`) come first.
    /// - Complexity: O(a) in the number of attributes.
    public static func geoJSON(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        var text = "{\"type\":\"Feature\",\"id\":\(TextEscaping.jsonString(feature.id)),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
        text += "\(TextEscaping.jsonNumber(feature.location.longitude)),\(TextEscaping.jsonNumber(feature.location.latitude))]},\"properties\":"
        text += propertiesJSON(feature, extra: extra, includeLocation: false)
        return text + "}"
    }

    /// A flat JSON object: `id`, `kind`, `latitude`, `longitude`, optional `radiusMeters`, `startTime`, `endTime`,
    /// then `extra`, then attributes.
    /// - Complexity: O(a).
    public static func json(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        propertiesJSON(feature, extra: extra, includeLocation: true)
    }

    /// The properties object `geoJSON` writes: `kind`, optional `radiusMeters`, times, then attributes.
    /// - Complexity: O(a).
    public static func properties(_ feature: Feature) -> String {
        propertiesJSON(feature, extra: [], includeLocation: false)
    }

    private static func propertiesJSON(_ feature: Feature, extra: [(String, Double)], includeLocation: Bool) -> String {
        var parts: [String] = []
        if includeLocation {
            parts.append("\"id\":\(TextEscaping.jsonString(feature.id))")
        }
        parts.append("\"kind\":\"\(feature.kind.rawValue)\"")
        if includeLocation {
            parts.append("\"latitude\":\(TextEscaping.jsonNumber(feature.location.latitude))")
            parts.append("\"longitude\":\(TextEscaping.jsonNumber(feature.location.longitude))")
        }
        if let radius = feature.radiusMeters { parts.append("\"radiusMeters\":\(TextEscaping.jsonNumber(radius))") }
        if let window = feature.timeWindow {
            if feature.kind == .sighting {
                parts.append("\"time\":\"\(window.start.iso8601)\"")
            } else {
                parts.append("\"startTime\":\"\(window.start.iso8601)\"")
                parts.append("\"endTime\":\"\(window.end.iso8601)\"")
            }
        }
        for (name, value) in extra { parts.append("\(TextEscaping.jsonString(name)):\(TextEscaping.jsonNumber(value))") }
        for name in feature.attributes.keys.sorted() {
            guard let value = feature.attributes[name] else { continue }
            parts.append("\(TextEscaping.jsonString(name)):\(jsonValue(value))")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    /// An attribute value as JSON: strings, numbers and bools natively, times as ISO 8601 strings, sets as arrays.
    /// - Complexity: O(n) in the value's size.
    public static func jsonValue(_ value: AttributeValue) -> String {
        switch value {
        case .string(let s): TextEscaping.jsonString(s)
        case .number(let n): TextEscaping.jsonNumber(n)
        case .bool(let b): b ? "true" : "false"
        case .time(let t): "\"\(t.iso8601)\""
        case .stringSet(let values): "[" + values.map(TextEscaping.jsonString).joined(separator: ",") + "]"
        }
    }

    /// The CSV header for `features`: the fixed columns, then `extra`, then every attribute name found, sorted.
    /// - Complexity: O(n·a).
    public static func csvColumns(for features: [Feature], extra: [String] = []) -> [String] {
        var names = Set<String>()
        for feature in features { names.formUnion(feature.attributes.keys) }
        return ["id", "kind", "latitude", "longitude", "radiusMeters", "startTime", "endTime"] + extra + names.sorted()
    }

    /// One CSV row of `feature` under `columns` (from `csvColumns(for:extra:)`); `extra` values by column name.
    /// - Complexity: O(c) in the number of columns.
    public static func csvRow(_ feature: Feature, columns: [String], extra: [String: Double] = [:]) -> String {
        columns.map { column -> String in
            switch column {
            case "id": return TextEscaping.csvField(feature.id)
            case "kind": return feature.kind.rawValue
            case "latitude": return TextEscaping.jsonNumber(feature.location.latitude)
            case "longitude": return TextEscaping.jsonNumber(feature.location.longitude)
            case "radiusMeters": return feature.radiusMeters.map(TextEscaping.jsonNumber) ?? ""
            case "startTime": return feature.timeWindow?.start.iso8601 ?? ""
            case "endTime": return feature.kind == .sighting ? "" : feature.timeWindow?.end.iso8601 ?? ""
            default:
                if let value = extra[column] { return TextEscaping.jsonNumber(value) }
                return feature.attributes[column].map { TextEscaping.csvField($0.description) } ?? ""
            }
        }.joined(separator: ",")
    }
}
