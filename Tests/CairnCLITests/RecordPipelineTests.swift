import CairnTestSupport
import CairnCore
import CairnIO
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// The importer reads on a thread of its own (`RecordPipeline`) while the store is written: rows come out in file
/// order, place lookups are answered through the write transaction, and a stop ends the reading thread.
@Suite struct RecordPipelineTests {
    /// Imports `files` as the CLI does (a place lookup through the store) and returns the summary and rejections.
    func importFiles(_ files: [String], db: String, strict: Bool = false) throws -> (ImportSummary, [RowRejection]) {
        let store = try FeatureStore(path: db)
        var rejections: [RowRejection] = []
        let options = ImportOptions(placeLookup: { id in try? store.feature(id: id) })
        let importer = Importer(options: options, strict: strict, reportRejection: { rejections.append($0) },
                                warn: { _ in }, showProgress: false)
        return (try importer.run(files: files, format: nil, into: store), rejections)
    }

    /// Places and the events that name them, interleaved: each event names a place written `back` rows earlier,
    /// from the row just before (still in the reading thread's batch) to far more than the rows in flight (long
    /// upserted, so asked of the store on the writing thread). Every tenth event names no known place.
    @Test func eventsFindPlacesAtEveryDistanceBehindTheReader() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let count = 3 * RecordPipeline.rowsInFlight
        var text = "id,kind,latitude,longitude,radius,placeId,startTime,endTime\n"
        var expected: [String: Coordinate] = [:]
        var places: [(id: String, location: Coordinate)] = []
        var unknown = 0
        for i in 0..<count {
            let latitude = Double(i % 170) - 85 + 0.25, longitude = Double(i % 359) - 179 + 0.5
            text += "p\(i),place,\(latitude),\(longitude),100,,,\n"
            places.append(("p\(i)", try Coordinate(latitude: latitude, longitude: longitude)))
            let backs = [1, 7, RecordPipeline.batchRecords + 3, RecordPipeline.rowsInFlight + 11, 2 * RecordPipeline.rowsInFlight]
            let back = backs[i % backs.count]
            if i % 10 == 9 {
                text += "e\(i),event,,,,nowhere\(i),2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n"
                unknown += 1
            } else if back <= i {
                let place = places[places.count - back]
                text += "e\(i),event,,,,\(place.id),2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n"
                expected["e\(i)"] = place.location
            }
        }
        let file = try folder.write("mixed.csv", text)
        let db = folder.path("t.sqlite")
        let (summary, rejections) = try importFiles([file], db: db)
        #expect(summary.imported == count + expected.count)
        #expect(summary.rejected == unknown)
        #expect(rejections.allSatisfy { $0.reason.contains("is not in the store") })
        #expect(rejections.map(\.line) == rejections.map(\.line).sorted())
        let store = try FeatureStore(path: db)
        for (id, location) in expected {
            #expect(try store.feature(id: id)?.location == location, "\(id)")
        }
    }

    /// A strict run stops at the first bad row of a long file at once and writes nothing.
    @Test func aStrictStopEndsTheReadingThread() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var text = "id,latitude,longitude\nbad,91,0\n"
        for i in 0..<(4 * RecordPipeline.rowsInFlight) { text += "p\(i),1,2\n" }
        let file = try folder.write("long.csv", text)
        let db = folder.path("t.sqlite")
        #expect(throws: Importer.StrictStop.self) { _ = try importFiles([file], db: db, strict: true) }
        #expect(try FeatureStore(path: db).count() == 0)
        // The next run of the same process imports the whole file (the bad row refused).
        let (summary, _) = try importFiles([file], db: db)
        #expect(summary.imported == 4 * RecordPipeline.rowsInFlight)
        #expect(summary.rejected == 1)
    }

    /// A file that breaks off (a truncated gzip stream) fails the run after the rows before the break were read,
    /// and nothing is written, as when one thread read it all.
    @Test func aReadErrorAfterManyRowsRollsBack() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var text = "id,latitude,longitude\n"
        for i in 0..<(2 * RecordPipeline.rowsInFlight) { text += "p\(i),\(Double(i % 80)),\(Double(i % 170))\n" }
        let compressed = try #require(Array(text.utf8).withUnsafeBytes { GzipWriter.compressed($0, level: 6) })
        let gzip = try folder.write("p.csv.gz", bytes: Array(compressed.prefix(compressed.count / 2)))
        let db = folder.path("t.sqlite")
        #expect(throws: InputError.self) { _ = try importFiles([gzip], db: db) }
        #expect(try FeatureStore(path: db).count() == 0)
    }
}
