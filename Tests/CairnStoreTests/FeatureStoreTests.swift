import CairnTestSupport
import CairnCore
import Foundation
import GRDB
import Testing
@testable import CairnStore

/// One feature of every kind, together using every attribute type and awkward values.
func sampleFeatures() throws -> [Feature] {
    let t0 = Timestamp(secondsSince1970: 1_714_588_200.123456)
    let t1 = Timestamp(secondsSince1970: 1_714_595_400.5)
    return [
        try Feature(
            id: "park/1", kind: .park, location: Coordinate(latitude: 40.7829, longitude: -73.9654),
            attributes: [
                "name": .string("Central Park \"Dog Run\" \\ \u{1F415}\n\tzone"),
                "fenced": .bool(true), "hunting": .bool(false), "rating": .number(4.75),
                "amenities": .stringSet(["agility", "offLeash", "swimming"]),
            ]),
        try Feature(
            id: "trail/ä", kind: .trailhead, location: Coordinate(latitude: -90, longitude: 180),
            attributes: [
                "difficulty": .string("casual"), "ageGroups": .stringSet(["baby", "toddler"]),
                "lengthMiles": .number(0.1), "loop": .bool(false), "empty": .stringSet([]),
            ]),
        try Feature(
            id: "place/é", kind: .place, location: Coordinate(latitude: 90, longitude: -180), radiusMeters: 150.25,
            attributes: ["externalId": .string("4b0588f1f964a520"), "zero": .number(-0.0), "big": .number(1e300)]),
        try Feature(
            id: "event/1", kind: .event, location: Coordinate(latitude: 51.5, longitude: -0.1275),
            timeWindow: TimeWindow(start: t0, end: t1),
            attributes: [
                "category": .string("football"), "visibility": .string("public"),
                "doorsOpen": .time(Timestamp(secondsSince1970: -86_400.001)),
            ]),
        try Feature(
            id: "user/1", kind: .user, location: Coordinate(latitude: 0, longitude: 0),
            attributes: ["interests": .stringSet(["chess", "football"]), "lastSeen": .time(t1)]),
        try Feature(
            id: "sighting/1", kind: .sighting, location: Coordinate(latitude: 1e-9, longitude: -1e-9),
            timeWindow: TimeWindow(instant: Timestamp(secondsSince1970: 0.000001)),
            attributes: ["beaconId": .string("F7826DA6-4FA2-4E98-8024-BC5B71E0893E:1:2"), "rssi": .number(-71)]),
    ]
}

