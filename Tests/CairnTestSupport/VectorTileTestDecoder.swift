/// A strict Mapbox Vector Tile 2.1 decoder for tests: the oracle the encoder's output is read back with.
///
/// Written from the spec and protobuf's wire format, apart from CairnIO's encoder (it shares no code with it), and
/// stricter than a map SDK: it refuses a truncated field, an unknown wire type, a value message that does not hold
/// exactly one field, tags that point past the tables, an odd number of tags, and a point geometry that is not one
/// MoveTo with its pairs; it records the order of each layer's fields so a test can see `version` first.
public struct VectorTileTestDecoder {
    /// A decoded property value, by wire type.
    public enum Value: Equatable, CustomStringConvertible, Sendable {
        case string(String), float(Float), double(Double), int(Int64), uint(UInt64), sint(Int64), bool(Bool)

        public var description: String {
            switch self {
            case .string(let s): "string(\(s))"
            case .float(let f): "float(\(f))"
            case .double(let d): "double(\(d))"
            case .int(let i): "int(\(i))"
            case .uint(let u): "uint(\(u))"
            case .sint(let i): "sint(\(i))"
            case .bool(let b): "bool(\(b))"
            }
        }

        /// The value as a number, for any numeric type.
        public var number: Double? {
            switch self {
            case .float(let f): Double(f)
            case .double(let d): d
            case .int(let i): Double(i)
            case .uint(let u): Double(u)
            case .sint(let i): Double(i)
            default: nil
            }
        }
    }

    /// A decoded feature.
    public struct Feature: Sendable {
        public var id: UInt64?
        public var type: UInt32 = 0
        public var tags: [UInt32] = []
        public var geometry: [UInt32] = []
        /// The geometry's commands, each with its absolute positions: (command id, [(x, y)]).
        public var commands: [(id: UInt32, points: [(x: Int, y: Int)])] = []
        /// The properties, resolved through the layer's tables, in tag order.
        public var properties: [(key: String, value: Value)] = []

        /// The property named `key` (the last, should it repeat).
        public func property(_ key: String) -> Value? { properties.last { $0.key == key }?.value }

        /// The points of a point geometry.
        public var points: [(x: Int, y: Int)] { commands.flatMap(\.points) }
    }

    /// A decoded layer.
    public struct Layer: Sendable {
        public var version: UInt64?
        public var name: String?
        public var extent: UInt64?
        public var keys: [String] = []
        public var values: [Value] = []
        public var features: [Feature] = []
        /// Field numbers in the order they appeared.
        public var fieldOrder: [UInt64] = []
    }

    /// What went wrong, with the byte offset.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The tile's layers in order.
    public let layers: [Layer]

