import CairnCore
import CairnStore
import CairnTestSupport
import Foundation
import Testing

/// The store's own index: the snapshot is refreshed after a write, refused and rebuilt when stale, damaged or
/// foreign, and the mapped index answers exactly as a freshly built one.
@Suite struct StoreIndexTests {
    /// Whether the index came from the snapshot.
    static func fromSnapshot(_ loaded: StoreIndex.Loaded) -> Bool {
        if case .snapshot = loaded.source { return true }
        return false
    }

    /// The rebuild reason, or nil when the snapshot was used.
    static func reason(_ loaded: StoreIndex.Loaded) -> StoreIndex.RebuildReason? {
        if case .built(let reason, _) = loaded.source { return reason }
        return nil
    }

    static func places(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { n in
            try Feature(id: "p\(n)", kind: n % 3 == 0 ? .park : .place,
                        location: Coordinate(latitude: random.uniform(-60...60), longitude: random.uniform(-180...180)),
                        radiusMeters: random.uniform(100...50_000), attributes: ["name": .string("place \(n)"), "n": .number(Double(n))])
        }
    }

    @Test func aWriteIsSeenByTheNextIndexAndRefreshesTheSnapshot() throws {
        try withTemporaryStore { store, _ in
            try store.upsert(try Self.places(count: 50, seed: 1))
            let storeIndex = StoreIndex(store: store)
            let first = try storeIndex.current()
            guard case .noSnapshot? = Self.reason(first) else { Issue.record("\(first.source)"); return }
            guard case .built(_, .written) = first.source else { Issue.record("\(first.source)"); return }
            let second = try storeIndex.current()
            #expect(Self.fromSnapshot(second))
            #expect(second.index.features.isMapped)
            #expect(second.index.features == first.index.features)

            try store.upsert([try point("new", latitude: 10, longitude: 20)])
            let third = try storeIndex.current()
            guard case .stale(_, let storeGeneration, let snapshotGeneration)? = Self.reason(third) else {
                Issue.record("\(third.source)"); return
            }
            #expect(storeGeneration == "2" && snapshotGeneration == "1")
            #expect(third.index.count == 51 && third.index.features.contains { $0.id == "new" })
            let fourth = try storeIndex.current()
            #expect(Self.fromSnapshot(fourth) && fourth.index.features.map(\.id) == third.index.features.map(\.id))
        }
    }

