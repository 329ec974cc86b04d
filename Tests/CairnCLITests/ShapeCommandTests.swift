import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnIO
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// Shapes end to end: a GeoJSON polygon park and a WKT trail imported, then returned whole by the queries, from the
/// store's first index and from its saved snapshot alike.
@Suite struct ShapeCommandTests {
    @Test func queriesReturnTheImportedShapes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("s.sqlite")
        let parks = try folder.write("parks.geojson", """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": "sq", "geometry": {"type": "Polygon", "coordinates": [[[24.9, 60.1], [25, 60.1], [25, 60.2], [24.9, 60.2], [24.9, 60.1]]]}, "properties": {"name": "Square"}}
            ]}
            """)
        let trails = try folder.write("trails.csv", """
            id,kind,name,geometry
            t1,trailhead,Ridge,"LINESTRING (24.95 60.12, 24.97 60.15)"

            """)
        for file in [parks, trails] {
            var command = try CairnCommand.parseAsRoot(["import", file, "--db", db, "--no-progress"])
            try command.run()
        }
        func run(_ arguments: [String]) throws -> String {
            let out = folder.path("out-\(UUID().uuidString)")
            var command = try CairnCommand.parseAsRoot(arguments + ["--db", db, "--out", out])
            try command.run()
            return try String(contentsOfFile: out, encoding: .utf8)
        }
        // Twice: the first answer builds the index from the store, the second reads the snapshot it saved.
        for _ in 0..<2 {
            let geojson = try run(["bbox", "--bbox", "24,60,26,61", "--format", "geojson"])
            #expect(geojson.contains(#""id":"sq","geometry":{"type":"Polygon","coordinates":[[[24.9,60.1],[25,60.1],[25,60.2],[24.9,60.2],[24.9,60.1]]]}"#), "\(geojson)")
            #expect(geojson.contains(#""id":"t1","geometry":{"type":"LineString","coordinates":[[24.95,60.12],[24.97,60.15]]}"#), "\(geojson)")
            let csv = try run(["bbox", "--bbox", "24,60,26,61", "--format", "csv"])
            #expect(csv.contains(#"t1,trailhead,60.15,24.97,,,,"LINESTRING (24.95 60.12, 24.97 60.15)",Ridge"#), "\(csv)")
        }
    }

    /// Runs the importer on `files` and returns the summary and the rejections.
    func importFiles(_ files: [String], db: String, makeValid: Bool = false) throws -> (summary: ImportSummary, rejections: [RowRejection]) {
        var rejections: [RowRejection] = []
        let importer = Importer(options: ImportOptions(), strict: false, reportRejection: { rejections.append($0) },
                                warn: { _ in }, showProgress: false, makeValid: makeValid)
        let summary = try importer.run(files: files, format: nil, into: try FeatureStore(path: db))
        return (summary, rejections)
    }

    /// Natural Earth's 177 countries, Russia and Fiji split at the antimeridian: all imported (Russia's vertex at
    /// 180.00000000000006 taken as the edge, where it used to cost the whole country), every polygon valid.
    @Test func naturalEarthCountriesAllImport() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try importFiles([packageRoot + "/Data/naturalearth-countries.geojson"], db: folder.path("c.sqlite"))
        #expect(result.rejections.isEmpty, "\(result.rejections)")
        #expect(result.summary.imported == 177 && result.summary.clampedCoordinates >= 1)
        #expect(result.summary.line.hasPrefix("imported 177, rejected 0 ("))
        #expect(result.summary.line.contains("coordinates within 1e-9 degrees outside the valid range taken as its edge"))
        let store = try FeatureStore(path: folder.path("c.sqlite"))
        var shaped = 0
        try store.forEachFeature { if $0.shape?.kind.isAreal == true { shaped += 1 } }
        #expect(shaped == 177)
    }

    /// An invalid polygon is rejected with its file, line, record and GEOS's reason, its neighbours kept;
    /// `--make-valid` repairs it instead and the summary counts it.
    @Test func invalidPolygonsAreRejectedOrRepaired() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try folder.write("p.geojson", """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": "ok", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,2],[0,2],[0,0]]]}},
            {"type": "Feature", "id": "bowtie", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,2],[2,0],[0,2],[0,0]]]}},
            {"type": "Feature", "id": "open", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,2],[0,2]]]}}
            ]}
            """)
        let strict = try importFiles([file], db: folder.path("a.sqlite"))
        #expect(strict.summary.imported == 1 && strict.summary.rejected == 2)
        #expect(strict.rejections.map(\.line) == [3, 4])
        #expect(strict.rejections[0].description == "\(file):3: field 'geometry': invalid Polygon (record 2 of the file): Self-intersection[1 1]; --make-valid repairs it")
        #expect(strict.rejections[1].reason.hasPrefix("field 'geometry': invalid Polygon (record 3 of the file): ") == true)
        #expect(strict.rejections[1].reason.contains("closed linestring"))
        let repaired = try importFiles([file], db: folder.path("b.sqlite"), makeValid: true)
        #expect(repaired.rejections.isEmpty && repaired.summary.imported == 3 && repaired.summary.repairedShapes == 2)
        #expect(repaired.summary.line == "imported 3, rejected 0 (2 invalid polygons repaired by --make-valid)")
        let bowtie = try #require(try FeatureStore(path: folder.path("b.sqlite")).feature(id: "bowtie"))
        #expect(bowtie.shape?.kind == .multiPolygon)
    }
}
