import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// Snapshots: round trips that keep every feature and every query answer, and damaged or crafted files refused
/// with the right error and no crash.
@Suite struct SnapshotTests {
    /// Features of every kind with every attribute type, time windows, radii, shapes, exact duplicates and awkward places.
    static func richFeatures(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SeededRandom(seed: seed)
        var features: [Feature] = []
        let kinds: [FeatureKind] = [.park, .trailhead, .place, .event, .user, .sighting]
        for n in 0..<count {
            let location: Coordinate
            if n > 5, random.chance(0.1) {
                location = features[random.below(n)].location
            } else {
                var latitude = random.uniform(-90...90), longitude = random.uniform(-180...180)
                switch random.below(8) {
                case 0: longitude = random.chance(0.5) ? 180 : -180
                case 1: latitude = random.chance(0.5) ? 90 : -90
                default: break
                }
                location = try Coordinate(latitude: latitude, longitude: longitude)
            }
            let kind = kinds[random.below(kinds.count)]
            var attributes: [String: AttributeValue] = [
                "name": .string("feature \(n) ✓ \(["Helsinki", "Zürich", "東京", ""][random.below(4)])"),
                "rating": .number(random.uniform(-1e6...1e6)),
            ]
            if random.chance(0.5) { attributes["fenced"] = .bool(random.chance(0.5)) }
            if random.chance(0.5) { attributes["openedAt"] = .time(Timestamp(secondsSince1970: random.uniform(-1e10...1e10))) }
            if random.chance(0.5) { attributes["interests"] = .set(["football", "chess", "x\(random.below(5))"].prefix(random.below(4))) }
            if kind == .trailhead { attributes["difficulty"] = .string("moderate") }
            let start = Timestamp(secondsSince1970: random.uniform(0...2e9).rounded())
            let window: TimeWindow? = switch kind {
            case .event: try TimeWindow(start: start, end: Timestamp(secondsSince1970: start.secondsSince1970 + 3600))
            case .sighting: TimeWindow(instant: start)
            default: random.chance(0.1) ? TimeWindow(instant: start) : nil
            }
            let radius: Double? = kind == .place || random.chance(0.3) ? random.uniform(0.5...2_000_000) : nil
            // Every third feature has a shape of its own seed (the stream above is left as it was).
            var shape: Shape?
            if n % 3 == 1 {
                var shapeRandom = SeededRandom(seed: UInt64(n))
                shape = try SyntheticShapes.shape(ShapeKind.allCases[(n / 3) % 6], around: location, random: &shapeRandom)
            }
            features.append(try Feature(id: "f\(n)", kind: kind, location: location, radiusMeters: radius,
                                        timeWindow: window, attributes: attributes, shape: shape))
        }
        return features
    }

    static func roundTrip(_ index: FeatureIndex, metadata: [String: String] = [:]) throws -> (FeatureIndex, SnapshotFile) {
        let file = try SnapshotFile(bytes: index.snapshotBytes(metadata: metadata))
        return (try FeatureIndex(snapshot: file), file)
    }

