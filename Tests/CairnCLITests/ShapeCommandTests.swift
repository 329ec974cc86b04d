import CairnTestSupport
import ArgumentParser
import CairnCore
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
}
