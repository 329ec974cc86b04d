import CairnTestSupport
import CairnCore
import GRDB
import Testing
@testable import CairnStore

/// Issue #15 item 9: the packed load held 32 bytes a row until commit (160 MB at 5,000,000 rows). Past one chunk it
/// now sorts runs in a scratch file and merges them as the tree is written: memory is the chunk and the merge
/// buffers, and the tree is the one the in-memory sort builds, node for node.
@Suite("R*Tree bulk load in bounded memory")
struct RTreeBulkLoadChunkTests {
    /// Seeded points, a third of them on a few shared spots (equal Hilbert keys across runs, ordered by rowid),
    /// some on the antimeridian, with a few ids given twice.
    private func features(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        var features: [Feature] = []
        for i in 0..<count {
            let shared = i % 3 == 0
            let latitude = shared ? Double(i % 4) : Double.random(in: -90...90, using: &random)
            let longitude = shared ? 180 - Double(i % 4) : i % 97 == 0 ? -180 : Double.random(in: -180...180, using: &random)
            let id = i % 500 == 499 ? "p\(i - 400)" : "p\(i)"
            features.append(try point(id, latitude: latitude, longitude: longitude))
        }
        return features
    }

    /// Imports `features` into a new store in one write with `limits`, and returns the load's report and the
    /// R*Tree's shadow tables.
    private func load(_ features: [Feature], limits: RTreeBulkLoad.Limits) throws -> (RTreeBulkLoad.Report?, [[String]]) {
        var report: RTreeBulkLoad.Report?
        var tables: [[String]] = []
        try withTemporaryStore { store, _ in
            var used: FeatureStoreWriter?
            try store.write { writer in
                used = writer
                writer.rtreeLoadLimits = limits
                try writer.upsert(features.prefix(features.count / 2))
                try writer.upsert(features.suffix(from: features.count / 2))
            }
            report = used?.rtreeLoadReport
            try expectRTreeConsistent(store)
            tables = try store.pool.read { db in
                [try String.fetchAll(db, sql: "SELECT nodeno || ':' || hex(data) FROM feature_rtree_node ORDER BY nodeno"),
                 try String.fetchAll(db, sql: "SELECT nodeno || ':' || parentnode FROM feature_rtree_parent ORDER BY nodeno"),
                 try String.fetchAll(db, sql: "SELECT rowid || ':' || nodeno FROM feature_rtree_rowid ORDER BY rowid")]
            }
        }
        return (report, tables)
    }

    @Test("past one chunk, memory is one chunk and the merge buffers, and the tree is the same", arguments: [
        RTreeBulkLoad.Limits(chunkEntries: 200, mergeFanIn: 3, bufferEntries: 16),
        RTreeBulkLoad.Limits(chunkEntries: 1000, mergeFanIn: 64, bufferEntries: 7),
        RTreeBulkLoad.Limits(chunkEntries: 4, mergeFanIn: 2, bufferEntries: 1),
    ])
    func boundedAndSame(limits: RTreeBulkLoad.Limits) throws {
        let features = try features(count: 6000, seed: 15)
        let (inMemory, expected) = try load(features, limits: RTreeBulkLoad.Limits(chunkEntries: 1 << 20))
        let (chunked, tables) = try load(features, limits: limits)
        let entries = Set(features.map(\.id)).count
        #expect(inMemory?.entries == entries && inMemory?.runs == 0)
        let report = try #require(chunked)
        #expect(report.entries == entries)
        #expect(report.runs == (entries + limits.chunkEntries - 1) / limits.chunkEntries)
        // A chunk, or the merge's buffers (a run's buffer per run merged, and one for a merged run written).
        let bound = max(limits.chunkEntries + limits.bufferEntries, (limits.mergeFanIn + 1) * limits.bufferEntries)
        #expect(report.peakEntriesInMemory <= bound)
        #expect(tables == expected)
        #expect(tables[2].count == entries)
    }

    @Test("a load of one chunk or less never makes a scratch file")
    func oneChunkInMemory() throws {
        let features = try features(count: 500, seed: 16)
        let (report, _) = try load(features, limits: RTreeBulkLoad.Limits(chunkEntries: 500))
        #expect(report?.runs == 0)
        #expect(report?.peakEntriesInMemory == Set(features.map(\.id)).count)
    }
}
