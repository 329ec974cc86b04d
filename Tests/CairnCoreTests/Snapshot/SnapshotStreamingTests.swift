import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// The streaming snapshot writer (`FeatureSnapshotWriter`, what a store's first query uses) writes exactly the bytes
/// of the snapshot of an index built in memory, as the writer before it did (`LegacySnapshot`, a transcription of
/// that writer kept as the oracle), whether its table stays in memory or goes through a scratch file in pieces.
@Suite struct SnapshotStreamingTests {
    /// The snapshot of `features` from the streaming writer: in memory, or spilled in pieces of `pieceBytes`
    /// (then both its bytes and the file it writes).
    static func streamed(_ features: [Feature], metadata: [String: String], pieceBytes: Int?,
                         folder: TemporaryFolder) throws -> [[UInt8]] {
        let path = folder.path("streamed.snapshot")
        var writer = FeatureSnapshotWriter(spill: pieceBytes.flatMap { SnapshotSpill(nextTo: path, pieceBytes: $0) })
        for feature in features { writer.append(feature) }
        #expect(writer.count == features.count)
        let prepared = writer.finish(metadata: metadata)
        let bytes = try prepared.bytes()
        #expect(prepared.byteCount == bytes.count)
        guard pieceBytes != nil else { return [bytes] }
        let file = try prepared.write(to: path)
        #expect(file.byteCount == bytes.count)
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        // Nothing left next to the snapshot: the scratch file had no name, the temporary one was renamed.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "streamed.snapshot" }
        #expect(left.isEmpty, "\(left)")
        return [bytes, written]
    }

