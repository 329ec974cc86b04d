import CairnCore
import CairnStore
import CairnTestSupport
import Foundation
import Testing

/// The first query after a write streams the store's rows into the snapshot (`StoreIndex.prepareSnapshot`), writes
/// it and answers from it mapped: the file holds exactly the bytes of the snapshot of the index built in memory
/// (`FeatureIndex.snapshotBytes`, itself checked against the writer before streaming in `SnapshotStreamingTests`).
@Suite struct StoreSnapshotStreamingTests {
    /// Seeded features with every attribute type, radii on some, time windows on events.
    static func features(count: Int, seed: UInt64, prefix: String = "f") throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { n in
            let kind: FeatureKind = [.park, .place, .event, .user][n % 4]
            let start = Timestamp(secondsSince1970: random.uniform(0...2e9).rounded())
            return try Feature(
                id: "\(prefix)\(n)", kind: kind,
                location: Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180)),
                radiusMeters: n % 3 == 0 ? nil : random.uniform(10...20_000),
                timeWindow: kind == .event ? try TimeWindow(start: start, end: Timestamp(secondsSince1970: start.secondsSince1970 + 60)) : nil,
                attributes: ["name": .string("name \(n % 97)"), "rating": .number(random.uniform(0...5)),
                             "fenced": .bool(n % 2 == 0), "tags": .set(["a\(n % 5)", "b"]),
                             "opened": .time(Timestamp(secondsSince1970: Double(n)))])
        }
    }

    /// The first query's snapshot: written, mapped, and byte for byte the in-memory index's snapshot with the
    /// store's stamp; the index answers as a fresh one.
    static func expectStreamedSnapshot(_ store: FeatureStore) throws {
        let storeIndex = StoreIndex(store: store)
        let first = try storeIndex.current()
        guard case .built(_, .written(let byteCount)) = first.source else { Issue.record("\(first.source)"); return }
        #expect(first.index.features.isMapped, "the first query answers from the snapshot it wrote")
        let built = try storeIndex.build()
        let expected = built.snapshotBytes(metadata: try storeIndex.stamp())
        let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: storeIndex.snapshotPath)))
        #expect(written == expected)
        #expect(byteCount == expected.count)
        #expect(Array(first.index.features) == Array(built.features))
        let box = try BoundingBox(west: -60, south: -30, east: 100, north: 70)
        #expect(first.index.search(in: box, filter: .all) == built.search(in: box, filter: .all))
        let center = try Coordinate(latitude: 10, longitude: 10)
        #expect(first.index.nearest(to: center, count: 7, model: .wgs84, filter: .all)
                == built.nearest(to: center, count: 7, model: .wgs84, filter: .all))
        let folder = (storeIndex.snapshotPath as NSString).deletingLastPathComponent
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        #expect(Self.fromSnapshot(try storeIndex.current()))
    }

    static func fromSnapshot(_ loaded: StoreIndex.Loaded) -> Bool {
        if case .snapshot = loaded.source { return true }
        return false
    }

    @Test(arguments: ["seeded", "empty", "one", "identical"])
    func theFirstQueryWritesTheSnapshotOfTheBuiltIndex(_ dataset: String) throws {
        try withTemporaryStore { store, _ in
            switch dataset {
            case "seeded": try store.upsert(try Self.features(count: 3_000, seed: 11))
            case "one": try store.upsert([try point("only", latitude: -33.9, longitude: 151.2)])
            case "identical":
                try store.upsert(try (0..<500).map { try point("same\($0)", latitude: 60.17, longitude: 24.94) })
            default: break
            }
            try Self.expectStreamedSnapshot(store)
        }
    }

    /// Deletes and upserts (updates keep their row, new ids come last) between snapshots: the next snapshot is the
    /// store's new state, in its row order.
    @Test func anEditedStoreIsSnapshottedAsItIsNow() throws {
        try withTemporaryStore { store, _ in
            try store.upsert(try Self.features(count: 2_000, seed: 12))
            _ = try StoreIndex(store: store).current()
            for n in stride(from: 0, to: 2_000, by: 7) { #expect(try store.delete(id: "f\(n)")) }
            // New values for existing ids, and new ids.
            try store.upsert(try Self.features(count: 300, seed: 13).filter { !$0.id.hasSuffix("0") })
            try store.upsert(try Self.features(count: 250, seed: 14, prefix: "new"))
            try Self.expectStreamedSnapshot(store)
            let ids = try StoreIndex(store: store).current().index.features.map(\.id)
            #expect(!ids.contains("f1001") && ids.contains("f7") && ids.contains("new249") && ids.count == Set(ids).count)
        }
    }

    /// `writeSnapshot(to:metadata:)` (what `cairn snapshot` can use) writes the same bytes elsewhere.
    @Test func writeSnapshotWritesTheSameBytes() throws {
        try withTemporaryStore { store, folder in
            try store.upsert(try Self.features(count: 1_000, seed: 15))
            let storeIndex = StoreIndex(store: store)
            let stamp = try storeIndex.stamp()
            let path = folder.path("elsewhere.snapshot")
            let written = try storeIndex.writeSnapshot(to: path, metadata: stamp)
            #expect(written.featureCount == 1_000)
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            #expect(bytes.count == written.byteCount)
            #expect(bytes == (try storeIndex.build().snapshotBytes(metadata: stamp)))
        }
    }
}
