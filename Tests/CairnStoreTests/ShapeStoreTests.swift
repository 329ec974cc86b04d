import CairnCore
import CairnTestSupport
import Foundation
import GRDB
import Testing
@testable import CairnStore

/// Shapes in the store: kept as WKB in the `geometry` column (migration v4), read back exactly, replaced and
/// cleared by an upsert, and carried into the store's snapshot.
@Suite struct ShapeStoreTests {
    static func shapedFeatures() throws -> [Feature] {
        var random = SplitMix64(seed: 1919)
        var features: [Feature] = []
        for (n, kind) in (ShapeKind.allCases + ShapeKind.allCases).enumerated() {
            let center = try Coordinate(latitude: random.uniform(-80...80), longitude: random.uniform(-170...170))
            let shape = try SyntheticShapes.shape(kind, around: center, random: &random)
            features.append(try Feature(id: "s\(n)", kind: kind.isLinear ? .trailhead : .park, location: shape.representativePoint,
                                        attributes: ["name": .string("shape \(n)")], shape: shape))
        }
        return features
    }

    @Test func shapesReadBackExactly() throws {
        try withTemporaryStore { store, folder in
            let features = try Self.shapedFeatures()
            try store.upsert(features)
            for feature in features {
                #expect(try store.feature(id: feature.id) == feature)
            }
            var streamed: [Feature] = []
            try store.forEachFeature { streamed.append($0) }
            #expect(streamed == features)
            #expect(streamed.filter { $0.shape != nil }.count == 10) // two of the twelve are points
            // The column holds standard WKB; a point's is NULL.
            let blobs = try store.pool.read { db in try Row.fetchAll(db, sql: "SELECT id, geometry FROM feature ORDER BY rowid") }
            for (row, feature) in zip(blobs, features) {
                let wkb: Data? = row["geometry"]
                #expect(wkb.map { [UInt8]($0) } == feature.shape?.wkb)
            }
            // Replacing a polygon park by a point clears its geometry.
            let polygon = try #require(features.first { $0.shape?.kind == .polygon })
            let point = try Feature(id: polygon.id, kind: .park, location: polygon.location)
            try store.upsert([point])
            #expect(try store.feature(id: polygon.id)?.shape == nil)

            // The store's snapshot carries the shapes, read whole or mapped.
            let path = folder.path("store.snapshot")
            _ = try StoreIndex(store: store).writeSnapshot(to: path, metadata: [:])
            let file = try SnapshotFile(contentsOf: path)
            let expected = features.map { $0.id == polygon.id ? point : $0 }
            #expect(Array(try FeatureIndex(snapshot: file).features) == expected)
            #expect(Array(try FeatureIndex(mapping: file).features) == expected)
        }
    }

    /// Points and shapes go through two statements (the point one leaves the geometry column out): mixed in one
    /// batch, each replacing the other, every row keeps its rowid, the right geometry and the right outcome.
    @Test func pointsAndShapesReplaceEachOtherInOneBatch() throws {
        try withTemporaryStore { store, _ in
            let shaped = try Self.shapedFeatures().filter { $0.shape != nil }
            let first = try #require(shaped.first), second = try #require(shaped.last)
            let point = try Feature(id: "p", kind: .park, location: first.location)
            // A point over a shape, a shape over a point, in one transaction and then over stored rows.
            let firstAsPoint = try Feature(id: first.id, kind: .park, location: first.location)
            let pointAsShape = try Feature(id: "p", kind: second.kind, location: second.location,
                                           attributes: second.attributes, shape: second.shape)
            var changes: [FeatureStoreWriter.UpsertedRow.Change] = []
            try store.write { writer in
                try writer.upsert([first, point, firstAsPoint, pointAsShape]) { _, row in changes.append(row.change) }
            }
            #expect(changes == [.inserted, .inserted, .replacedRowOfThisTransaction, .replacedRowOfThisTransaction])
            #expect(try store.feature(id: first.id) == firstAsPoint)
            #expect(try store.feature(id: "p") == pointAsShape)
            changes = []
            try store.write { writer in
                try writer.upsert([first, point]) { _, row in changes.append(row.change) }
            }
            #expect(changes == [.replacedStoredRow, .replacedStoredRow])
            #expect(try store.feature(id: first.id) == first)
            #expect(try store.feature(id: "p") == point)
            let rowids = try store.pool.read { db in try Int64.fetchAll(db, sql: "SELECT rowid FROM feature ORDER BY rowid") }
            #expect(rowids == [1, 2])
        }
    }

    @Test func damagedGeometryIsReportedWithTheId() throws {
        try withTemporaryStore { store, _ in
            try store.upsert(try Self.shapedFeatures())
            try store.pool.write { db in try db.execute(sql: "UPDATE feature SET geometry = x'0103' WHERE id = 's2'") }
            let error = try #require(throws: StoreError.self) { try store.feature(id: "s2") }
            #expect("\(error)".contains("s2") && "\(error)".contains("geometry: WKB: ends at byte"), "\(error)")
        }
    }
}
