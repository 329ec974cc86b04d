import CairnCore
import CairnIO
import CairnStore
import CairnTestSupport
import Foundation
import PostgresNIO
import Testing
@testable import CairnPostgres

@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil, PostgresTestDatabase.skipReason), .serialized)
struct PostgresStoreTests {
    @Test func migrationsCreateTheSchemaOnAnEmptyDatabaseOnce() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            #expect(try await store.count() == 0)
            #expect(try await store.generation() == 0)
            await store.close()
            // Again, and two at once: nothing left to do, nothing done twice.
            async let first = PostgresFeatureStore(url: database.url)
            async let second = PostgresFeatureStore(url: database.url)
            let (a, b) = try await (first, second)
            await a.close()
            await b.close()
            let session = try await PostgresSession.open(database.url, logger: database.logger)
            let versions = try await session.rows("SELECT version FROM cairn_schema_version ORDER BY version", action: "test") { try $0.decode(Int.self) }
            #expect(versions == PostgresSchema.migrations.map(\.version))
            let index = try await session.rows("""
                SELECT indexdef FROM pg_indexes WHERE indexname = 'cairn_feature_location'
                """, action: "test") { try $0.decode(String.self) }
            #expect(index.first?.contains("USING gist (location)") == true)
            let type = try await session.rows("""
                SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'cairn_feature'::regclass AND attname = 'location'
                """, action: "test") { try $0.decode(String.self) }
            #expect(type == ["geography(Point,4326)"])
            await session.close()
        }
    }

    @Test func aSchemaFromANewerCairnIsRefused() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            await store.close()
            try database.psql("INSERT INTO cairn_schema_version (version, description) VALUES (99, 'from the future')")
            await #expect(throws: PostgresStoreError.self) { _ = try await PostgresFeatureStore(url: database.url) }
        }
    }

    /// A feature with a shape (a park's polygon) is kept whole: imported, written and read back equal, WKB bit for bit.
    @Test func aShapeIsKeptWhole() async throws {
        var parks: [Feature] = []
        try openFeatureReader(path: try RepositoryData.path("Data/osm-helsinki-parks.geojson"), options: ImportOptions(kind: .park))
            .forEachRecord { parks.append($0) } rejected: { _ in }
        let shaped = try #require(parks.last { $0.shape?.kind.isAreal == true })
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            _ = try await store.importFeatures(parks)
            #expect(try await store.load().features == parks)
            #expect(try await store.feature(id: shaped.id)?.shape?.wkb == shaped.shape?.wkb)
            // Written one by one (a replica's PUT) under another id, and read back.
            let copy = try Feature(id: "copy", kind: .park, location: shaped.location, attributes: [:], shape: shaped.shape)
            try await store.write(upserting: [copy], deleting: [])
            #expect(try await store.feature(id: "copy") == copy)
            await store.close()
        }
    }

    /// The bundled data and awkward seeded features, imported into both stores: the same features, in the same order
    /// (the parks with their shapes).
    @Test func importReadsBackEqualToTheSQLiteStore() async throws {
        var features: [Feature] = []
        for (file, options) in [("Data/osm-helsinki-parks.geojson", ImportOptions(kind: .park)),
                                ("Data/osm-helsinki-poi.csv", ImportOptions(kind: .place, idColumn: "osm_id", defaultRadiusMeters: 150)),
                                ("Data/airports.csv.gz", ImportOptions(kind: .place, idColumn: "icao"))] {
            try openFeatureReader(path: try RepositoryData.path(file), options: options).forEachRecord { features.append($0) } rejected: { _ in }
        }
        features += try Self.awkwardFeatures()
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let sqlite = try FeatureStore(path: folder.path())
        try sqlite.write { try $0.upsert(features) }
        var expected: [Feature] = []
        try sqlite.forEachFeature { expected.append($0) }

        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            let (copied, generation) = try await store.importFeatures(Array(features))
            #expect(copied == features.count)
            #expect(generation == 1)
            let snapshot = try await store.load()
            #expect(snapshot.generation == 1)
            #expect(snapshot.features.count == expected.count)
            for (got, want) in zip(snapshot.features, expected) where got != want {
                Issue.record("\(got) != \(want)")
                break
            }
            #expect(snapshot.features == expected)
            await store.close()
        }
    }

    /// A failure part way (here the reader's) writes nothing: no row, no generation.
    @Test func aFailedImportWritesNothing() async throws {
        struct ReaderBroke: Error {}
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            let features = try Self.awkwardFeatures()
            var served = 0
            await #expect(throws: PostgresStoreError.self) {
                _ = try await store.importFeatures {
                    served += 1
                    if served > 5 { throw ReaderBroke() }
                    return features[served - 1]
                }
            }
            #expect(try await store.count() == 0)
            #expect(try await store.generation() == 0)
            // The store goes on working after it.
            _ = try await store.importFeatures(Array(features))
            #expect(try await store.count() == features.count)
            await store.close()
        }
    }

    /// The table's checks refuse what is no feature, also from plain SQL.
    @Test func plainSQLCannotWriteAnInvalidFeature() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            for values in ["'a', 'castle', 'SRID=4326;POINT(1 2)', NULL, NULL, NULL",
                           "'a', 'place', 'SRID=4326;POINT(1 2)', -5, NULL, NULL",
                           "'a', 'event', 'SRID=4326;POINT(1 2)', NULL, NULL, NULL",
                           "'a', 'place', 'SRID=4326;POINT(1 2)', NULL, 5, NULL",
                           "'', 'place', 'SRID=4326;POINT(1 2)', NULL, NULL, NULL"] {
                #expect(throws: PostgresStoreError.self) {
                    try database.psql("INSERT INTO cairn_feature (id, kind, location, radius_m, start_time, end_time) VALUES (\(values))")
                }
            }
            #expect(try await store.count() == 0)
            await store.close()
        }
    }

    @Test func writesAndDeletesAreLoggedByGeneration() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            let features = try Self.awkwardFeatures()
            _ = try await store.importFeatures(Array(features))
            let moved = try Feature(id: features[0].id, kind: .place, location: Coordinate(latitude: 1, longitude: 2), radiusMeters: 10)
            let (deleted, generation) = try await store.write(upserting: [moved], deleting: [features[1].id, "not-there"])
            #expect(deleted == [features[1].id])
            #expect(generation == 2)
            let changes = try await store.changes(since: 1)
            #expect(changes.generation == 2)
            #expect(changes.upserted == [moved])
            #expect(changes.removedIDs == [features[1].id])
            #expect(!changes.reloadNeeded)
            // The edited feature moved to the end, in the table as in a replica.
            let loaded = try await store.load().features
            #expect(loaded.last == moved)
            #expect(loaded.count == features.count - 1)
            #expect(try await store.changes(since: 2).isEmpty)
            // One log row per changing statement: the import's (every id in one array, so pruning it deletes one
            // row), the write's delete and its upsert; a statement that changes nothing takes no generation.
            try database.psql("DELETE FROM cairn_feature WHERE false; UPDATE cairn_feature SET radius_m = 1 WHERE id = 'none'")
            #expect(try await store.generation() == 2)
            let session = try await PostgresSession.open(database.url, logger: database.logger)
            let log = try await session.rows("SELECT generation::text || ':' || cardinality(ids) FROM cairn_change ORDER BY 1",
                                             action: "test") { try $0.decode(String.self) }
            #expect(log == ["1:\(features.count)", "2:1", "2:1"])
            await session.close()
            try database.psql("TRUNCATE cairn_feature")
            #expect(try await store.changes(since: 2).reloadNeeded)
            await store.close()
        }
    }

    /// A replica's write (`write`, not an import): every column of awkward features reads back bit for bit; an id
    /// given twice keeps its last version, at the end; an id both deleted and upserted is upserted and counted as
    /// deleted; a deleted id given twice is counted once; a write that changes nothing takes no generation.
    @Test func aWriteKeepsEveryColumnAndTheOrderOfUpserts() async throws {
        try await PostgresTestDatabase.with { database in
            let store = try await PostgresFeatureStore(url: database.url)
            let features = try Self.awkwardFeatures()
            let (none, first) = try await store.write(upserting: features, deleting: [])
            #expect(none.isEmpty && first == 1)
            #expect(try await store.load().features == features)
            let (a, b, c) = (features[0], features[1], features[2])
            let moved = try Feature(id: a.id, kind: .trailhead, location: Coordinate(latitude: -45, longitude: 179.5), radiusMeters: 3)
            let (deleted, second) = try await store.write(upserting: [a, b, moved], deleting: [c.id, c.id, b.id, "not-there"])
            #expect(deleted == [c.id, b.id])
            #expect(second == 2)
            let expected = features.filter { ![a.id, b.id, c.id].contains($0.id) } + [b, moved]
            #expect(try await store.load().features == expected)
            let (nothing, same) = try await store.write(upserting: [], deleting: ["not-there"])
            let stored = try await store.generation()
            #expect(nothing.isEmpty && same == 2 && stored == 2)
            await store.close()
        }
    }

    /// Migration 5 turns a log of one row per id into one row per generation, and the changes read the same
    /// through it: what a replica at an older generation catches up from after its store is upgraded.
    @Test func theChangeLogReadsTheSameAfterMigration5() async throws {
        try await PostgresTestDatabase.with { database in
            let session = try await PostgresSession.open(database.url, logger: database.logger)
            try await PostgresSchema.migrate(session, upTo: 4)
            // One psql call a transaction, so a generation each.
            try database.psql("INSERT INTO cairn_feature (id, kind, location) VALUES ('a', 'place', 'POINT(1 2)'), ('b', 'place', 'POINT(3 4)'), ('c', 'place', 'POINT(5 6)')")
            try database.psql("UPDATE cairn_feature SET location = 'POINT(7 8)' WHERE id = 'a'")
            try database.psql("DELETE FROM cairn_feature WHERE id = 'b'")
            let before = try await session.rows("SELECT count(*) FROM cairn_change", action: "test") { try $0.decode(Int.self) }
            #expect(before == [5])
            await session.close()
            let store = try await PostgresFeatureStore(url: database.url)
            let changes = try await store.changes(since: 1)
            #expect(changes.generation == 3)
            let moved = try Coordinate(latitude: 8, longitude: 7)
            #expect(changes.upserted.map(\.id) == ["a"] && changes.upserted.first?.location == moved)
            #expect(changes.removedIDs == ["b"])
            #expect(try await store.changes(since: 0).upserted.map(\.id) == ["c", "a"])
            let after = try await PostgresSession.open(database.url, logger: database.logger)
            let log = try await after.rows("SELECT generation::text || ':' || array_to_string(ids, ',') FROM cairn_change ORDER BY generation",
                                           action: "test") { try $0.decode(String.self) }
            #expect(log == ["1:a,b,c", "2:a", "3:b"])
            await after.close()
            // Writers after the upgrade log through the statement triggers.
            try await store.write(upserting: [], deleting: ["c"])
            #expect(try await store.changes(since: 3).removedIDs == ["c"])
            await store.close()
        }
    }

    /// Features at the edges of what Cairn accepts: the antimeridian from both sides, the poles, tiny and huge
    /// numbers, every attribute type, text that COPY and JSON must escape.
    static func awkwardFeatures() throws -> [Feature] {
        var random = SeededRandom(seed: 31)
        var features: [Feature] = [
            try Feature(id: "east\tedge", kind: .place, location: Coordinate(latitude: 0, longitude: 180), radiusMeters: 1e-3),
            try Feature(id: "west\nedge", kind: .place, location: Coordinate(latitude: -0.0, longitude: -180), radiusMeters: 4e7),
            try Feature(id: "north\\pole", kind: .park, location: Coordinate(latitude: 90, longitude: 0)),
            try Feature(id: "south \"pole\"", kind: .user, location: Coordinate(latitude: -90, longitude: 179.99999999999997),
                        attributes: ["sports": .stringSet(["curling", "ski"]), "note": .string("tab\there, line\nthere, \\ and \u{1F30D}")]),
            try Feature(id: "event-é", kind: .event, location: Coordinate(latitude: 60.1699, longitude: 24.9384),
                        timeWindow: TimeWindow(start: Timestamp(secondsSince1970: 1_714_588_200.25), end: Timestamp(secondsSince1970: 1_714_600_000)),
                        attributes: ["visibility": .string("public"), "seen": .time(Timestamp(secondsSince1970: -1.5)),
                                     "count": .number(1e-300), "big": .number(1.7976931348623157e308), "open": .bool(true)]),
            try Feature(id: "sighting", kind: .sighting, location: Coordinate(latitude: 5e-324, longitude: -5e-324),
                        timeWindow: TimeWindow(instant: Timestamp(secondsSince1970: 0))),
        ]
        for n in 0..<200 {
            features.append(try Feature(id: "seeded-\(n)", kind: .place,
                                        location: Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180)),
                                        radiusMeters: random.uniform(1...5000), attributes: ["rank": .number(Double(n) / 7)]))
        }
        return features
    }
}
