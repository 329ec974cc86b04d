@testable import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

/// The byte encoders against the String encoders they replaced (`LegacyTextEncoders.swift`), over seeded random
/// features with awkward values: every byte must be the same, for every format and every cluster answer.
@Suite struct EncoderDifferentialTests {
    /// Pieces of awkward text: escapes, control characters (C0, DEL, C1), CSV specials, multi-byte scalars, emoji,
    /// and quotes that join a neighbouring scalar into one Character (a combining mark after, a prepend before).
    static let textPieces = [
        "", "a", "Zürich", "日本", "😀", "👨‍👩‍👧", "\"", "\\", "\n", "\r", "\r\n", "\t", "\u{0}", "\u{1}", "\u{1F}",
        "\u{7F}", "\u{85}", "\u{9B}", ",", ";", " ", "x,y", "\"\u{301}", "\u{600}\"", "e\u{301}", "\u{2028}", "\u{FEFF}",
        "null", "-0", "1e21", "{}", "[", "k\"",
    ]

    /// Numbers the number rule has edges at: zeros of both signs, tiny and huge, near 2^53, near 1e15 and 1e16
    /// (where integers and the exponent form meet), subnormals, and non-finite values.
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.0 / 3, 1e-7, -1e-7, 1e21, 1e-21, 1e15, 1e15 + 0.5, 999_999_999_999_999.9, 1e16, 1e16 - 2,
        -1e16, 9_007_199_254_740_992, 9_007_199_254_740_994, -9_007_199_254_740_991, 123.456, 2138551, 0.30000000000000004,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        1e300, 51.507400000000004, .nan, .infinity, -.infinity,
    ]

    static let latitudes: [Double] = [0, -0.0, 1e-7, -1e-7, 90, -90, 51.5074, 89.99999999999999, 0.30000000000000004, 45.5]
    static let longitudes: [Double] = [0, -0.0, 1e-7, 180, -180, -0.1278, 179.99999999999997, 24.93545, 1.0 / 3]

    struct Generator {
        var random: SplitMix64

        mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &random)] }
        mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

        mutating func text() -> String {
            (0..<Int.random(in: 0...4, using: &random)).map { _ in pick(EncoderDifferentialTests.textPieces) }.joined()
        }

        mutating func number() -> Double {
            chance(70) ? pick(EncoderDifferentialTests.numbers) : Double.random(in: -1e6...1e6, using: &random)
        }

        mutating func time() -> Timestamp {
            // Whole seconds, milliseconds, fractions that round away, and instants outside the ISO range.
            let seconds: [Double] = [0, -1, 0.5, 0.0004, 0.9996, 1_700_000_000.123, -62_167_219_200, 253_402_300_799,
                                     253_402_300_800, -62_167_219_201, 1e300, 86_399.999]
            return Timestamp(secondsSince1970: chance(60) ? pick(seconds) : Double.random(in: -1e10...1e10, using: &random))
        }

        mutating func value() -> AttributeValue {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: .string(text())
            case 1: .number(number())
            case 2: .bool(chance(50))
            case 3: .time(time())
            default: .stringSet((0..<Int.random(in: 0...3, using: &random)).map { _ in text() })
            }
        }

        mutating func feature(_ n: Int) -> Feature {
            let kind = pick(FeatureKind.allCases)
            let location = Coordinate(uncheckedLatitude: chance(50) ? pick(EncoderDifferentialTests.latitudes) : Double.random(in: -90...90, using: &random),
                                      longitude: chance(50) ? pick(EncoderDifferentialTests.longitudes) : Double.random(in: -180...180, using: &random))
            let radius: Double? = chance(50) ? nil : pick([1e-7, 1, 500, 1e21, 2.5, .leastNonzeroMagnitude, 1e16])
            var window: TimeWindow?
            if kind == .event || kind == .sighting || chance(20) {
                let start = time()
                window = kind == .sighting ? TimeWindow(instant: start)
                    : (try? TimeWindow(start: start, end: Timestamp(secondsSince1970: start.secondsSince1970 + pick([0, 3600, 0.25]))))
                    ?? TimeWindow(instant: start)
            }
            var attributes: [String: AttributeValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) { attributes[chance(30) ? pick(["name", "population", "kind", "id", "distance_m", "latitude"]) : text()] = value() }
            let id = chance(10) ? pick(["", "1", "id,with,commas", "\"q\"", "\u{1}"]) : "f\(n)" + text()
            return Feature(uncheckedId: id, kind: kind, location: location, radiusMeters: radius, timeWindow: window, attributes: attributes)
        }
    }

    func written(_ format: QueryResultFormat, _ rows: [QueryResultRow]) -> [UInt8] {
        let sink = MemorySink()
        QueryResultWriter(format: format).write(rows, to: sink)
        return sink.bytes
    }

    @Test func numbersStringsAndFieldsMatchTheOldRules() {
        var generator = Generator(random: SplitMix64(seed: 17))
        for value in Self.numbers + (0..<2000).map({ _ in generator.number() }) + (0..<2000).map({ _ in Double(bitPattern: generator.random.next()) }) {
            #expect(TextEscaping.jsonNumber(value) == LegacyTextEscaping.jsonNumber(value), "\(value)")
        }
        for text in Self.textPieces + (0..<3000).map({ _ in generator.text() }) {
            #expect(TextEscaping.jsonString(text) == LegacyTextEscaping.jsonString(text), "\(text.debugDescription)")
            #expect(TextEscaping.csvField(text) == LegacyTextEscaping.csvField(text), "\(text.debugDescription)")
        }
        for count in 0..<120_000 where ClusterWriter.abbreviated(count) != LegacyClusterWriter.abbreviated(count) {
            Issue.record("abbreviated(\(count)): \(ClusterWriter.abbreviated(count)) != \(LegacyClusterWriter.abbreviated(count))")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func queryResultsMatchTheOldEncodersByteForByte(seed: UInt64) {
        var generator = Generator(random: SplitMix64(seed: seed))
        let rows = (0..<Int.random(in: 0...300, using: &generator.random)).map { n in
            QueryResultRow(feature: generator.feature(n), distanceMeters: generator.chance(50) ? nil : generator.number())
        }
        for format in QueryResultFormat.allCases {
            let old = Array(LegacyQueryResultWriter(format: format).write(rows).utf8)
            #expect(written(format, rows) == old, "\(format), seed \(seed)")
            #expect(QueryResultWriter(format: format).encode(rows) == old, "\(format), seed \(seed)")
        }
        for row in rows.prefix(50) {
            let extra = row.distanceMeters.map { [("distance_m", $0), ("x\"", -0.0)] } ?? []
            #expect(FeatureEncoding.geoJSON(row.feature, extra: extra) == LegacyFeatureEncoding.geoJSON(row.feature, extra: extra))
            #expect(FeatureEncoding.json(row.feature, extra: extra) == LegacyFeatureEncoding.json(row.feature, extra: extra))
            #expect(FeatureEncoding.properties(row.feature) == LegacyFeatureEncoding.properties(row.feature))
            let columns = FeatureEncoding.csvColumns(for: [row.feature], extra: ["distance_m", "other"])
            let values = ["distance_m": row.distanceMeters ?? 1e-7, "other": 1e21]
            #expect(FeatureEncoding.csvRow(row.feature, columns: columns, extra: values)
                    == LegacyFeatureEncoding.csvRow(row.feature, columns: columns, extra: values))
            for value in row.feature.attributes.values {
                #expect(FeatureEncoding.jsonValue(value) == LegacyFeatureEncoding.jsonValue(value))
            }
        }
    }

    /// A result larger than one chunk of the sink writer: the chunks join to the same bytes.
    @Test func aLargeResultStreamsTheSameBytes() {
        var generator = Generator(random: SplitMix64(seed: 99))
        let rows = (0..<3000).map { QueryResultRow(feature: generator.feature($0), distanceMeters: Double($0) / 7) }
        for format in QueryResultFormat.allCases {
            #expect(written(format, rows) == Array(LegacyQueryResultWriter(format: format).write(rows).utf8), "\(format)")
        }
    }

    @Test(arguments: [11, 12, 13])
    func clusterAnswersMatchTheOldWriterByteForByte(seed: UInt64) throws {
        var generator = Generator(random: SplitMix64(seed: seed))
        // Clustered towns with repeated points (identical-point clusters), each with a population and a category.
        var features: [Feature] = []
        for town in 0..<40 {
            let lat = Double.random(in: -60...70, using: &generator.random), lon = Double.random(in: -180...180, using: &generator.random)
            for n in 0..<Int.random(in: 1...80, using: &generator.random) {
                let same = n % 7 == 0
                var attributes: [String: AttributeValue] = ["category": .string(generator.pick(["a", "b\"", "ü", "😀", ""]))]
                if generator.chance(80) { attributes["population"] = .number(generator.chance(50) ? generator.number() : Double(n)) }
                if generator.chance(50) { attributes["name"] = .string(generator.text()) }
                features.append(Feature(
                    uncheckedId: "t\(town)-\(n)" + generator.text(), kind: .place,
                    location: Coordinate(uncheckedLatitude: same ? lat : lat + Double.random(in: -2...2, using: &generator.random),
                                         longitude: same ? lon : min(180, max(-180, lon + Double.random(in: -2...2, using: &generator.random)))),
                    radiusMeters: generator.chance(50) ? 500 : nil, timeWindow: nil, attributes: attributes))
            }
        }
        for options in [ClusterOptions.standard,
                        try ClusterOptions(numericAttributes: ["population", "missing"], categoryAttribute: "category")] {
            let index = ClusterIndex(features: features, options: options)
            for offset: UInt64 in [0, 7 << 32, UInt64(Int64.max)] {
                let writer = ClusterWriter(index: index, features: features, clusterIDOffset: offset)
                let old = LegacyClusterWriter(index: index, features: features, clusterIDOffset: offset)
                func same(_ new: [UInt8], _ legacy: String, _ what: String) {
                    #expect(new == Array(legacy.utf8), "\(what), seed \(seed), offset \(offset)")
                }
                for zoom in [0, 2, 5, 9, 17] {
                    let nodes = index.clusters(in: .world, zoom: zoom)
                    same(writer.encodeCollection(nodes), old.writeCollection(nodes), "zoom \(zoom)")
                    let sink = MemorySink()
                    writer.writeCollection(nodes, to: sink)
                    same(sink.bytes, old.writeCollection(nodes), "zoom \(zoom) sink")
                    for id in nodes.compactMap(\.clusterID).prefix(8) {
                        let children = try index.children(of: id)
                        same(writer.encodeCollection(children), old.writeCollection(children), "children of \(id)")
                        let leaves = try index.leaves(of: id, limit: 20, offset: 1).map {
                            ClusterNode(content: .point($0), coordinate: index.coordinate(ofPoint: $0), pointCount: 1)
                        }
                        same(writer.encodeCollection(leaves), old.writeCollection(leaves), "leaves of \(id)")
                        let expansion = try index.expansionZoom(of: id)
                        same(ClusterWriter.encodeExpansion(expansion, of: id, clusterIDOffset: offset),
                             LegacyClusterWriter.writeExpansion(expansion, of: id, clusterIDOffset: offset), "expansion of \(id)")
                    }
                    for (x, y) in [(0, 0), (1 << zoom / 2, 1 << zoom / 3), ((1 << zoom) - 1, (1 << zoom) / 2)] {
                        let tile = index.tile(z: zoom, x: x, y: y)
                        same(writer.encodeTile(tile), old.writeTile(tile), "tile \(zoom)/\(x)/\(y)")
                    }
                    let view = try Viewport(center: Coordinate(latitude: 20, longitude: 10), zoom: Double(zoom) / 2,
                                            widthPixels: 1024, heightPixels: 768)
                    for gridOptions in [GridClusterOptions.standard, try GridClusterOptions(cellSizePixels: 25, mergeOverlapping: true)] {
                        let grid = index.gridClusters(in: view, options: gridOptions)
                        same(writer.encodeGrid(grid), old.writeGrid(grid), "grid at zoom \(Double(zoom) / 2)")
                    }
                }
                for expansion in [ClusterExpansion.zoom(3), .identicalPoints] {
                    let id = try #require(ClusterID(rawValue: 3 << 5 | 4))
                    same(ClusterWriter.encodeExpansion(expansion, of: id, clusterIDOffset: offset),
                         LegacyClusterWriter.writeExpansion(expansion, of: id, clusterIDOffset: offset), "expansion")
                }
            }
        }
    }
}