    /// Decodes `bytes` as a `Tile` message.
    public init(_ bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes[...])
        var layers: [Layer] = []
        while !reader.atEnd {
            let (field, wire) = try reader.key()
            guard field == 3, wire == 2 else { throw Failure(description: "tile: unexpected field \(field) wire \(wire)") }
            layers.append(try Self.layer(try reader.lengthDelimited()))
        }
        self.layers = layers
    }

    /// The layer named `name`.
    public func layer(_ name: String) -> Layer? { layers.first { $0.name == name } }

    static func layer(_ bytes: ArraySlice<UInt8>) throws -> Layer {
        var reader = Reader(bytes: bytes)
        var layer = Layer()
        var rawFeatures: [ArraySlice<UInt8>] = []
        while !reader.atEnd {
            let (field, wire) = try reader.key()
            layer.fieldOrder.append(field)
            switch (field, wire) {
            case (15, 0): layer.version = try reader.varint()
            case (1, 2): layer.name = try reader.string()
            case (2, 2): rawFeatures.append(try reader.lengthDelimited())
            case (3, 2): layer.keys.append(try reader.string())
            case (4, 2): layer.values.append(try value(try reader.lengthDelimited()))
            case (5, 0): layer.extent = try reader.varint()
            default: throw Failure(description: "layer: unexpected field \(field) wire \(wire)")
            }
        }
        for raw in rawFeatures { layer.features.append(try feature(raw, keys: layer.keys, values: layer.values)) }
        return layer
    }

    static func value(_ bytes: ArraySlice<UInt8>) throws -> Value {
        var reader = Reader(bytes: bytes)
        var found: [Value] = []
        while !reader.atEnd {
            let (field, wire) = try reader.key()
            switch (field, wire) {
            case (1, 2): found.append(.string(try reader.string()))
            case (2, 5): found.append(.float(Float(bitPattern: UInt32(try reader.fixed(4)))))
            case (3, 1): found.append(.double(Double(bitPattern: try reader.fixed(8))))
            case (4, 0): found.append(.int(Int64(bitPattern: try reader.varint())))
            case (5, 0): found.append(.uint(try reader.varint()))
            case (6, 0):
                let z = try reader.varint()
                found.append(.sint(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1)))
            case (7, 0): found.append(.bool(try reader.varint() != 0))
            default: throw Failure(description: "value: unexpected field \(field) wire \(wire)")
            }
        }
        guard found.count == 1, let only = found.first else { throw Failure(description: "value: \(found.count) fields, expected exactly one") }
        return only
    }

    static func feature(_ bytes: ArraySlice<UInt8>, keys: [String], values: [Value]) throws -> Feature {
        var reader = Reader(bytes: bytes)
        var f = Feature()
        while !reader.atEnd {
            let (field, wire) = try reader.key()
            switch (field, wire) {
            case (1, 0): f.id = try reader.varint()
            case (2, 2): f.tags += try packed(try reader.lengthDelimited())
            case (3, 0): f.type = UInt32(try reader.varint())
            case (4, 2): f.geometry += try packed(try reader.lengthDelimited())
            default: throw Failure(description: "feature: unexpected field \(field) wire \(wire)")
            }
        }
        guard f.tags.count % 2 == 0 else { throw Failure(description: "feature: odd number of tags") }
        for pair in stride(from: 0, to: f.tags.count, by: 2) {
            let k = Int(f.tags[pair]), v = Int(f.tags[pair + 1])
            guard k < keys.count, v < values.count else { throw Failure(description: "feature: tag past the tables") }
            f.properties.append((keys[k], values[v]))
        }
        f.commands = try commands(f.geometry)
        if f.type == 1 {
            guard f.commands.count == 1, f.commands[0].id == 1, !f.commands[0].points.isEmpty else {
                throw Failure(description: "point geometry: expected one MoveTo with a count above zero")
            }
        }
        return f
    }

    /// Command integers to commands with absolute positions (the cursor starts at (0, 0)).
    public static func commands(_ integers: [UInt32]) throws -> [(id: UInt32, points: [(x: Int, y: Int)])] {
        var result: [(id: UInt32, points: [(x: Int, y: Int)])] = []
        var i = 0, x = 0, y = 0
        while i < integers.count {
            let id = integers[i] & 7, count = Int(integers[i] >> 3)
            i += 1
            guard id == 1 || id == 2 || id == 7 else { throw Failure(description: "geometry: unknown command \(id)") }
            let parameters = id == 7 ? 0 : 2 * count
            guard i + parameters <= integers.count else { throw Failure(description: "geometry: parameters cut short") }
            var points: [(x: Int, y: Int)] = []
            for p in stride(from: i, to: i + parameters, by: 2) {
                x += Int(Int32(bitPattern: (integers[p] >> 1) ^ (0 &- (integers[p] & 1))))
                y += Int(Int32(bitPattern: (integers[p + 1] >> 1) ^ (0 &- (integers[p + 1] & 1))))
                points.append((x, y))
            }
            i += parameters
            result.append((id, points))
        }
        return result
    }

    static func packed(_ bytes: ArraySlice<UInt8>) throws -> [UInt32] {
        var reader = Reader(bytes: bytes)
        var out: [UInt32] = []
        while !reader.atEnd {
            let v = try reader.varint()
            guard v <= UInt64(UInt32.max) else { throw Failure(description: "packed: value above 32 bits") }
            out.append(UInt32(v))
        }
        return out
    }

    /// A cursor over protobuf bytes.
    struct Reader {
        var bytes: ArraySlice<UInt8>
        var atEnd: Bool { bytes.isEmpty }

        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while let byte = bytes.popFirst() {
                guard shift < 64 else { throw Failure(description: "varint longer than ten bytes") }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
            throw Failure(description: "varint cut short")
        }

        mutating func key() throws -> (field: UInt64, wire: UInt64) {
            let k = try varint()
            return (k >> 3, k & 7)
        }

        mutating func lengthDelimited() throws -> ArraySlice<UInt8> {
            let n = Int(try varint())
            guard n <= bytes.count else { throw Failure(description: "length \(n) past the end") }
            let slice = bytes.prefix(n)
            bytes = bytes.dropFirst(n)
            return slice
        }

        mutating func string() throws -> String {
            let slice = try lengthDelimited()
            guard let s = String(validating: slice, as: UTF8.self) else { throw Failure(description: "string: not UTF-8") }
            return s
        }

        mutating func fixed(_ n: Int) throws -> UInt64 {
            guard n <= bytes.count else { throw Failure(description: "fixed\(n * 8) cut short") }
            var value: UInt64 = 0
            for (i, b) in bytes.prefix(n).enumerated() { value |= UInt64(b) << UInt64(8 * i) }
            bytes = bytes.dropFirst(n)
            return value
        }
    }
}
