import CairnTestSupport
import CairnCore
import GRDB
import Testing
@testable import CairnStore

/// A first import drops the kind index with the R*Tree triggers and builds it again before commit.
@Suite("Kind index around a bulk load")
struct KindIndexBulkLoadTests {
    private func kindIndexSQL(_ store: FeatureStore) throws -> [String] {
        try store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'feature' AND sql IS NOT NULL")
        }
    }

    @Test("the index is there after a first import, with the migration's SQL, and queries by kind use it")
    func rebuiltAtCommit() throws {
        try withTemporaryStore { store, _ in
            #expect(try kindIndexSQL(store) == [StoreSchema.kindIndexSQL])
            try store.write { writer in
                try writer.upsert((0..<500).map { try point("p\($0)", latitude: 1, longitude: Double($0) / 10) })
                try writer.upsert((0..<500).map { try point("e\($0)", latitude: 2, longitude: 3, kind: .event) })
                // Inside the transaction the index is gone, and the rows still answer by kind.
                #expect(try Int.fetchOne(writer.db, sql: "SELECT count(*) FROM sqlite_master WHERE name = 'feature_kind'") == 0)
                #expect(try Int.fetchOne(writer.db, sql: "SELECT count(*) FROM feature WHERE kind = 'event'") == 500)
            }
            #expect(try kindIndexSQL(store) == [StoreSchema.kindIndexSQL])
            let (count, plan) = try store.pool.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM feature WHERE kind = 'event'"),
                 try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM feature WHERE kind = 'event'")
                    .map { $0["detail"] as String? ?? "" }.joined(separator: " "))
            }
            #expect(count == 500)
            #expect(plan.contains("feature_kind"))
            let integrity = try store.pool.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"])
        }
    }

    @Test("a rolled-back first import leaves the index in place")
    func keptByRollback() throws {
        try withTemporaryStore { (store: FeatureStore, _: TemporaryFolder) throws in
            #expect(throws: ExpectedTestError.self) {
                try store.write { writer in
                    try writer.upsert([try point("a", latitude: 1, longitude: 2)])
                    throw ExpectedTestError()
                }
            }
            #expect(try kindIndexSQL(store) == [StoreSchema.kindIndexSQL])
            #expect(try store.count() == 0)
        }
    }

    @Test("a store whose kind index was dropped with plain SQL still imports, and gets none back")
    func missingIndexTolerated() throws {
        try withTemporaryStore { store, _ in
            try store.pool.write { db in try db.execute(sql: "DROP INDEX feature_kind") }
            try store.write { writer in try writer.upsert([try point("a", latitude: 1, longitude: 2)]) }
            #expect(try kindIndexSQL(store) == [])
            #expect(try store.count() == 1)
        }
    }
}
