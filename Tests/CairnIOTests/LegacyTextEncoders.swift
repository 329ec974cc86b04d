import CairnCore
@testable import CairnIO

// The String-based encoders as they were before the byte writers (commit a5cca27), kept verbatim (sinks replaced by
// returned text) as the oracle of `EncoderDifferentialTests`: the byte encoders must write exactly these bytes.

enum LegacyTextEscaping {
    private static let hexDigits: StaticString = "0123456789abcdef"
    static let integerLimit = 1e16

    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits.utf8Start[Int(byte >> 4)])
                out.append(hexDigits.utf8Start[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == 0 {
            if value.sign == .minus { out.append(UInt8(ascii: "-")) }
            out.append(UInt8(ascii: "0"))
        } else if value == value.rounded(), abs(value) < integerLimit {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    static func jsonString(_ text: String) -> String {
        var out: [UInt8] = []
        appendJSONString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func jsonNumber(_ value: Double) -> String {
        var out: [UInt8] = []
        appendJSONNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        var quoted = "\""
        for character in text {
            quoted += character == "\"" ? "\"\"" : String(character)
        }
        return quoted + "\""
    }
}

enum LegacyFeatureEncoding {
    static func geoJSON(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        var text = "{\"type\":\"Feature\",\"id\":\(LegacyTextEscaping.jsonString(feature.id)),\"geometry\":{\"type\":\"Point\",\"coordinates\":["
        text += "\(LegacyTextEscaping.jsonNumber(feature.location.longitude)),\(LegacyTextEscaping.jsonNumber(feature.location.latitude))]},\"properties\":"
        text += propertiesJSON(feature, extra: extra, includeLocation: false)
        return text + "}"
    }

    static func json(_ feature: Feature, extra: [(String, Double)] = []) -> String {
        propertiesJSON(feature, extra: extra, includeLocation: true)
    }

    static func properties(_ feature: Feature) -> String {
        propertiesJSON(feature, extra: [], includeLocation: false)
    }

    private static func propertiesJSON(_ feature: Feature, extra: [(String, Double)], includeLocation: Bool) -> String {
        var parts: [String] = []
        if includeLocation {
            parts.append("\"id\":\(LegacyTextEscaping.jsonString(feature.id))")
        }
        parts.append("\"kind\":\"\(feature.kind.rawValue)\"")
        if includeLocation {
            parts.append("\"latitude\":\(LegacyTextEscaping.jsonNumber(feature.location.latitude))")
            parts.append("\"longitude\":\(LegacyTextEscaping.jsonNumber(feature.location.longitude))")
        }
        if let radius = feature.radiusMeters { parts.append("\"radiusMeters\":\(LegacyTextEscaping.jsonNumber(radius))") }
        if let window = feature.timeWindow {
            if feature.kind == .sighting {
                parts.append("\"time\":\"\(window.start.iso8601)\"")
            } else {
                parts.append("\"startTime\":\"\(window.start.iso8601)\"")
                parts.append("\"endTime\":\"\(window.end.iso8601)\"")
            }
        }
        for (name, value) in extra { parts.append("\(LegacyTextEscaping.jsonString(name)):\(LegacyTextEscaping.jsonNumber(value))") }
        for name in feature.attributes.keys.sorted() {
            guard let value = feature.attributes[name] else { continue }
            parts.append("\(LegacyTextEscaping.jsonString(name)):\(jsonValue(value))")
        }
        return "{" + parts.joined(separator: ",") + "}"
    }

    static func jsonValue(_ value: AttributeValue) -> String {
        switch value {
        case .string(let s): LegacyTextEscaping.jsonString(s)
        case .number(let n): LegacyTextEscaping.jsonNumber(n)
        case .bool(let b): b ? "true" : "false"
        case .time(let t): "\"\(t.iso8601)\""
        case .stringSet(let values): "[" + values.map(LegacyTextEscaping.jsonString).joined(separator: ",") + "]"
        }
    }

    static func csvColumns(for features: [Feature], extra: [String] = []) -> [String] {
        var names = Set<String>()
        for feature in features { names.formUnion(feature.attributes.keys) }
        return ["id", "kind", "latitude", "longitude", "radiusMeters", "startTime", "endTime"] + extra + names.sorted()
    }

    static func csvRow(_ feature: Feature, columns: [String], extra: [String: Double] = [:]) -> String {
        columns.map { column -> String in
            switch column {
            case "id": return LegacyTextEscaping.csvField(feature.id)
            case "kind": return feature.kind.rawValue
            case "latitude": return LegacyTextEscaping.jsonNumber(feature.location.latitude)
            case "longitude": return LegacyTextEscaping.jsonNumber(feature.location.longitude)
            case "radiusMeters": return feature.radiusMeters.map(LegacyTextEscaping.jsonNumber) ?? ""
            case "startTime": return feature.timeWindow?.start.iso8601 ?? ""
            case "endTime": return feature.kind == .sighting ? "" : feature.timeWindow?.end.iso8601 ?? ""
            default:
                if let value = extra[column] { return LegacyTextEscaping.jsonNumber(value) }
                return feature.attributes[column].map { LegacyTextEscaping.csvField($0.description) } ?? ""
            }
        }.joined(separator: ",")
    }
}

struct LegacyQueryResultWriter {
    let format: QueryResultFormat

    func write(_ rows: [QueryResultRow]) -> String {
        var sink = ""
        func extra(_ row: QueryResultRow) -> [(String, Double)] { row.distanceMeters.map { [("distance_m", $0)] } ?? [] }
        switch format {
        case .ids:
            for row in rows { sink.append(row.feature.id + "\n") }
        case .geojson:
            sink.append("{\"type\":\"FeatureCollection\",\"features\":[")
            for (n, row) in rows.enumerated() {
                sink.append((n == 0 ? "\n" : ",\n") + LegacyFeatureEncoding.geoJSON(row.feature, extra: extra(row)))
            }
            sink.append("\n]}\n")
        case .json:
            sink.append("[")
            for (n, row) in rows.enumerated() {
                sink.append((n == 0 ? "\n" : ",\n") + LegacyFeatureEncoding.json(row.feature, extra: extra(row)))
            }
            sink.append("\n]\n")
        case .csv:
            let measured = rows.contains { $0.distanceMeters != nil }
            let columns = LegacyFeatureEncoding.csvColumns(for: rows.map(\.feature), extra: measured ? ["distance_m"] : [])
            sink.append(columns.joined(separator: ",") + "\n")
            for row in rows {
                let values = row.distanceMeters.map { ["distance_m": $0] } ?? [:]
                sink.append(LegacyFeatureEncoding.csvRow(row.feature, columns: columns, extra: values) + "\n")
            }
        }
        return sink
    }
}

struct LegacyClusterWriter {
    let index: ClusterIndex
    let features: [Feature]
    let clusterIDOffset: UInt64

    init(index: ClusterIndex, features: [Feature], clusterIDOffset: UInt64 = 0) {
        self.index = index
        self.features = features
        self.clusterIDOffset = clusterIDOffset
    }

    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\"\(Int((Double(count) / 1000).rounded()))k\"" }
        if count >= 1000 {
            let tenths = (Double(count) / 100).rounded() / 10
            return "\"\(tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths))k\""
        }
        return String(count)
    }

    func writeCollection(_ nodes: [ClusterNode]) -> String {
        writeFeatures(opening: Self.collectionOpening, nodes.lazy.map(feature))
    }

    func writeGrid(_ clusters: [GridCluster]) -> String {
        writeFeatures(opening: Self.collectionOpening, clusters.lazy.map { cluster in
            if cluster.pointCount == 1, case .point(let i) = cluster.members.first { return LegacyFeatureEncoding.geoJSON(features[i]) }
            let props = clusterProperties(id: nil, count: cluster.pointCount)
                + ["\"pixel_x\":\(LegacyTextEscaping.jsonNumber((cluster.pixelX * 10).rounded() / 10))",
                   "\"pixel_y\":\(LegacyTextEscaping.jsonNumber((cluster.pixelY * 10).rounded() / 10))"]
                + aggregateProperties(cluster.members)
            return point(cluster.coordinate, properties: props)
        })
    }

    func writeTile(_ tileFeatures: [ClusterTileFeature]) -> String {
        writeFeatures(opening: "{\"features\":[", tileFeatures.lazy.map { f in
            let geometry = "\"type\":1,\"geometry\":[[\(f.tileX),\(f.tileY)]]"
            switch f.node.content {
            case .point(let i):
                return "{\(geometry),\"tags\":\(LegacyFeatureEncoding.properties(features[i])),\"id\":\(LegacyTextEscaping.jsonString(features[i].id))}"
            case .cluster(let id):
                let tags = clusterProperties(id: id, count: f.node.pointCount) + aggregateProperties([f.node.content])
                return "{\(geometry),\"tags\":{\(tags.joined(separator: ","))},\"id\":\(id.rawValue + clusterIDOffset)}"
            }
        })
    }

    static func writeExpansion(_ expansion: ClusterExpansion, of id: ClusterID, clusterIDOffset: UInt64 = 0) -> String {
        let written = id.rawValue + clusterIDOffset
        switch expansion {
        case .zoom(let z): return "{\"cluster_id\":\(written),\"expansion_zoom\":\(z)}\n"
        case .identicalPoints: return "{\"cluster_id\":\(written),\"expansion_zoom\":null,\"identical_points\":true}\n"
        }
    }

    private static let collectionOpening = "{\"type\":\"FeatureCollection\",\"features\":["

    private func writeFeatures(opening: String, _ texts: some Sequence<String>) -> String {
        var sink = opening
        for (n, text) in texts.enumerated() { sink.append((n == 0 ? "\n" : ",\n") + text) }
        sink.append("\n]}\n")
        return sink
    }

    private func clusterProperties(id: ClusterID?, count: Int) -> [String] {
        ["\"cluster\":true"] + (id.map { ["\"cluster_id\":\($0.rawValue + clusterIDOffset)"] } ?? [])
            + ["\"point_count\":\(count)", "\"point_count_abbreviated\":\(Self.abbreviated(count))"]
    }

    private func feature(_ node: ClusterNode) -> String {
        switch node.content {
        case .point(let i):
            return LegacyFeatureEncoding.geoJSON(features[i])
        case .cluster(let id):
            var props = clusterProperties(id: id, count: node.pointCount)
            switch (try? index.expansionZoom(of: id)) ?? .zoom(0) {
            case .zoom(let z): props.append("\"expansion_zoom\":\(z)")
            case .identicalPoints: props += ["\"expansion_zoom\":null", "\"identical_points\":true"]
            }
            props += aggregateProperties([node.content])
            return point(node.coordinate, properties: props, id: id.rawValue + clusterIDOffset)
        }
    }

    private func aggregateProperties(_ nodes: [ClusterNode.Content]) -> [String] {
        let options = index.options
        guard !options.numericAttributes.isEmpty || options.categoryAttribute != nil else { return [] }
        let all = nodes.compactMap { try? index.aggregates(of: $0) }
        var props: [String] = []
        for name in options.numericAttributes {
            let parts = all.compactMap { $0.numeric[name] }
            let count = parts.reduce(0) { $0 + $1.count }
            let sum = parts.reduce(0) { $0 + $1.sum }
            props.append("\(LegacyTextEscaping.jsonString(name + "_sum")):\(LegacyTextEscaping.jsonNumber(sum))")
            if count > 0 {
                let lo = parts.compactMap(\.min).min() ?? 0, hi = parts.compactMap(\.max).max() ?? 0
                props.append("\(LegacyTextEscaping.jsonString(name + "_min")):\(LegacyTextEscaping.jsonNumber(lo))")
                props.append("\(LegacyTextEscaping.jsonString(name + "_max")):\(LegacyTextEscaping.jsonNumber(hi))")
                props.append("\(LegacyTextEscaping.jsonString(name + "_mean")):\(LegacyTextEscaping.jsonNumber(sum / Double(count)))")
            }
        }
        if let category = options.categoryAttribute {
            var counts: [String: Int] = [:]
            for a in all { counts.merge(a.categories, uniquingKeysWith: +) }
            let body = counts.keys.sorted().map { "\(LegacyTextEscaping.jsonString($0)):\(counts[$0] ?? 0)" }.joined(separator: ",")
            props.append("\(LegacyTextEscaping.jsonString(category + "_counts")):{\(body)}")
        }
        return props
    }

    private func point(_ c: Coordinate, properties: [String], id: UInt64? = nil) -> String {
        let idText = id.map { ",\"id\":\($0)" } ?? ""
        return "{\"type\":\"Feature\"\(idText),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(LegacyTextEscaping.jsonNumber(c.longitude)),\(LegacyTextEscaping.jsonNumber(c.latitude))]},\"properties\":{\(properties.joined(separator: ","))}}"
    }
}