    /// The same queries on both indexes give the same hits.
    static func expectSameAnswers(_ a: FeatureIndex, _ b: FeatureIndex, seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        for _ in 0..<40 {
            let point = try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            let model: DistanceModel = random.chance(0.5) ? .wgs84 : .sphere
            let filter = random.chance(0.5) ? FeatureFilter.all : FeatureFilter(kinds: [.place, .park])
            var stats = QueryStats()
            let box = try BoundingBox(west: random.uniform(-180...180), south: random.uniform(-90...0),
                                      east: random.uniform(-180...180), north: random.uniform(0...90))
            #expect(a.search(in: box, filter: filter, stats: &stats) == b.search(in: box, filter: filter, stats: &stats))
            let radius = random.uniform(0...5_000_000)
            #expect(a.within(radiusMeters: radius, of: point, model: model, filter: filter, stats: &stats)
                    == b.within(radiusMeters: radius, of: point, model: model, filter: filter, stats: &stats))
            let k = 1 + random.below(20)
            #expect(a.nearest(to: point, count: k, model: model, filter: filter, stats: &stats)
                    == b.nearest(to: point, count: k, model: model, filter: filter, stats: &stats))
            #expect(a.containing(point, model: model, filter: filter, stats: &stats) == b.containing(point, model: model, filter: filter, stats: &stats))
        }
    }

    @Test(arguments: [0, 1, 7, 600])
    func roundTripKeepsFeaturesIndexesAndAnswers(count: Int) throws {
        let features = try Self.richFeatures(count: count, seed: 40 + UInt64(count))
        let index = FeatureIndex(features)
        let metadata = ["store.generation": "42", "note": "ünïcode ✓", "empty": ""]
        let (decoded, file) = try Self.roundTrip(index, metadata: metadata)
        #expect(file.metadata == metadata)
        #expect(file.version == SnapshotFormat.version)
        let mapped = try FeatureIndex(mapping: file)
        #expect(mapped.features.isMapped && !decoded.features.isMapped)
        for loaded in [decoded, mapped] {
        #expect(Array(loaded.features) == features)
        #expect(loaded.points.ids == index.points.ids)
        #expect(loaded.points.coordinates == index.points.coordinates)
        #expect(loaded.points.bucketSize == index.points.bucketSize)
        #expect(loaded.circleItems == index.circleItems)
        #expect(loaded.circles.circles == index.circles.circles)
        #expect(loaded.circles.centers.ids == index.circles.centers.ids)
        #expect(loaded.circles.centers.coordinates == index.circles.centers.coordinates)
        #expect(loaded.circles.nodeMaxRadiusMeters == index.circles.nodeMaxRadiusMeters)
        // Deterministic: the loaded index writes the very same bytes.
        #expect(loaded.snapshotBytes(metadata: metadata) == index.snapshotBytes(metadata: metadata))
        try Self.expectSameAnswers(index, loaded, seed: 7 + UInt64(count))
        }
    }

    /// Buffers read in place or built in memory stay valid while any copy of their index lives: the snapshot file
    /// object and the index the copy came from are gone before the copy answers.
    @Test func indexCopiesOutliveTheirFileAndOriginal() throws {
        let features = try Self.richFeatures(count: 300, seed: 11)
        let index = FeatureIndex(features)
        var mappedCopy: FeatureIndex?
        var builtCopy: PointIndex?
        do {
            let file = try SnapshotFile(bytes: index.snapshotBytes())
            mappedCopy = try FeatureIndex(mapping: file)
            var built: PointIndex? = PointIndex(features.map(\.location))
            builtCopy = built
            built = nil
            #expect(built == nil)
        }
        let mapped = try #require(mappedCopy)
        mappedCopy = nil
        #expect(mapped.features.isMapped)
        #expect(Array(mapped.features) == features)
        try Self.expectSameAnswers(index, mapped, seed: 12)
        let points = try #require(builtCopy)
        builtCopy = nil
        #expect(points.ids == index.points.ids)
        #expect(points.coordinates == index.points.coordinates)
    }

    @Test func identicalPointsRoundTrip() throws {
        let here = try Coordinate(latitude: 60.17, longitude: 24.94)
        let features = try (0..<300).map { n in
            try Feature(id: "same-\(n)", kind: .place, location: here, radiusMeters: Double(1 + n % 7),
                        attributes: ["n": .number(Double(n))])
        }
        let index = FeatureIndex(features)
        let (loaded, _) = try Self.roundTrip(index)
        #expect(Array(loaded.features) == features)
        var stats = QueryStats()
        #expect(loaded.containing(here, stats: &stats).count == 300)
        #expect(loaded.nearest(to: here, count: 5, stats: &stats).map(\.item) == [0, 1, 2, 3, 4])
        try Self.expectSameAnswers(index, loaded, seed: 3)
    }

    @Test func writesAndReadsAFileAtomically() throws {
        let path = "/tmp/cairn-snapshot-test-\(UInt64.random(in: 0...UInt64.max)).snapshot"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let index = FeatureIndex(try Self.richFeatures(count: 50, seed: 5))
        let size = try index.writeSnapshot(to: path, metadata: ["a": "1"])
        let file = try SnapshotFile(contentsOf: path)
        #expect(file.byteCount == size)
        #expect(file.path == path)
        #expect(try FeatureIndex(snapshot: file).features == index.features)
        // Overwriting replaces the whole file.
        try FeatureIndex([]).writeSnapshot(to: path)
        #expect(try FeatureIndex(snapshot: SnapshotFile(contentsOf: path)).count == 0)
        let missing = #expect(throws: SnapshotError.self) { try SnapshotFile(contentsOf: path + ".absent") }
        if case .io(let operation, _)? = missing?.reason { #expect(operation == "open") } else { Issue.record("expected an io error") }
    }

    /// A writer killed between creating its temporary file and renaming it leaves the file behind; the next write
    /// of the same snapshot removes it, and leaves alone the temporary files of live writers and other files.
    @Test func temporaryFilesOfKilledWritersAreRemovedByTheNextWrite() throws {
        let path = "/tmp/cairn-snapshot-test-\(UInt64.random(in: 0...UInt64.max)).snapshot"
        let exited = Process()
        exited.executableURL = URL(fileURLWithPath: "/bin/true")
        try exited.run()
        exited.waitUntilExit()
        let stale = "\(path).tmp-\(exited.processIdentifier)-17", live = "\(path).tmp-\(getpid())-18", other = path + ".tmpfile"
        for file in [stale, live, other] { #expect(FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3]))) }
        defer { for file in [path, stale, live, other] { try? FileManager.default.removeItem(atPath: file) } }
        try FeatureIndex([]).writeSnapshot(to: path)
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: live))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    @Test func checksumIsXXH64() {
        // Reference values from the xxHash library (libxxhash 0.8.1, XXH64 with seed 0) through Python's ctypes.
        let vectors: [([UInt8], UInt64)] = [
            ([], 0xEF46_DB37_51D8_E999),
            (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
            (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
            (Array("Cairn snapshot".utf8), 0xDCF9_1D36_3ADF_CF32),
            ((0..<100).map { UInt8($0) }, 0x6AC1_E580_3216_6597),
            ((0..<1000).map { UInt8(($0 * 7 + 3) % 256) }, 0x5F23_5FA0_33F1_A3FB),
        ]
        for (bytes, expected) in vectors {
            #expect(bytes.withUnsafeBytes { SnapshotChecksum.xxh64($0) } == expected)
        }
    }

    // MARK: - Damage

    static func sample(count: Int = 12) throws -> [UInt8] {
        FeatureIndex(try richFeatures(count: count, seed: 77)).snapshotBytes(metadata: ["store.generation": "3"])
    }

    static func reason(_ bytes: [UInt8]) -> SnapshotError.Reason? {
        do {
            _ = try FeatureIndex(snapshot: SnapshotFile(bytes: bytes, path: "x.snapshot"))
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func flippingAnyByteIsRefused() throws {
        let bytes = try Self.sample()
        for position in bytes.indices {
            var damaged = bytes
            damaged[position] ^= 0x5A
            let reason = try #require(Self.reason(damaged), "flip at \(position) was accepted")
            switch position {
            case 0..<8, 8..<12: #expect(reason == .notASnapshot, "flip at \(position)")
            case 12..<16:
                if case .unsupportedVersion(_, let supported) = reason { #expect(supported == SnapshotFormat.version) } else {
                    Issue.record("flip at \(position): \(reason)")
                }
            case 16..<24:
                switch reason {
                case .truncated(_, let of?): #expect(of > bytes.count)
                case .trailingBytes(let fileBytes, _): #expect(fileBytes == bytes.count)
                case .invalidContent(let section, _): #expect(section == "header")
                default: Issue.record("flip at \(position): \(reason)")
                }
            case 32..<36:
                // The section count: a table reaching past the file is refused before its checksum can be read.
                switch reason {
                case .checksumMismatch: break
                case .sectionOutOfBounds(let section, _, _, _): #expect(section == "section table")
                default: Issue.record("flip at \(position): \(reason)")
                }
            default:
                if case .checksumMismatch = reason {} else { Issue.record("flip at \(position): \(reason)") }
            }
        }
    }

    /// A mapped snapshot verifies a feature's blocks when it is decoded, and its circle tree at the first
    /// `containing`, not at open: every flipped byte is either refused at open or mapping, or reported by
    /// `snapshotDamage` once the features and the circles are read, never trusted.
    @Test func flippingAnyByteOfAMappedSnapshotIsFoundBeforeItIsTrusted() throws {
        // Enough features for blocks that hold feature data only; a seeded sample of the positions.
        let bytes = try Self.sample(count: 600)
        var random = SeededRandom(seed: 21)
        var foundOnReading = 0
        let somewhere = try Coordinate(latitude: 10, longitude: 20)
        for position in (0..<3_000).map({ _ in random.below(bytes.count) }) {
            var damaged = bytes
            damaged[position] ^= 0x5A
            guard let index = try? FeatureIndex(mapping: SnapshotFile(bytes: damaged, path: "x.snapshot")) else { continue }
            #expect(index.snapshotDamage == nil, "flip at \(position): damage reported before anything was read")
            _ = Array(index.features)
            var stats = QueryStats()
            _ = index.containing(somewhere, stats: &stats)
            guard let damage = index.snapshotDamage else { Issue.record("flip at \(position) was not found"); continue }
            if case .checksumMismatch = damage.reason {} else { Issue.record("flip at \(position): \(damage)") }
            foundOnReading += 1
        }
        // The features' own sections and the circle tree are most of the file: their damage is found when read.
        #expect(foundOnReading > 1_000)
        let intact = try FeatureIndex(mapping: SnapshotFile(bytes: bytes))
        _ = Array(intact.features)
        var stats = QueryStats()
        _ = intact.containing(somewhere, stats: &stats)
        #expect(intact.snapshotDamage == nil)
    }

    /// The point tree (every query but `containing` reads it) is verified when the file is mapped.
    @Test func damagedPointTreesAreRefusedWhenMapped() throws {
        let bytes = FeatureIndex(try Self.richFeatures(count: 600, seed: 5)).snapshotBytes()
        let file = try SnapshotFile(bytes: bytes)
        for tag: StaticString in ["PCRD", "PIDS"] {
            let range = try #require(file.sections[SnapshotFormat.tag(tag)])
            var damaged = bytes
            damaged[range.lowerBound + range.count / 2] ^= 1
            #expect(throws: SnapshotError.self, "\(tag)") { try FeatureIndex(mapping: SnapshotFile(bytes: damaged)) }
        }
    }

    /// The circle tree is checked at the first `containing`: a damaged or inconsistent one answers nothing and is
    /// reported by `snapshotDamage` (so `StoreIndex.answer` rebuilds), while the point queries never wait for it.
    @Test func damagedCircleTreesAreFoundAtTheFirstContainment() throws {
        // Enough features that the middle of each large circle section is in a block of its own.
        let features = try Self.richFeatures(count: 3_000, seed: 5)
        let memory = FeatureIndex(features)
        let bytes = memory.snapshotBytes()
        let file = try SnapshotFile(bytes: bytes)
        let inside = try #require(features.first { $0.radiusMeters != nil }).location
        var stats = QueryStats()
        let expected = memory.containing(inside, stats: &stats).map(\.item)
        #expect(!expected.isEmpty)
        #expect(try FeatureIndex(mapping: file).containing(inside, stats: &stats).map(\.item) == expected)

        func mappedAnswer(_ damaged: [UInt8]) throws -> (items: [Int], damage: SnapshotError?) {
            let index = try FeatureIndex(mapping: SnapshotFile(bytes: damaged))
            #expect(index.snapshotDamage == nil)
            #expect(index.search(in: .world, stats: &stats).count == features.count)
            return (index.containing(inside, stats: &stats).map(\.item), index.snapshotDamage)
        }
        for tag: StaticString in ["CIDS", "CCRD", "CVAL", "CMAX", "CITM"] {
            let range = try #require(file.sections[SnapshotFormat.tag(tag)])
            var damaged = bytes
            damaged[range.lowerBound + range.count / 2] ^= 1
            guard let answer = try? mappedAnswer(damaged) else {
                // The node radii are small enough to share a block with the point tree, verified at mapping.
                #expect("\(tag)" == "CMAX", "\(tag) refused at mapping")
                continue
            }
            #expect(answer.items.isEmpty, "\(tag)")
            if case .checksumMismatch? = answer.damage?.reason {} else { Issue.record("\(tag): \(String(describing: answer.damage))") }
        }
        // Item numbers beyond the counts, with the checksums recomputed, as a forger would: refused before any read.
        for (tag, detail): (StaticString, String) in [("CIDS", "circle"), ("CITM", "feature")] {
            let range = try #require(file.sections[SnapshotFormat.tag(tag)])
            var forged = bytes
            forged.withUnsafeMutableBytes { $0.storeBytes(of: UInt32.max, toByteOffset: range.lowerBound, as: UInt32.self) }
            let answer = try mappedAnswer(Self.resealed(forged))
            #expect(answer.items.isEmpty, "\(tag)")
            if case .invalidContent(let section, let message)? = answer.damage?.reason {
                #expect(section == "\(tag)")
                #expect(message.contains("a \(detail) is not below"))
            } else { Issue.record("\(tag): \(String(describing: answer.damage))") }
        }
    }

    @Test func truncationAtEveryLengthIsRefused() throws {
        let bytes = try Self.sample()
        for length in 0..<bytes.count {
            let reason = Self.reason(Array(bytes.prefix(length)))
            switch length {
            case 0: #expect(reason == .notASnapshot)
            case 1..<SnapshotFormat.headerBytes: #expect(reason == .truncated(atByte: length, ofBytes: nil))
            default: #expect(reason == .truncated(atByte: length, ofBytes: bytes.count))
            }
        }
        #expect(Self.reason(bytes + [0]) == .trailingBytes(fileBytes: bytes.count + 1, expectedBytes: bytes.count))
        #expect(Self.reason(bytes) == nil)
    }

    @Test func wrongMagicFutureVersionAndOtherByteOrderAreNamed() throws {
        let bytes = try Self.sample()
        #expect(Self.reason(Array("PK\u{3}\u{4} this is a zip file, not a snapshot at all........".utf8)) == .notASnapshot)
        #expect(Self.reason(Array("CAIRN".utf8)) == .truncated(atByte: 5, ofBytes: nil))
        var future = bytes
        future.withUnsafeMutableBytes { $0.storeBytes(of: SnapshotFormat.version + 1, toByteOffset: 12, as: UInt32.self) }
        #expect(Self.reason(future) == .unsupportedVersion(found: SnapshotFormat.version + 1, supported: SnapshotFormat.version))
        let error = try #require(throws: SnapshotError.self) { try SnapshotFile(bytes: future, path: "f.snapshot") }
        #expect(error.description == "f.snapshot: unsupported snapshot version \(SnapshotFormat.version + 1) (this build reads version \(SnapshotFormat.version)); rebuild the snapshot")
        var swapped = bytes
        swapped.withUnsafeMutableBytes { $0.storeBytes(of: SnapshotFormat.byteOrderMark.byteSwapped, toByteOffset: 8, as: UInt32.self) }
        #expect(Self.reason(swapped) == .byteOrderMismatch)
        let truncated = try #require(throws: SnapshotError.self) { try SnapshotFile(bytes: Array(bytes.prefix(100)), path: "t.snapshot") }
        #expect(truncated.description == "t.snapshot: snapshot truncated at byte 100 of \(bytes.count)")
    }

    // MARK: - Crafted files (valid checksum, inconsistent content)

    /// Recomputes the checksum after an edit, as a deliberate forger would.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var sealed = bytes
        SnapshotBuilder.seal(&sealed)
        return sealed
    }

    /// The byte range of a section, from the section table.
    static func section(_ name: StaticString, in bytes: [UInt8]) throws -> Range<Int> {
        let file = try SnapshotFile(bytes: bytes)
        return try #require(file.sections[SnapshotFormat.tag(name)])
    }

    /// The section-table entry offset of a section.
    static func tableEntry(_ name: StaticString, in bytes: [UInt8]) throws -> Int {
        let count = Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 32, as: UInt32.self) })
        let tag = SnapshotFormat.tag(name)
        for entry in 0..<count {
            let at = SnapshotFormat.headerBytes + entry * SnapshotFormat.sectionEntryBytes
            if bytes.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }) == tag { return at }
        }
        Issue.record("no section \(name)")
        return 0
    }

    @Test func craftedInconsistenciesAreRefused() throws {
        let bytes = try Self.sample()
        func edited(_ edit: (inout [UInt8]) -> Void) -> SnapshotError.Reason? {
            var copy = bytes
            edit(&copy)
            return Self.reason(Self.resealed(copy))
        }
        func store<T>(_ value: T, at offset: Int, in b: inout [UInt8]) {
            b.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: offset, as: T.self) }
        }
        // A section reaching past the end of the file.
        let pids = try Self.tableEntry("PIDS", in: bytes)
        let outOfBounds = edited { store(UInt64(bytes.count), at: pids + 16, in: &$0) }
        if case .sectionOutOfBounds(let name, _, _, _)? = outOfBounds { #expect(name == "PIDS") } else { Issue.record("\(String(describing: outOfBounds))") }
        // A section pointing into the header.
        let intoHeader = edited { store(UInt64(0), at: pids + 8, in: &$0) }
        if case .sectionOutOfBounds? = intoHeader {} else { Issue.record("\(String(describing: intoHeader))") }
        // A missing section (its tag renamed).
        #expect(edited { store(SnapshotFormat.tag("XXXX"), at: pids, in: &$0) } == .missingSection("PIDS"))
        // An item out of range in the point index.
        let ids = try Self.section("PIDS", in: bytes)
        if case .invalidContent(let name, let detail)? = edited({ store(UInt32(999_999), at: ids.lowerBound, in: &$0) }) {
            #expect(name == "PIDS" && detail.contains("999999"))
        } else { Issue.record("item out of range accepted") }
        // A repeated item.
        let repeated = edited { b in
            let first = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: ids.lowerBound, as: UInt32.self) }
            store(first, at: ids.lowerBound + 4, in: &b)
        }
        if case .invalidContent(_, let detail)? = repeated { #expect(detail.contains("twice")) } else { Issue.record("repeated item accepted") }
        // Coordinates out of order for the k-d tree (swap the first and last points' longitudes).
        // (Position 0 is in the left half of the root's longitude split: at 180 it lies above the split.)
        let larger = try Self.sample(count: 300)
        let largerCoordinates = try Self.section("PCRD", in: larger)
        var disorderedBytes = larger
        store(180.0, at: largerCoordinates.lowerBound, in: &disorderedBytes)
        let disordered = Self.reason(Self.resealed(disorderedBytes))
        let coordinates = try Self.section("PCRD", in: bytes)
        if case .invalidContent(_, let detail)? = disordered { #expect(detail.contains("split")) } else { Issue.record("disorder accepted: \(String(describing: disordered))") }
        // A latitude that is not a latitude.
        let notLatitude = edited { store(Double.nan, at: coordinates.lowerBound + 8, in: &$0) }
        if case .invalidContent(_, let detail)? = notLatitude { #expect(detail.contains("not WGS84")) } else { Issue.record("NaN latitude accepted") }
        // A feature's id pointing past the string table.
        let records = try Self.section("FEAT", in: bytes)
        if case .invalidContent(let name, _)? = edited({ store(UInt32.max, at: records.lowerBound, in: &$0) }) {
            #expect(name == "FEAT")
        } else { Issue.record("string index out of range accepted") }
        // An unknown kind.
        if case .invalidContent(_, let detail)? = edited({ $0[records.lowerBound + 4] = 9 }) {
            #expect(detail.contains("kind"))
        } else { Issue.record("unknown kind accepted") }
        // A feature's attributes beyond the attribute table.
        if case .invalidContent? = edited({ store(UInt32(1_000_000), at: records.lowerBound + 12, in: &$0) }) {} else {
            Issue.record("attribute range accepted")
        }
        // The circle tree losing a circle.
        let tree = try Self.section("CTRE", in: bytes)
        if case .invalidContent(let name, _)? = edited({ b in
            let n = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: tree.lowerBound, as: UInt32.self) }
            store(n - 1, at: tree.lowerBound, in: &b)
        }) { #expect(name == "CTRE") } else { Issue.record("circle count accepted") }
        // A circle twice in the tree.
        let circleIds = try Self.section("CIDS", in: bytes)
        if case .invalidContent(let name, _)? = edited({ b in
            let first = b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: circleIds.lowerBound, as: UInt32.self) }
            store(first, at: circleIds.lowerBound + 4, in: &b)
        }) { #expect(name == "CIDS") } else { Issue.record("a circle twice accepted") }
    }

    /// Random edits with a recomputed checksum: every outcome is a clean error or a consistent index, never a crash.
    @Test func randomCraftedEditsNeverCrash() throws {
        let bytes = try Self.sample()
        var random = SeededRandom(seed: 2026)
        var refused = 0
        for _ in 0..<1500 {
            var copy = bytes
            for _ in 0..<(1 + random.below(3)) {
                let position = SnapshotFormat.checksumStart + random.below(bytes.count - SnapshotFormat.checksumStart)
                switch random.below(3) {
                case 0: copy[position] ^= UInt8(1 << random.below(8))
                case 1: copy[position] = UInt8(random.below(256))
                default: copy[position] = [0, 0xFF, 0x7F, 0x80][random.below(4)]
                }
            }
            let sealed = Self.resealed(copy)
            do {
                let index = try FeatureIndex(snapshot: SnapshotFile(bytes: sealed))
                // Accepted: then it must be usable.
                var stats = QueryStats()
                _ = index.nearest(to: try Coordinate(latitude: 10, longitude: 20), count: 3, stats: &stats)
                _ = index.containing(try Coordinate(latitude: 10, longitude: 20), stats: &stats)
                for feature in index.features { _ = feature.timeWindow?.start.iso8601; _ = feature.attributes.values.map(\.description) }
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0)
    }
}