    static func expectSameBytes(_ features: [Feature], metadata: [String: String] = ["store.generation": "7"]) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let index = FeatureIndex(features)
        let expected = LegacySnapshot.bytes(index, metadata: metadata)
        #expect(index.snapshotBytes(metadata: metadata) == expected, "the index's own snapshot")
        for pieceBytes in [nil, 1, 100, 4093, 1 << 18] as [Int?] {
            for bytes in try streamed(features, metadata: metadata, pieceBytes: pieceBytes, folder: folder) {
                #expect(bytes == expected, "streamed, pieces of \(pieceBytes.map(String.init) ?? "none")")
            }
        }
        let path = folder.path("index.snapshot")
        try index.writeSnapshot(to: path, metadata: metadata)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == expected, "FeatureIndex.writeSnapshot")
    }

    @Test func seededFeaturesGiveTheLegacyBytes() throws {
        try Self.expectSameBytes(try SnapshotTests.richFeatures(count: 1_500, seed: 41))
    }

    /// Empty, one point, identical points, no radius at all (no circle tree), every feature with a radius (the
    /// circle tree shares the point tree) and some with one.
    @Test(arguments: ["empty", "one", "identical", "no radius", "every radius", "some radius"])
    func edgeCasesGiveTheLegacyBytes(_ dataset: String) throws {
        var random = SeededRandom(seed: 5)
        let count = ["empty": 0, "one": 1][dataset] ?? 700
        let features = try (0..<count).map { n in
            let location = dataset == "identical" ? try Coordinate(latitude: 60.17, longitude: 24.94)
                : try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            let radius: Double? = switch dataset {
            case "no radius": nil
            case "some radius": random.chance(0.3) ? random.uniform(1...5_000) : nil
            default: random.uniform(1...5_000)
            }
            return try Feature(id: "p\(n)", kind: .place, location: location, radiusMeters: radius,
                               attributes: ["name": .string("place \(n % 50)")])
        }
        try Self.expectSameBytes(features)
        try Self.expectSameBytes(features, metadata: [:])
    }

    /// Strings that `String` holds equal though their bytes differ (precomposed and decomposed accents) are one
    /// string of the table, as the writer before made them; distinct strings by the thousand, repeated, make the
    /// lookup grow.
    @Test func canonicallyEquivalentStringsAreOneAsBefore() throws {
        let texts = ["Caf\u{E9}", "Cafe\u{301}", "\u{212B}ngstr\u{F6}m", "\u{C5}ngstro\u{308}m", "A\u{30A}ngstr\u{F6}m", "plain"]
        let features = try (0..<3_000).map { n in
            try Feature(id: "u\(n)", kind: .user, location: Coordinate(latitude: Double(n % 90), longitude: Double(n % 180)),
                        attributes: ["name": .string(texts[n % texts.count]), "code": .string("code \(n % 1_700)"),
                                     "tags": .set([texts[(n + 1) % texts.count], "t\(n % 7)"])])
        }
        #expect(features[0].attributes["name"] == features[1].attributes["name"], "Swift compares them equal")
        try Self.expectSameBytes(features)
    }

    /// The GeoNames places of `Data/`, with and without a radius (as `cairn import --radius` gives one).
    @Test(arguments: [nil, 150.0])
    func realPlacesGiveTheLegacyBytes(radiusMeters: Double?) throws {
        let bytes = try RepositoryData.bytes("Data/geonames-cities500.csv.gz")
        var features: [Feature] = []
        for line in bytes.split(separator: 10).dropFirst().prefix(60_000) {
            let fields = RealData.splitCSV(line).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count >= 8, let latitude = Double(fields[2]), let longitude = Double(fields[3]) else { continue }
            features.append(try Feature(
                id: fields[0], kind: .place, location: Coordinate(latitude: latitude, longitude: longitude),
                radiusMeters: radiusMeters,
                attributes: ["name": .string(fields[1]), "country": .string(fields[4]),
                             "population": .number(Double(fields[6]) ?? 0), "timezone": .string(fields[7])]))
        }
        #expect(features.count > 50_000)
        try Self.expectSameBytes(features)
    }

    /// What the writer holds of the feature table stays within its scratch file's pieces (one per section, plus
    /// one feature's worth), however large the table grows: here 400 features of 40 attributes and 10 KB texts.
    /// (Not counted: the lookup of distinct attribute strings, which the table's deduplication needs.)
    @Test func theTableHeldInMemoryDoesNotGrowWithTheAttributes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pieceBytes = 4_096, sections = 7, oneFeature = 10_500
        var writer = FeatureSnapshotWriter(spill: SnapshotSpill(nextTo: folder.path("s.snapshot"), pieceBytes: pieceBytes))
        var largest = 0
        var attributes: [String: AttributeValue] = [:]
        for a in 0..<40 { attributes["a\(a)"] = .number(Double(a)) }
        for n in 0..<400 {
            attributes["text"] = .string(String(repeating: "abcdefghi\(n % 4)", count: 1_000))
            attributes["n"] = .number(Double(n))
            writer.append(try Feature(id: "f\(n)", kind: .park, location: Coordinate(latitude: 1, longitude: Double(n) / 10),
                                      radiusMeters: 10, attributes: attributes))
            largest = max(largest, writer.tableBytesInMemory)
        }
        #expect(largest <= sections * pieceBytes + oneFeature, "\(largest) bytes held")
        #expect(writer.finish().byteCount > 400 * 42 * 12)
    }

    /// A `FEAT` piece cut anywhere gets exactly the point positions that fall inside it.
    @Test func pointPositionsAreFilledAcrossPieceEdges() {
        let positions: [UInt32] = [0x0403_0201, 0x0807_0605, 0x0C0B_0A09]
        var whole = [UInt8](repeating: 0xEE, count: 24 * positions.count)
        whole.withUnsafeMutableBytes { FeatureTableEncoder.fillPointPositions($0, at: 0, positions: positions) }
        for cut in 0...whole.count {
            for cut2 in cut...whole.count {
                var pieces = [UInt8](repeating: 0xEE, count: whole.count)
                for range in [0..<cut, cut..<cut2, cut2..<whole.count] {
                    pieces.withUnsafeMutableBytes {
                        FeatureTableEncoder.fillPointPositions(UnsafeMutableRawBufferPointer(rebasing: $0[range]), at: range.lowerBound,
                                                               positions: positions)
                    }
                }
                if pieces != whole { Issue.record("cut at \(cut), \(cut2)"); return }
            }
        }
        #expect(whole[20..<24] == [1, 2, 3, 4] && whole[44..<48] == [5, 6, 7, 8] && whole[0..<20].allSatisfy { $0 == 0xEE })
    }
}