    @Test func damagedTruncatedForeignAndOldSnapshotsAreRebuilt() throws {
        try withTemporaryStore { store, folder in
            try store.upsert(try Self.places(count: 40, seed: 2))
            let storeIndex = StoreIndex(store: store)
            _ = try storeIndex.current()
            let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storeIndex.snapshotPath)))

            // A snapshot of another store at the same generation.
            let other = try FeatureStore(path: folder.path("other.sqlite"))
            try other.upsert(try Self.places(count: 40, seed: 2))
            let foreign = try StoreIndex(store: other).build().snapshotBytes(metadata: StoreIndex(store: other).stamp())
            var damaged = good
            damaged[damaged.count / 2] ^= 0x10
            var oldVersion = good
            oldVersion.withUnsafeMutableBytes { $0.storeBytes(of: UInt32(2), toByteOffset: 12, as: UInt32.self) }

            let cases: [(String, [UInt8])] = [
                ("damaged", damaged), ("truncated", Array(good.prefix(good.count - 9))), ("foreign", foreign),
                ("old version", oldVersion), ("not a snapshot", Array("hello".utf8)), ("empty", []),
            ]
            for (name, bytes) in cases {
                try Data(bytes).write(to: URL(fileURLWithPath: storeIndex.snapshotPath))
                // Decoding every feature reads every block, so damage anywhere is found (at open or on reading).
                let (features, loaded) = try storeIndex.answer { Array($0.features) }
                switch (name, Self.reason(loaded)) {
                case ("damaged", .refused(let error)?):
                    if case .checksumMismatch = error.reason {} else { Issue.record("\(name): \(error)") }
                case ("truncated", .refused(let error)?):
                    if case .truncated = error.reason {} else { Issue.record("\(name): \(error)") }
                case ("foreign", .stale?): break
                case ("old version", .refused(let error)?):
                    #expect(error.reason == .unsupportedVersion(found: 2, supported: SnapshotFormat.version))
                case ("not a snapshot", .refused(let error)?), ("empty", .refused(let error)?):
                    #expect(error.reason == .notASnapshot)
                default: Issue.record("\(name): \(loaded.source)")
                }
                #expect(features == Array(try storeIndex.build().features), "\(name)")
                // Rewritten: the next one maps it.
                #expect(Self.fromSnapshot(try storeIndex.current()), "\(name)")
            }
        }
    }

    /// A block damaged after the snapshot was written is found when a query first reads it: the answer read from
    /// it is discarded and given again from a rebuilt index, and the snapshot is replaced. An attribute value is
    /// read when its feature is decoded; the circle tree when `containing` first runs.
    @Test(arguments: ["ATTV", "CVAL"])
    func damageFoundWhileAnsweringIsAnsweredAgainFromTheStore(section: String) throws {
        try withTemporaryStore { store, _ in
            let places = try Self.places(count: 2_000, seed: 3)
            try store.upsert(places)
            let storeIndex = StoreIndex(store: store)
            // What the query reads: every feature, or the places whose circle holds the first place's centre.
            func query(_ index: FeatureIndex) -> [Feature] {
                guard section == "CVAL" else { return Array(index.features) }
                var stats = QueryStats()
                return index.containing(places[0].location, stats: &stats).map { index.features[$0.item] }
            }
            let expected = query(try storeIndex.build())
            #expect(!expected.isEmpty)
            _ = try storeIndex.current()
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storeIndex.snapshotPath)))
            // A byte in the middle of the section, far from the point tree, which is verified at open.
            let range = try #require(Self.sectionRange(section, in: bytes))
            bytes[range.lowerBound + range.count / 2] ^= 0x40
            try Data(bytes).write(to: URL(fileURLWithPath: storeIndex.snapshotPath))

            let mapped = try storeIndex.current()
            let mappedFromSnapshot = Self.fromSnapshot(mapped)
            #expect(mappedFromSnapshot, "the damage is not in a block read at open: \(mapped.source)")
            #expect(mapped.index.snapshotDamage == nil)
            _ = mapped.index.features[0]
            #expect(mapped.index.snapshotDamage == nil, "the first feature's blocks are intact")

            let (answer, loaded) = try storeIndex.answer(query)
            guard case .refused(let error)? = Self.reason(loaded), case .checksumMismatch = error.reason else {
                Issue.record("not refused for its damage"); return
            }
            #expect(answer == expected, "the answer from the rebuilt index")
            let rewritten = Self.fromSnapshot(try storeIndex.current())
            #expect(rewritten, "the snapshot was rewritten")
            let again = try storeIndex.answer(query).answer == expected
            #expect(again)
        }
    }

    /// The byte range of the section `name` in snapshot `bytes` (see `SnapshotFormat`), or nil.
    static func sectionRange(_ name: String, in bytes: [UInt8]) -> Range<Int>? {
        func load<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T { bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: T.self) } }
        for entry in 0..<Int(load(32, UInt32.self)) {
            let at = SnapshotFormat.headerBytes + 24 * entry
            if Array(bytes[at..<(at + 4)]) == Array(name.utf8) {
                let offset = Int(load(at + 8, UInt64.self))
                return offset..<(offset + Int(load(at + 16, UInt64.self)))
            }
        }
        return nil
    }

    /// A backup restored over the store repeats an old generation; the content id still tells the states apart.
    @Test func aRestoredBackupDoesNotMatchASnapshotOfOtherContent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path(), backup = folder.path("backup.sqlite")
        do {
            let store = try FeatureStore(path: path)
            try store.upsert([try point("a", latitude: 1, longitude: 1)])
        }
        try FileManager.default.copyItem(atPath: path, toPath: backup)
        do {
            let store = try FeatureStore(path: path)
            try store.upsert([try point("b", latitude: 2, longitude: 2)])
            #expect(try store.generation() == 2)
            _ = try StoreIndex(store: store).current()
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: backup, toPath: path)
        let store = try FeatureStore(path: path)
        try store.upsert([try point("c", latitude: 3, longitude: 3)])
        #expect(try store.generation() == 2)
        let loaded = try StoreIndex(store: store).current()
        #expect(!Self.fromSnapshot(loaded))
        #expect(loaded.index.features.map(\.id).sorted() == ["a", "c"])
    }

    /// Seeded stores, including the antimeridian, the poles, an empty store, one point and identical points: the
    /// mapped snapshot answers every query exactly as a freshly built index over the same features.
    @Test(arguments: ["random", "antimeridian", "poles", "empty", "one", "identical"])
    func theMappedIndexAnswersAsAFreshOne(dataset: String) throws {
        var random = SplitMix64(seed: 99)
        var features: [Feature] = []
        func add(_ latitude: Double, _ longitude: Double) throws {
            let n = features.count
            features.append(try Feature(
                id: "f\(n)", kind: [.place, .park, .user][n % 3], location: Coordinate(latitude: latitude, longitude: longitude),
                radiusMeters: n % 4 == 0 ? nil : random.uniform(10...200_000),
                attributes: ["n": .number(Double(n)), "fenced": .bool(n % 2 == 0), "tags": .set(["a\(n % 5)", "b"])]))
        }
        switch dataset {
        case "random": for _ in 0..<2_000 { try add(random.uniform(-90...90), random.uniform(-180...180)) }
        case "antimeridian": for _ in 0..<800 { try add(random.uniform(-30...30), [180, -180, random.uniform(178...180), random.uniform(-180 ... -178)][random.below(4)]) }
        case "poles": for _ in 0..<800 { try add(random.chance(0.5) ? random.uniform(88...90) : -90, random.uniform(-180...180)) }
        case "one": try add(45, 7)
        case "identical": for _ in 0..<300 { try add(60.17, 24.94) }
        default: break
        }
        try withTemporaryStore { store, _ in
            try store.upsert(features)
            let storeIndex = StoreIndex(store: store)
            _ = try storeIndex.current()
            let loaded = try storeIndex.current()
            #expect(Self.fromSnapshot(loaded))
            let mapped = loaded.index, fresh = FeatureIndex(features)
            #expect(Array(mapped.features) == features)
            for q in 0..<60 {
                let center = dataset == "identical" ? try Coordinate(latitude: 60.17, longitude: 24.94)
                    : features.isEmpty || q % 3 == 0 ? try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
                    : features[random.below(features.count)].location
                let filter = [FeatureFilter.all, FeatureFilter(kinds: [.place]),
                              FeatureFilter(kinds: [], predicates: [try AttributePredicate(parsing: "fenced")])][q % 3]
                let model: DistanceModel = q % 2 == 0 ? .wgs84 : .sphere
                let west = random.uniform(-180...180), east = q % 4 == 0 ? west - random.uniform(0...20) : min(180, west + random.uniform(0...40))
                let box = try BoundingBox(west: west, south: random.uniform(-90...0), east: max(-180, east), north: random.uniform(0...90))
                #expect(mapped.search(in: box, filter: filter) == fresh.search(in: box, filter: filter))
                let radius = random.uniform(0...3_000_000)
                #expect(mapped.within(radiusMeters: radius, of: center, model: model, filter: filter)
                        == fresh.within(radiusMeters: radius, of: center, model: model, filter: filter))
                let k = 1 + random.below(30)
                #expect(mapped.nearest(to: center, count: k, model: model, filter: filter)
                        == fresh.nearest(to: center, count: k, model: model, filter: filter))
                #expect(mapped.containing(center, model: model, filter: filter) == fresh.containing(center, model: model, filter: filter))
            }
        }
    }
}
