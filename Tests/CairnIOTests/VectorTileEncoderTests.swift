import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// The MVT 2.1 encoder read back with the test decoder (`VectorTileTestDecoder`, written apart from it), the spec's
/// own example encodings, and one whole tile checked byte for byte.
@Suite struct VectorTileEncoderTests {
    typealias Decoded = VectorTileTestDecoder

    /// The geometry examples of the spec (section 4.3.5): a point and a multipoint.
    @Test func specExampleGeometries() throws {
        #expect(try VectorTileGeometry.point(VectorTilePoint(x: 25, y: 17)).commands == [9, 50, 34])
        let multi = try VectorTileGeometry.multiPoint([VectorTilePoint(x: 5, y: 7), VectorTilePoint(x: 3, y: 2)])
        #expect(multi.commands == [17, 10, 14, 3, 9])
        #expect(multi.type == .point)
        // The spec's table of command integers.
        #expect(VectorTileCommand.moveTo.integer(count: 1) == 9)
        #expect(VectorTileCommand.moveTo.integer(count: 120) == 961)
        #expect(VectorTileCommand.lineTo.integer(count: 3) == 26)
        #expect(VectorTileCommand.closePath.integer(count: 1) == 15)
    }

    /// One layer `a`, one feature (id 1, a point at the origin, no properties), extent 4096, computed by hand from
    /// vector_tile.proto: layer field 3; version 2 first (0x78 = field 15, varint); name; the feature (id, type
    /// POINT, geometry [9, 0, 0]); extent 4096 (0x80 0x20).
    @Test func oneFeatureByteForByte() throws {
        var layer = try VectorTileLayer(name: "a")
        layer.append(VectorTileFeature(id: 1, geometry: try .point(VectorTilePoint(x: 0, y: 0))))
        var tile = VectorTileEncoder()
        try tile.append(layer)
        let feature: [UInt8] = [0x08, 0x01, 0x18, 0x01, 0x22, 0x03, 0x09, 0x00, 0x00]
        let body: [UInt8] = [0x78, 0x02, 0x0A, 0x01, UInt8(ascii: "a"), 0x12, UInt8(feature.count)] + feature + [0x28, 0x80, 0x20]
        #expect(tile.encoded() == [0x1A, UInt8(body.count)] + body)
    }