/// Checks the R*Tree against SQLite's own checker and against the feature table.
func expectRTreeConsistent(_ store: FeatureStore) throws {
    try store.pool.read { db in
        #expect(try String.fetchOne(db, sql: "SELECT rtreecheck('feature_rtree')") == "ok")
        let mismatched = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM feature AS f LEFT JOIN feature_rtree AS r ON r.rowid = f.rowid
            WHERE r.rowid IS NULL OR f.longitude < r.min_lon OR f.longitude > r.max_lon
               OR f.latitude < r.min_lat OR f.latitude > r.max_lat
            """)
        #expect(mismatched == 0)
        let rtreeCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feature_rtree")
        let featureCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feature")
        #expect(rtreeCount == featureCount)
    }
}

@Suite("FeatureStore")
struct FeatureStoreTests {
    @Test("every kind and attribute type reads back exactly")
    func roundTrip() throws {
        try withTemporaryStore { store, _ in
            let features = try sampleFeatures()
            try store.upsert(features)
            for feature in features {
                let stored = try #require(try store.feature(id: feature.id))
                #expect(stored == feature)
                #expect(stored.timeWindow?.start.secondsSince1970.bitPattern == feature.timeWindow?.start.secondsSince1970.bitPattern)
            }
            let place = try #require(try store.feature(id: "place/é"))
            guard case .number(let zero)? = place.attributes["zero"] else { Issue.record("zero lost"); return }
            #expect(zero.sign == .minus)
            #expect(try store.feature(id: "missing") == nil)
            #expect(try store.count() == features.count)

            var streamed: [Feature] = []
            try store.forEachFeature { streamed.append($0) }
            #expect(streamed == features)
            var events: [Feature] = []
            try store.forEachFeature(kind: .event) { events.append($0) }
            #expect(events == features.filter { $0.kind == .event })
            try expectRTreeConsistent(store)
        }
    }

    @Test("forEachFeature reads one snapshot, even while its body writes")
    func iterationSnapshot() throws {
        try withTemporaryStore { store, _ in
            try store.upsert([try point("a", latitude: 1, longitude: 1), try point("b", latitude: 2, longitude: 2)])
            var seen: [String] = []
            try store.forEachFeature { feature in
                seen.append(feature.id)
                try store.upsert([try point(feature.id + "+", latitude: 3, longitude: 3)])
            }
            #expect(seen == ["a", "b"])
            #expect(try store.count() == 4)
            #expect(throws: ExpectedTestError.self) {
                try store.forEachFeature { _ in throw ExpectedTestError() }
            }
        }
    }

    @Test("upsert replaces by id, keeps the rowid, and the R*Tree follows")
    func upsertReplaces() throws {
        try withTemporaryStore { store, _ in
            let first = try point("a", latitude: 10, longitude: 20)
            try store.upsert([first, try point("b", latitude: 11, longitude: 21)])
            #expect(try store.features(inBoxWest: 19, south: 9, east: 21, north: 11).map(\.id) == ["a", "b"])

            let moved = try Feature(
                id: "a", kind: .user, location: Coordinate(latitude: -30, longitude: 150), radiusMeters: 5,
                attributes: ["interests": .stringSet(["climbing"])])
            try store.upsert([moved])
            #expect(try store.count() == 2)
            #expect(try store.feature(id: "a") == moved)
            #expect(try store.features(inBoxWest: 19, south: 9, east: 21, north: 11).map(\.id) == ["b"])
            #expect(try store.features(inBoxWest: 149, south: -31, east: 151, north: -29) == [moved])
            var order: [String] = []
            try store.forEachFeature { order.append($0.id) }
            #expect(order == ["a", "b"]) // rowid kept: "a" still comes first

            // The same id twice in one batch: the later one wins.
            try store.upsert([try point("c", latitude: 1, longitude: 1), try point("c", latitude: 2, longitude: 2)])
            #expect(try store.feature(id: "c")?.location == Coordinate(latitude: 2, longitude: 2))
            try expectRTreeConsistent(store)
        }
    }

    @Test("delete removes the row and its R*Tree entry")
    func delete() throws {
        try withTemporaryStore { store, _ in
            try store.upsert(try sampleFeatures())
            #expect(try store.delete(id: "user/1"))
            #expect(try !store.delete(id: "user/1"))
            #expect(try store.feature(id: "user/1") == nil)
            #expect(try store.count() == 5)
            #expect(try store.features(inBoxWest: -1, south: -1, east: 1, north: 1).map(\.id) == ["sighting/1"])
            let deleted = try store.write { writer in
                try writer.delete(id: "park/1") && !(try writer.delete(id: "nope"))
            }
            #expect(deleted)
            #expect(try store.info().count(of: .park) == 0)
            try expectRTreeConsistent(store)
        }
    }

    @Test("info on an empty store: zero counts for all six kinds, no bounds")
    func infoEmpty() throws {
        try withTemporaryStore { store, folder in
            let info = try store.info()
            #expect(info.featureCount == 0)
            #expect(info.countsByKind.map(\.kind) == FeatureKind.allCases)
            #expect(info.countsByKind.allSatisfy { $0.count == 0 })
            #expect(info.bounds == nil)
            #expect(info.fileSizeBytes > 0)
            #expect(FileManager.default.fileExists(atPath: folder.path()))
        }
    }

    @Test("info on a store with data: counts per kind and the exact bounds")
    func infoWithData() throws {
        try withTemporaryStore { store, _ in
            let features = try sampleFeatures() + [try point("p2", latitude: 12.5, longitude: 99)]
            try store.upsert(features)
            let info = try store.info()
            #expect(info.featureCount == 7)
            #expect(info.countsByKind.map(\.kind) == FeatureKind.allCases)
            #expect(info.countsByKind.map(\.count) == [1, 1, 2, 1, 1, 1])
            #expect(info.count(of: .place) == 2)
            let bounds = try #require(info.bounds)
            #expect(bounds.minLatitude == features.map(\.location.latitude).min())
            #expect(bounds.maxLatitude == features.map(\.location.latitude).max())
            #expect(bounds.minLongitude == -180)
            #expect(bounds.maxLongitude == 180)
            #expect(info.fileSizeBytes > 4096)
        }
    }

    @Test("a throwing write body rolls back everything it wrote")
    func rollback() throws {
        try withTemporaryStore { store, _ in
            try store.upsert([try point("keep", latitude: 1, longitude: 1)])
            #expect(throws: ExpectedTestError.self) {
                try store.write { writer in
                    try writer.upsert(try sampleFeatures())
                    try writer.upsert(try point("keep", latitude: 50, longitude: 50))
                    #expect(try writer.delete(id: "keep"))
                    throw ExpectedTestError()
                }
            }
            #expect(try store.count() == 1)
            #expect(try store.feature(id: "keep")?.location == Coordinate(latitude: 1, longitude: 1))
            #expect(try store.features(inBoxWest: -180, south: -90, east: 180, north: 90).map(\.id) == ["keep"])
            try expectRTreeConsistent(store)
        }
    }

    @Test("a writer used after its transaction is refused")
    func writerOutlivingItsTransaction() throws {
        try withTemporaryStore { store, _ in
            let escaped = try store.write { $0 }
            #expect(throws: StoreError.writerClosed(path: store.path)) {
                try escaped.upsert(try point("late", latitude: 0, longitude: 0))
            }
            #expect(try store.count() == 0)
        }
    }

    @Test("reopening a store finds its data")
    func reopen() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let features = try sampleFeatures()
        do {
            let store = try FeatureStore(path: folder.path("reopen.sqlite"))
            try store.upsert(features)
        }
        let reopened = try FeatureStore(path: folder.path("reopen.sqlite"))
        var streamed: [Feature] = []
        try reopened.forEachFeature { streamed.append($0) }
        #expect(streamed == features)
        try reopened.upsert([try point("more", latitude: 3, longitude: 4)])
        #expect(try reopened.count() == features.count + 1)
        let again = try FeatureStore(path: folder.path("reopen.sqlite"))
        #expect(try again.count() == features.count + 1)
    }

    @Test("a row edited by hand into an invalid feature is reported with its id", arguments: [
        "UPDATE feature SET attributes = '{\"a\":' WHERE id = 'x'",
        "UPDATE feature SET kind = 'volcano' WHERE id = 'x'",
        "UPDATE feature SET latitude = 91 WHERE id = 'x'",
        "UPDATE feature SET start_time = 5 WHERE id = 'x'",
    ])
    func invalidRow(sql: String) throws {
        try withTemporaryStore { store, _ in
            try store.upsert([try point("x", latitude: 1, longitude: 1)])
            try store.pool.write { try $0.execute(sql: sql) }
            #expect {
                _ = try store.feature(id: "x")
            } throws: { error in
                guard case .invalidRow(let path, let id, _)? = error as? StoreError else { return false }
                return path == store.path && id == "x"
            }
        }
    }

    @Test("a file that is not SQLite is refused with its path")
    func notADatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("notes.sqlite")
        try Data(String(repeating: "these are not the pages you are looking for\n", count: 50).utf8)
            .write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.notADatabase(path: path)) { try FeatureStore(path: path) }
        #expect(StoreError.notADatabase(path: path).description.contains(path))
    }

    @Test("another application's SQLite database is refused")
    func foreignDatabase() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("other.sqlite")
        do {
            let queue = try DatabaseQueue(path: path)
            try queue.write { try $0.execute(sql: "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)") }
        }
        do {
            _ = try FeatureStore(path: path)
            Issue.record("opened a foreign database")
        } catch let error as StoreError {
            guard case .notACairnStore(let reportedPath, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reportedPath == path)
            #expect(reason.contains("invoices"))
            #expect(error.description.contains(path))
        }
    }

    @Test("a missing folder gives cannotOpen naming the path")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("no/such/folder/cairn.sqlite")
        do {
            _ = try FeatureStore(path: path)
            Issue.record("opened a store in a missing folder")
        } catch let error as StoreError {
            guard case .cannotOpen(let reportedPath, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(reportedPath == path)
        }
    }

    @Test("box query errors name the box", arguments: [
        (0.0, 10.0, 1.0, 5.0), (.nan, 0.0, 1.0, 1.0), (0.0, -91.0, 1.0, 1.0), (-181.0, 0.0, 1.0, 1.0),
    ])
    func invalidBoxes(box: (Double, Double, Double, Double)) throws {
        try withTemporaryStore { store, _ in
            #expect(throws: StoreError.self) {
                try store.features(inBoxWest: box.0, south: box.1, east: box.2, north: box.3)
            }
        }
    }
}
