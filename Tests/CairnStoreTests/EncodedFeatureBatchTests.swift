import CairnCore
import CairnTestSupport
import Foundation
import GRDB
import Testing
@testable import CairnStore

/// Features encoded ahead of the write (`EncodedFeatureBatch`, what an import's reading thread makes) are stored
/// exactly as the features themselves would be, and the `Feature` upserts, which encode in chunks, tell every row's
/// position across chunks.
@Suite struct EncodedFeatureBatchTests {
    /// Points with every optional column, non-ASCII ids and attributes, and shapes.
    static func mixedFeatures() throws -> [Feature] {
        let window = try TimeWindow(start: Timestamp(secondsSince1970: 1_714_588_200.25),
                                    end: Timestamp(secondsSince1970: 1_714_595_400))
        var features = try ShapeStoreTests.shapedFeatures()
        features.append(try Feature(id: "Ääkkönen ☃", kind: .place, location: Coordinate(latitude: 60.17, longitude: 24.94),
                                    radiusMeters: 150, attributes: ["name": .string("Kauppatori \"tori\""), "n": .number(-0.5)]))
        features.append(try Feature(id: "e1", kind: .event, location: Coordinate(latitude: -33.9, longitude: 151.2),
                                    radiusMeters: 80, timeWindow: window,
                                    attributes: ["visibility": .string("public"), "tags": .stringSet(["a", "b"]),
                                                 "seen": .time(Timestamp(secondsSince1970: 12.5)), "open": .bool(true)]))
        features.append(try Feature(id: "x", kind: .trailhead, location: Coordinate(latitude: 0, longitude: -180)))
        return features
    }

    @Test func encodedRowsAreStoredAsTheFeatures() throws {
        let features = try Self.mixedFeatures()
        var batch = EncodedFeatureBatch()
        for feature in features { batch.append(feature) }
        #expect(batch.count == features.count)
        #expect((0..<batch.count).map { batch.id(at: $0) } == features.map(\.id))
        var positions: [Int] = []
        try withTemporaryStore { store, _ in
            try store.write { writer in
                try writer.upsert(batch) { position, row in
                    positions.append(position)
                    #expect(row.change == .inserted)
                }
            }
            for feature in features { #expect(try store.feature(id: feature.id) == feature) }
            // The same bytes as the features' own upsert: the attributes text and the WKB.
            let rows = try store.pool.read { db in try Row.fetchAll(db, sql: "SELECT attributes, geometry FROM feature ORDER BY rowid") }
            for (row, feature) in zip(rows, features) {
                #expect(row["attributes"] as String? == AttributeJSON.encode(feature.attributes))
                let wkb: Data? = row["geometry"]
                #expect(wkb.map { [UInt8]($0) } == feature.shape?.wkb)
            }
        }
        #expect(positions == Array(features.indices))
        batch.removeAll()
        #expect(batch.isEmpty)
    }

    /// More features than one encoding chunk: positions run on across chunks, and a repeated id replaces the row
    /// of the earlier chunk.
    @Test func featureUpsertsTellPositionsAcrossChunks() throws {
        let count = 2_500
        var features = try (0..<count).map { n in
            try Feature(id: "p\(n)", kind: .place, location: Coordinate(latitude: Double(n % 170) - 85, longitude: Double(n % 350) - 175))
        }
        features.append(try Feature(id: "p3", kind: .place, location: Coordinate(latitude: 1, longitude: 2)))
        try withTemporaryStore { store, _ in
            var seen: [(Int, FeatureStoreWriter.UpsertedRow.Change)] = []
            try store.write { writer in
                try writer.upsert(features) { position, row in seen.append((position, row.change)) }
            }
            #expect(seen.map(\.0) == Array(features.indices))
            #expect(seen.dropLast().allSatisfy { $0.1 == .inserted })
            #expect(seen.last?.1 == .replacedRowOfThisTransaction)
            #expect(try store.count() == count)
            #expect(try store.feature(id: "p3") == features.last)
        }
    }
}
