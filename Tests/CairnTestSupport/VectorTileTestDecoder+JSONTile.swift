import Foundation

/// A JSON value as the test reads it, numbers kept as integers when their text is whole.
public indirect enum TestJSONValue: Decodable, Equatable, Sendable {
    case null, bool(Bool), int(Int64), uint(UInt64), double(Double), string(String), array([TestJSONValue])
    case object([String: TestJSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let u = try? c.decode(UInt64.self) { self = .uint(u) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([TestJSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: TestJSONValue].self)) }
    }

    /// Parses JSON text.
    public static func parse(_ bytes: some Sequence<UInt8>) throws -> TestJSONValue {
        try JSONDecoder().decode(TestJSONValue.self, from: Data(bytes))
    }

    /// A member of an object.
    public subscript(key: String) -> TestJSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }
}

extension VectorTileTestDecoder {
    /// How this tile differs from the JSON tile `cairn cluster --tile` writes for the same tile (supercluster's
    /// getTile shape): an empty list when every JSON feature is in the `clusters` or `points` layer, in order, at the
    /// same position (the JSON's, in units of `jsonExtent`, scaled to the layer's extent: within half a JSON unit
    /// plus half a tile unit, since each rounds the exact position once), with the same id and the same properties
    /// of the matching types (a whole JSON number as uint or sint, any other as double; an object or array as its
    /// JSON text), and nothing else but each cluster's `expansion_zoom` (or `identical_points`) and a point's `id`
    /// property when its id is not a plain decimal.
    public func mismatches(againstJSONTile json: [UInt8], jsonExtent: Int = 512) throws -> [String] {
        guard case .array(let jsonFeatures)? = try TestJSONValue.parse(json)["features"] else { return ["no features array"] }
        var problems: [String] = []
        var next = ["clusters": 0, "points": 0]
        let clusters = layer("clusters")?.features ?? [], points = layer("points")?.features ?? []
        for (n, j) in jsonFeatures.enumerated() {
            guard case .object(var tags)? = j["tags"], case .array(let geometry)? = j["geometry"],
                  case .array(let xy)? = geometry.first, xy.count == 2, case .int(let x) = xy[0], case .int(let y) = xy[1] else {
                problems.append("JSON feature \(n): not in the tile shape"); continue
            }
            let isCluster = tags["cluster"] == .bool(true)
            let name = isCluster ? "clusters" : "points"
            let features = isCluster ? clusters : points
            let k = next[name, default: 0]
            next[name] = k + 1
            guard k < features.count else { problems.append("JSON feature \(n): \(name) has only \(features.count)"); continue }
            let f = features[k]
            let here = "\(name)[\(k)] (JSON feature \(n))"
            if f.type != 1 { problems.append("\(here): type \(f.type)") }
            let scale = Double(layer(name)?.extent ?? 0) / Double(jsonExtent)
            func near(_ got: Int?, _ json: Int64) -> Bool {
                guard let got else { return false }
                return abs(Double(got) - Double(json) * scale) <= scale / 2 + 0.5
            }
            if f.points.count != 1 || !near(f.points.first?.x, x) || !near(f.points.first?.y, y) {
                problems.append("\(here): at \(f.points.map { [$0.x, $0.y] }), JSON at [\(x), \(y)]")
            }
            var extra = Dictionary(f.properties.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
            if f.properties.count != extra.count { problems.append("\(here): a property name repeats") }
            if isCluster {
                guard case .int(let id)? = j["id"], f.id == UInt64(exactly: id) else {
                    problems.append("\(here): id \(String(describing: f.id)), JSON \(String(describing: j["id"])))"); continue
                }
                let expansion = extra.removeValue(forKey: "expansion_zoom"), identical = extra.removeValue(forKey: "identical_points")
                if (expansion == nil) == (identical == nil) || (identical != nil && identical != .bool(true)) {
                    problems.append("\(here): expansion_zoom \(String(describing: expansion)), identical_points \(String(describing: identical))")
                }
            } else {
                guard case .string(let id)? = j["id"] else { problems.append("\(here): JSON id not a string"); continue }
                let numeric = id.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } && !(id.hasPrefix("0") && id.count > 1) ? UInt64(id) : nil
                if let numeric {
                    if f.id != numeric { problems.append("\(here): id \(String(describing: f.id)), expected \(numeric)") }
                } else if f.id != nil || extra.removeValue(forKey: "id") != .string(id) {
                    problems.append("\(here): id '\(id)' should be an id property and no feature id")
                }
            }
            for (key, value) in tags.sorted(by: { $0.key < $1.key }) {
                tags[key] = nil
                guard let got = extra.removeValue(forKey: key) else { problems.append("\(here): lacks \(key)"); continue }
                if !Self.matches(got, value) { problems.append("\(here): \(key) is \(got), JSON \(value)") }
            }
            for key in extra.keys.sorted() { problems.append("\(here): \(key) is not in the JSON tile") }
        }
        for (name, features) in [("clusters", clusters), ("points", points)] where features.count != next[name, default: 0] {
            problems.append("\(name) has \(features.count) features, the JSON tile \(next[name, default: 0])")
        }
        return problems
    }

    /// Whether a tile value stands for a JSON value by the encoder's rules.
    static func matches(_ value: Value, _ json: TestJSONValue) -> Bool {
        switch (value, json) {
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.uint(let a), .int(let b)): return b >= 0 && a == UInt64(b)
        case (.uint(let a), .uint(let b)): return a == b
        case (.sint(let a), .int(let b)): return b < 0 && a == b
        case (.double(let a), .double(let b)): return a == b && a.rounded() != a || a.magnitude >= 0x1p63
        case (.string(let text), .object), (.string(let text), .array): return (try? TestJSONValue.parse(text.utf8)) == json
        default: return false
        }
    }
}
