import CairnTestSupport
import ArgumentParser
import Foundation
import Testing
@testable import CairnCLI

/// `containing`, `bbox` and `intersects` on imported shapes, end to end: a park polygon with a hole and a radius
/// (the polygon decides), a trail with a radius (lines contain nothing), a place circle; answered from the store's
/// first index and from its saved snapshot alike; a geometry the readers refuse is refused with their message.
@Suite struct ShapeQueryCommandTests {
    @Test func queriesDecideOnTheShape() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = folder.path("s.sqlite")
        let parks = try folder.write("parks.geojson", """
            {"type": "FeatureCollection", "features": [
            {"type": "Feature", "id": "ring", "geometry": {"type": "Polygon", "coordinates": [[[24.9, 60.1], [25, 60.1], [25, 60.2], [24.9, 60.2], [24.9, 60.1]], [[24.94, 60.14], [24.94, 60.16], [24.96, 60.16], [24.96, 60.14], [24.94, 60.14]]]}, "properties": {"kind": "park", "radiusMeters": 50000}}
            ]}
            """)
        let others = try folder.write("others.csv", """
            id,kind,latitude,longitude,radiusMeters,geometry
            trail,trailhead,,,50000,"LINESTRING (24.95 60.12, 24.95 60.18)"
            cafe,place,60.15,24.95,100,

            """)
        for file in [parks, others] {
            var command = try CairnCommand.parseAsRoot(["import", file, "--db", db, "--no-progress"])
            try command.run()
        }
        func ids(_ arguments: [String]) throws -> [String] {
            let out = folder.path("out-\(UUID().uuidString)")
            var command = try CairnCommand.parseAsRoot(arguments + ["--db", db, "--out", out, "--format", "ids"])
            try command.run()
            return try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        }
        for _ in 0..<2 {
            // In the hole: only the café's circle (the trail's radius counts for nothing); on the hole's edge, inside the ring.
            #expect(try ids(["containing", "--lat", "60.15", "--long", "24.95"]) == ["cafe"])
            #expect(try ids(["containing", "--lat", "60.15", "--long", "24.96"]) == ["ring"])
            #expect(try ids(["containing", "--lat", "60.11", "--long", "24.91"]) == ["ring"])
            #expect(try ids(["containing", "--lat", "60.3", "--long", "24.91"]).isEmpty)
            // A box in the hole meets the trail and the café, not the park; one across the ring's corner meets it.
            #expect(try ids(["bbox", "--bbox", "24.945,60.145,24.955,60.155"]) == ["trail", "cafe"])
            #expect(try ids(["bbox", "--bbox", "24.85,60.05,24.91,60.11"]) == ["ring"])
            #expect(try ids(["intersects", "--geometry", "LINESTRING (24.8 60.13, 24.96 60.13)"]) == ["ring", "trail"])
            #expect(try ids(["intersects", "--geometry", #"{"type": "Point", "coordinates": [24.95, 60.15]}"#]) == ["trail", "cafe"])
            #expect(try ids(["intersects", "--geometry", "POLYGON ((24.945 60.145, 24.955 60.145, 24.95 60.155, 24.945 60.145))"]) == ["trail", "cafe"])
        }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["intersects", "--geometry", "POLYGON ((1 2, 3))", "--db", db]) }
        do {
            _ = try CairnCommand.parseAsRoot(["intersects", "--geometry", #"{"type": "Polygon", "coordinates": [[[1, 2], [3, 95], [4, 2], [1, 2]]]}"#])
            Issue.record("a latitude of 95 must be refused")
        } catch {
            let message = CairnCommand.message(for: error)
            #expect(message.contains("--geometry") && message.contains("95"), "\(message)")
        }
    }
}