/// The snapshot writer as it was before the streaming writer (version 4, commit e0e3382; version 5 adds shapes), transcribed with plain
/// arrays: the oracle the new writer's bytes are compared with.
enum LegacySnapshot {
    private struct Sink {
        var bytes: [UInt8] = []
        mutating func append(_ value: some FixedWidthInteger) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
        mutating func append(_ value: Double) { append(value.bitPattern) }
        mutating func append<T: BitwiseCopyable>(contentsOf buffer: IndexBuffer<T>) {
            buffer.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeRawBufferPointer($0)) }
        }
        mutating func appendString(_ text: String) {
            append(UInt32(text.utf8.count))
            bytes.append(contentsOf: text.utf8)
        }
    }

    static func bytes(_ index: FeatureIndex, metadata: [String: String]) -> [UInt8] {
        var sections: [(String, [UInt8])] = []
        var meta = Sink()
        meta.append(UInt32(metadata.count))
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            meta.appendString(key)
            meta.appendString(value)
        }
        sections.append(("META", meta.bytes))
        var stringIndices: [String: UInt32] = [:]
        var heap: [UInt8] = [], offsets = Sink()
        offsets.append(UInt32(0))
        var stringCount: UInt32 = 0
        func add(_ text: String, unique: Bool = false) -> UInt32 {
            if !unique, let found = stringIndices[text] { return found }
            defer { stringCount += 1 }
            heap.append(contentsOf: text.utf8)
            offsets.append(UInt32(heap.count))
            if !unique { stringIndices[text] = stringCount }
            return stringCount
        }
        var pointPositions = [UInt32](repeating: 0, count: index.features.count)
        for p in index.points.ids.indices { pointPositions[Int(index.points.ids[p])] = UInt32(p) }
        var records = Sink(), optional = Sink(), names = Sink(), values = Sink(), members = Sink()
        var optionalCount: UInt32 = 0, attributeCount: UInt32 = 0, memberCount: UInt32 = 0
        var shapeOffsets = Sink(), shapeBytes: [UInt8] = [], shapeCount = 0
        shapeOffsets.append(UInt64(0))
        for (position, feature) in index.features.enumerated() {
            records.append(add(feature.id, unique: true))
            records.append(feature.kind.snapshotCode)
            records.append(UInt8((feature.radiusMeters == nil ? 0 : 1) | (feature.timeWindow == nil ? 0 : 2)
                                 | (feature.shape == nil ? 0 : 4)))
            records.append(UInt16(0))
            records.append(attributeCount)
            records.append(UInt32(feature.attributes.count))
            records.append(optionalCount)
            records.append(pointPositions[position])
            if let radius = feature.radiusMeters {
                optional.append(radius)
                optionalCount += 1
            }
            if let window = feature.timeWindow {
                optional.append(window.start.secondsSince1970)
                optional.append(window.end.secondsSince1970)
                optionalCount += 2
            }
            if let shape = feature.shape {
                optional.append(Double(shapeCount))
                optionalCount += 1
                shapeBytes += shape.wkb
                shapeOffsets.append(UInt64(shapeBytes.count))
                shapeCount += 1
            }
            for (name, value) in feature.attributes.sorted(by: { $0.key < $1.key }) {
                let nameIndex = add(name)
                let (type, payload): (UInt32, UInt64)
                switch value {
                case .string(let text): (type, payload) = (0, UInt64(add(text)))
                case .number(let number): (type, payload) = (1, number.bitPattern)
                case .bool(let flag): (type, payload) = (2, flag ? 1 : 0)
                case .time(let time): (type, payload) = (3, time.secondsSince1970.bitPattern)
                case .stringSet(let set):
                    (type, payload) = (4, UInt64(memberCount) | UInt64(set.count) << 32)
                    for member in set { members.append(add(member)) }
                    memberCount += UInt32(set.count)
                }
                names.append(nameIndex | type << 28)
                values.append(payload)
            }
            attributeCount += UInt32(feature.attributes.count)
        }
        sections += [("STRO", offsets.bytes), ("STRB", heap), ("FEAT", records.bytes), ("FOPT", optional.bytes),
                     ("ATTN", names.bytes), ("ATTV", values.bytes), ("SETM", members.bytes),
                     ("SHPO", shapeOffsets.bytes), ("SHPB", shapeBytes)]
        var pointHeader = Sink(), pointIds = Sink(), pointCoordinates = Sink()
        pointHeader.append(UInt32(index.points.count))
        pointHeader.append(UInt32(index.points.bucketSize))
        pointIds.append(contentsOf: index.points.ids)
        pointCoordinates.append(contentsOf: index.points.coordinates)
        sections += [("PIDX", pointHeader.bytes), ("PIDS", pointIds.bytes), ("PCRD", pointCoordinates.bytes)]
        let circles = index.circles
        var circleHeader = Sink(), circleIds = Sink(), centers = Sink(), circleValues = Sink(), radii = Sink(), items = Sink()
        circleHeader.append(UInt32(circles.centers.count))
        circleHeader.append(UInt32(circles.centers.bucketSize))
        circleIds.append(contentsOf: circles.centers.ids)
        centers.append(contentsOf: circles.centers.coordinates)
        circleValues.append(contentsOf: circles.circles)
        radii.append(contentsOf: circles.nodeMaxRadiusMeters)
        items.append(contentsOf: index.circleItems)
        sections += [("CTRE", circleHeader.bytes), ("CIDS", circleIds.bytes), ("CCRD", centers.bytes),
                     ("CVAL", circleValues.bytes), ("CMAX", radii.bytes), ("CITM", items.bytes)]
        return assemble(sections)
    }

    /// Header, table, sections at multiples of 8, then `BSUM` and the checksums.
    private static func assemble(_ sections: [(String, [UInt8])]) -> [UInt8] {
        func aligned(_ n: Int) -> Int { (n + 7) & ~7 }
        let start = aligned(40 + 24 * (sections.count + 1))
        var offsets: [Int] = []
        var end = start
        for (_, bytes) in sections {
            offsets.append(end)
            end = aligned(end + bytes.count)
        }
        let blocks = (end - start + 4095) / 4096
        var file = Sink()
        file.bytes.append(contentsOf: Array("CAIRNSNP".utf8))
        file.append(UInt32(0x0A0B_0C0D))
        file.append(UInt32(5))
        file.append(UInt64(end + 8 * blocks))
        file.append(UInt64(0))
        file.append(UInt32(sections.count + 1))
        file.append(UInt32(0))
        func tag(_ name: String) -> UInt32 { name.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        for ((name, bytes), offset) in zip(sections, offsets) + [(("BSUM", [UInt8](repeating: 0, count: 8 * blocks)), end)] {
            file.append(tag(name))
            file.append(UInt32(0))
            file.append(UInt64(offset))
            file.append(UInt64(bytes.count))
        }
        let tableEnd = file.bytes.count
        for ((_, bytes), offset) in zip(sections, offsets) {
            file.bytes += [UInt8](repeating: 0, count: offset - file.bytes.count)
            file.bytes += bytes
        }
        file.bytes += [UInt8](repeating: 0, count: end - file.bytes.count)
        var sums = Sink()
        for block in stride(from: start, to: end, by: 4096) {
            sums.append(file.bytes.withUnsafeBytes { SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: $0[block..<min(block + 4096, end)])) })
        }
        file.bytes += sums.bytes
        let checksum = file.bytes.withUnsafeBytes { raw in
            SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: raw[32..<tableEnd]),
                                   seed: SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: raw[end...])))
        }
        file.bytes.withUnsafeMutableBytes { $0.storeBytes(of: checksum, toByteOffset: 24, as: UInt64.self) }
        return file.bytes
    }
}