    /// Every value type, the number rule, and the edges of each: read back with its wire type.
    @Test func valuesOfEveryTypeReadBackWithTheirTypes() throws {
        let given: [(String, VectorTileValue, Decoded.Value)] = [
            ("text", .string("Kaivopuisto ☀︎"), .string("Kaivopuisto ☀︎")),
            ("empty", .string(""), .string("")),
            ("float", .float(1.5), .float(1.5)),
            ("double", .double(-0.1), .double(-0.1)),
            ("int", .int(-1), .int(-1)),
            ("intMin", .int(.min), .int(.min)),
            ("uint", .uint(.max), .uint(.max)),
            ("sint", .sint(.min), .sint(.min)),
            ("true", .bool(true), .bool(true)),
            ("false", .bool(false), .bool(false)),
            ("whole", .number(10), .uint(10)),
            ("zero", .number(0), .uint(0)),
            ("negative", .number(-3), .sint(-3)),
            ("fraction", .number(12.5), .double(12.5)),
            ("negativeZero", .number(-0.0), .double(-0.0)),
            ("twoTo53", .number(0x1p53), .uint(1 << 53)),
            ("twoTo63", .number(0x1p63), .double(0x1p63)), // past Int64.max: stays a double
            ("minInt64", .number(-0x1p63), .sint(.min)),
            ("huge", .number(1e300), .double(1e300)),
            ("infinity", .number(-.infinity), .double(-.infinity)),
        ]
        var layer = try VectorTileLayer(name: "values")
        layer.append(VectorTileFeature(id: nil, geometry: try .point(VectorTilePoint(x: 1, y: 2)),
                                       properties: given.map { ($0.0, $0.1) }))
        var tile = VectorTileEncoder()
        try tile.append(layer)
        let decoded = try Decoded(tile.encoded())
        let feature = try #require(decoded.layers.first?.features.first)
        #expect(feature.id == nil)
        #expect(feature.properties.count == given.count)
        for ((key, _, expected), got) in zip(given, feature.properties) {
            #expect(got.key == key)
            #expect(got.value == expected, "\(key): \(got.value)")
        }
        // -0.0 kept its sign (== alone would not tell).
        if case .double(let d) = feature.property("negativeZero") { #expect(d.sign == .minus) } else { Issue.record("negativeZero") }
        // NaN: one value, read back as NaN.
        #expect(VectorTileValue.number(.nan) == .double(.nan))
        #expect(VectorTileValue.number(0.0) != .double(-0.0))
    }

    /// Seeded random features: ids, positions (negative ones in the buffer, far ones), multipoints and properties
    /// read back exactly, and the layer's tables hold each distinct key and value once.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func seededRoundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let words = ["park", "place", "event", "a", "b", "☃", ""]
        var layer = try VectorTileLayer(name: "random", extent: 512)
        var expected: [VectorTileFeature] = []
        for n in 0..<300 {
            let count = Int.random(in: 1...4, using: &random)
            let points = (0..<count).map { _ in
                VectorTilePoint(x: Int.random(in: -64...576, using: &random), y: Int.random(in: -64...576, using: &random))
            }
            var properties: [(key: String, value: VectorTileValue)] = []
            for k in 0..<Int.random(in: 0...5, using: &random) {
                let value: VectorTileValue = switch Int.random(in: 0...4, using: &random) {
                case 0: .string(words.randomElement(using: &random) ?? "")
                case 1: .number(Double(Int.random(in: -5...5, using: &random)))
                case 2: .number(Double(Int.random(in: -50...50, using: &random)) / 4)
                case 3: .bool(Bool.random(using: &random))
                default: .float(Float(Int.random(in: 0...3, using: &random)) / 2)
                }
                properties.append(("k\(k)", value))
            }
            let id: UInt64? = n % 7 == 0 ? nil : UInt64.random(in: 0...UInt64.max, using: &random)
            let feature = VectorTileFeature(id: id, geometry: try .multiPoint(points), properties: properties)
            expected.append(feature)
            layer.append(feature)
        }
        var tile = VectorTileEncoder()
        try tile.append(layer)
        let decoded = try #require(try Decoded(tile.encoded()).layers.first)
        #expect(decoded.version == 2 && decoded.name == "random" && decoded.extent == 512)
        #expect(decoded.fieldOrder.first == 15, "version is the layer's first field")
        #expect(decoded.features.count == expected.count)
        #expect(Set(decoded.keys).count == decoded.keys.count && decoded.keys.count == layer.keyCount)
        #expect(decoded.values.count == layer.valueCount)
        for (i, a) in decoded.values.enumerated() {
            for b in decoded.values[(i + 1)...] { #expect(!Self.sameBytes(a, b), "\(a) is stored twice") }
        }
        for (got, want) in zip(decoded.features, expected) {
            #expect(got.id == want.id)
            #expect(got.type == 1)
            let points = try Self.points(of: want)
            #expect(got.points.map { [$0.x, $0.y] } == points.map { [$0.x, $0.y] })
            #expect(got.properties.count == want.properties.count)
            for (g, w) in zip(got.properties, want.properties) {
                #expect(g.key == w.key)
                #expect(Self.sameBytes(g.value, Self.expectedValue(w.value)), "\(g.value) for \(w.value)")
            }
        }
    }

    /// Ten thousand features with three keys and five values between them: the tables hold three and five.
    @Test func manyDuplicateValuesAreStoredOnce() throws {
        var layer = try VectorTileLayer(name: "dupes")
        for n in 0..<10_000 {
            layer.append(VectorTileFeature(id: UInt64(n), geometry: try .point(VectorTilePoint(x: n % 4096, y: 0)), properties: [
                ("kind", .string(n % 2 == 0 ? "park" : "place")), ("fenced", .bool(n % 3 == 0)), ("rating", .number(4.5)),
            ]))
        }
        var tile = VectorTileEncoder()
        try tile.append(layer)
        let decoded = try #require(try Decoded(tile.encoded()).layers.first)
        #expect(decoded.keys == ["kind", "fenced", "rating"])
        #expect(decoded.values.count == 5)
        #expect(decoded.features.count == 10_000)
        #expect(decoded.features[9_999].property("kind") == .string("place"))
        #expect(decoded.features[9_999].property("fenced") == .bool(true))
        #expect(decoded.features[9_999].points.first?.x == 9_999 % 4096)
        // 0.0 and -0.0 are two values (their bytes differ); the same string twice is one.
        var signs = try VectorTileLayer(name: "signs")
        for v in [0.0, -0.0, 0.0, -0.0] {
            signs.append(VectorTileFeature(id: nil, geometry: try .point(VectorTilePoint(x: 0, y: 0)), properties: [("v", .double(v))]))
        }
        #expect(signs.valueCount == 2 && signs.keyCount == 1)
    }

    /// Empty layers are left out (the spec: a layer SHOULD hold a feature); a tile of nothing is zero bytes.
    @Test func emptyLayersAndTiles() throws {
        var tile = VectorTileEncoder()
        #expect(tile.encoded().isEmpty && tile.isEmpty)
        try tile.append(try VectorTileLayer(name: "clusters"))
        var points = try VectorTileLayer(name: "points")
        points.append(VectorTileFeature(id: 3, geometry: try .point(VectorTilePoint(x: -5, y: 4100))))
        try tile.append(points)
        #expect(!tile.isEmpty)
        let decoded = try Decoded(tile.encoded())
        #expect(decoded.layers.map(\.name) == ["points"])
        #expect(decoded.layers.first?.features.first?.points.map { [$0.x, $0.y] } == [[-5, 4100]])
        #expect(decoded.layers.first?.keys.isEmpty == true)
    }

    /// What the spec does not allow is refused with a reason, never written.
    @Test func refusals() throws {
        #expect(throws: VectorTileError.invalidExtent(0)) { try VectorTileLayer(name: "x", extent: 0) }
        var tile = VectorTileEncoder()
        try tile.append(try VectorTileLayer(name: "points"))
        #expect(throws: VectorTileError.duplicateLayerName("points")) { try tile.append(try VectorTileLayer(name: "points")) }
        #expect(throws: VectorTileError.emptyGeometry) { try VectorTileGeometry.multiPoint([]) }
        let far = VectorTilePoint(x: 1 << 31, y: 0)
        #expect(throws: VectorTileError.coordinateOutOfRange(far)) { try VectorTileGeometry.point(far) }
        let low = VectorTilePoint(x: 0, y: -(1 << 31))
        #expect(throws: VectorTileError.coordinateOutOfRange(low)) { try VectorTileGeometry.point(low) }
        let extreme = VectorTilePoint(x: .min, y: 0)
        #expect(throws: VectorTileError.coordinateOutOfRange(extreme)) { try VectorTileGeometry.point(extreme) }
        // Each point within range, but the step between them is not.
        let apart = [VectorTilePoint(x: -(1 << 30) - 10, y: 0), VectorTilePoint(x: (1 << 30) + 10, y: 0)]
        #expect(throws: VectorTileError.coordinateOutOfRange(apart[1])) { try VectorTileGeometry.multiPoint(apart) }
        // The largest steps allowed are written and read back.
        let edge = try VectorTileGeometry.multiPoint([VectorTilePoint(x: Int(Int32.max), y: -Int(Int32.max)), VectorTilePoint(x: 0, y: 0)])
        let commands = try Decoded.commands(edge.commands)
        #expect(commands.first?.points.map { [$0.x, $0.y] } == [[Int(Int32.max), -Int(Int32.max)], [0, 0]])
        #expect("\(VectorTileError.duplicateLayerName("points"))".contains("'points'"))
    }

    /// Varints and zig-zag at their edges.
    @Test func wireEdges() {
        for value: UInt64 in [0, 1, 127, 128, 16_383, 16_384, UInt64(UInt32.max), .max] {
            var out: [UInt8] = []
            ProtobufWire.appendVarint(value, to: &out)
            #expect(out.count == ProtobufWire.varintSize(value))
            var decoded: UInt64 = 0
            for (i, b) in out.enumerated() { decoded |= UInt64(b & 0x7F) << UInt64(7 * i) }
            #expect(decoded == value)
        }
        #expect(ProtobufWire.zigZag(Int64(0)) == 0 && ProtobufWire.zigZag(Int64(-1)) == 1 && ProtobufWire.zigZag(Int64(1)) == 2)
        #expect(ProtobufWire.zigZag(Int64.min) == .max && ProtobufWire.zigZag(Int32(-2)) == 3)
    }

    static func points(of feature: VectorTileFeature) throws -> [(x: Int, y: Int)] {
        try Decoded.commands(feature.geometry.commands).flatMap(\.points)
    }

    /// What the decoder should read for an encoded value.
    static func expectedValue(_ value: VectorTileValue) -> Decoded.Value {
        switch value {
        case .string(let s): .string(s)
        case .float(let f): .float(f)
        case .double(let d): .double(d)
        case .int(let i): .int(i)
        case .uint(let u): .uint(u)
        case .sint(let i): .sint(i)
        case .bool(let b): .bool(b)
        }
    }

    /// Equal as bytes: the same type and, for floating point, the same bits.
    static func sameBytes(_ a: Decoded.Value, _ b: Decoded.Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        default: a == b
        }
    }
}
