import CairnTestSupport
import CairnCore
import GRDB
import Testing
@testable import CairnStore

@Suite("R*Tree bulk load")
struct RTreeBulkLoadTests {
    /// Seeded points in a store's first transaction, then edits through the triggers.
    @Test("a first import is packed into a valid three-level R*Tree that later edits keep valid")
    func packedThenEdited() throws {
        var random = SplitMix64(seed: 42)
        var features: [Feature] = []
        for i in 0..<6000 {
            let latitude = Double.random(in: -90...90, using: &random)
            let longitude = i % 100 == 0 ? 180 : Double.random(in: -180...180, using: &random)
            features.append(try point("p\(i)", latitude: latitude, longitude: longitude))
        }
        try withTemporaryStore { store, _ in
            try store.write { writer in
                try writer.upsert(features.prefix(3000))
                try writer.upsert(features.suffix(3000))
                #expect(try writer.delete(id: "p7"))
            }
            features.removeAll { $0.id == "p7" }
            try expectRTreeConsistent(store)
            let (nodes, rootDepth) = try store.pool.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feature_rtree_node"),
                 try String.fetchOne(db, sql: "SELECT hex(substr(data, 1, 2)) FROM feature_rtree_node WHERE nodeno = 1"))
            }
            // 5999 cells, 51 per node: 118 leaves, 3 inner nodes, the root; depth 2 in the root's first two bytes.
            #expect(nodes == 122)
            #expect(rootDepth == "0002")
            #expect(try triggerCount(store) == 3)
            try expectBoxesMatch(store, features, seed: 7)

            // Edits after the load go through SQLite's own R*Tree code (splits of full nodes included).
            var moved: [Feature] = []
            for i in stride(from: 0, to: 6000, by: 3) where i != 7 {
                moved.append(try point("p\(i)", latitude: Double.random(in: -90...90, using: &random), longitude: 0))
            }
            for i in 6000..<7000 {
                moved.append(try point("p\(i)", latitude: Double.random(in: -90...90, using: &random), longitude: -45))
            }
            try store.upsert(moved)
            for i in stride(from: 1, to: 6000, by: 5) where i != 7 { try store.delete(id: "p\(i)") }
            var all: [Feature] = []
            try store.forEachFeature { all.append($0) }
            try expectRTreeConsistent(store)
            try expectBoxesMatch(store, all, seed: 8)
        }
    }

    @Test("a failed first import leaves an empty store with its triggers")
    func failedFirstImport() throws {
        try withTemporaryStore { store, _ in
            #expect(throws: ExpectedTestError.self) {
                try store.write { writer in
                    try writer.upsert(try sampleFeatures())
                    throw ExpectedTestError()
                }
            }
            #expect(try store.count() == 0)
            #expect(try triggerCount(store) == 3)
            // The next single upsert is packed too, and the one after that uses the triggers.
            try store.upsert([try point("a", latitude: 1, longitude: 2)])
            try store.upsert([try point("b", latitude: 3, longitude: 4)])
            #expect(try store.features(inBoxWest: 0, south: 0, east: 5, north: 5).map(\.id) == ["a", "b"])
            try expectRTreeConsistent(store)
        }
    }

    @Test("outward rounding to Float never shrinks a coordinate", arguments: [UInt64(1), 2])
    func outwardRounding(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for _ in 0..<10_000 {
            let value = Double.random(in: -180...180, using: &random)
            let down = RTreeBulkLoad.roundedDown(value), up = RTreeBulkLoad.roundedUp(value)
            #expect(Double(down) <= value && value <= Double(up))
            #expect(down == up || down.nextUp == up)
        }
    }

    private func triggerCount(_ store: FeatureStore) throws -> Int? {
        try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master WHERE type = 'trigger'") }
    }

    private func expectBoxesMatch(_ store: FeatureStore, _ features: [Feature], seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<25 {
            let a = Double.random(in: -90...90, using: &random), b = Double.random(in: -90...90, using: &random)
            let west = Double.random(in: -180...180, using: &random)
            let east = min(180, west + Double.random(in: 0...60, using: &random))
            let found = try store.features(inBoxWest: west, south: min(a, b), east: east, north: max(a, b)).map(\.id)
            #expect(found == bruteForceBox(features, west: west, south: min(a, b), east: east, north: max(a, b)))
        }
    }
}
