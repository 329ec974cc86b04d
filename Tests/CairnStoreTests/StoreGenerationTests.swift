import CairnTestSupport
import CairnCore
import CairnStore
import Foundation
import GRDB
import Testing

/// The store's write generation and identifier: what tells a snapshot it is stale.
@Suite struct StoreGenerationTests {
    @Test func everyCommittedWriteAdvancesTheGeneration() throws {
        try withTemporaryStore { store, _ in
            #expect(try store.generation() == 0)
            try store.upsert([try point("a", latitude: 1, longitude: 2), try point("b", latitude: 3, longitude: 4)])
            #expect(try store.generation() == 1)
            try store.upsert([try point("a", latitude: 5, longitude: 6)])
            #expect(try store.generation() == 2)
            #expect(try store.delete(id: "b"))
            #expect(try store.generation() == 3)
            try store.write { writer in
                try writer.upsert([try point("c", latitude: 0, longitude: 0)])
                _ = try writer.delete(id: "a")
            }
            #expect(try store.generation() == 4)
        }
    }

    @Test func aRolledBackWriteLeavesTheGeneration() throws {
        try withTemporaryStore { store, _ in
            try store.upsert([try point("a", latitude: 1, longitude: 2)])
            #expect(throws: ExpectedTestError.self) {
                try store.write { writer in
                    try writer.upsert([try point("b", latitude: 1, longitude: 2)])
                    throw ExpectedTestError()
                }
            }
            #expect(try store.generation() == 1)
            #expect(try store.count() == 1)
        }
    }

    @Test func theIdentifierIsStableAndDiffersBetweenStores() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try FeatureStore(path: folder.path("one.sqlite")).identifier()
        #expect(first.count == 32 && first.allSatisfy(\.isHexDigit))
        #expect(try FeatureStore(path: folder.path("one.sqlite")).identifier() == first)
        #expect(try FeatureStore(path: folder.path("two.sqlite")).identifier() != first)
        // Reopening keeps the generation.
        try FeatureStore(path: folder.path("one.sqlite")).upsert([try point("a", latitude: 1, longitude: 2)])
        #expect(try FeatureStore(path: folder.path("one.sqlite")).generation() == 1)
    }

    @Test func aStoreMadeBeforeTheMetaTableIsMigrated() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path()
        // A version-1 store: only the first migration, with a feature in it.
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                    INSERT INTO grdb_migrations VALUES ('v1: feature table, kind index, R*Tree and sync triggers');
                    CREATE TABLE feature (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, kind TEXT NOT NULL,
                        latitude REAL NOT NULL, longitude REAL NOT NULL, radius_m REAL, start_time REAL, end_time REAL,
                        attributes TEXT NOT NULL DEFAULT '{}');
                    CREATE VIRTUAL TABLE feature_rtree USING rtree(rowid, min_lon, max_lon, min_lat, max_lat);
                    INSERT INTO feature (id, kind, latitude, longitude) VALUES ('old', 'park', 10, 20);
                    """)
            }
        }
        let store = try FeatureStore(path: path)
        #expect(try store.generation() == 0)
        #expect(try store.identifier().count == 32)
        #expect(try store.feature(id: "old") != nil)
        _ = try store.delete(id: "old")
        #expect(try store.generation() == 1)
    }
}
