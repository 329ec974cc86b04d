import CairnTestSupport
import Foundation
import Testing

/// `cairn import --db postgres://…` checks polygons as the SQLite import does (`FeatureShapeCheck`): an invalid one
/// is a rejection naming the file, the line, the record and GEOS's reason, the same words as into SQLite; with
/// `--make-valid` it is repaired and counted.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil, PostgresTestDatabase.skipReason), .serialized)
struct PostgresImportShapeTests {
    /// A valid square park, then a bow tie (its edges cross at (1, 1)), one Feature per line.
    static let parks = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"square","geometry":{"type":"Polygon","coordinates":[[[0,0],[2,0],[2,2],[0,2],[0,0]]]},"properties":{"kind":"park"}},
        {"type":"Feature","id":"tie","geometry":{"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]},"properties":{"kind":"park"}}
        ]}

        """

    @Test func anInvalidPolygonIsRejectedAsIntoSQLiteAndRepairedWithMakeValid() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("parks.geojson", Self.parks)
        try await PostgresTestDatabase.with { database in
            let postgres = database.url.description, sqlite = folder.path()
            let intoPostgres = try PostgresQueryParityTests.run(["import", path, "--db", postgres], in: folder.path)
            let intoSQLite = try PostgresQueryParityTests.run(["import", path, "--no-progress", "--db", sqlite], in: folder.path)
            #expect(intoPostgres.status == 3, "\(intoPostgres.error)")
            #expect(intoPostgres.error.hasPrefix("\(path):3: field 'geometry': invalid Polygon (record 2 of the file): Self-intersection"),
                    "\(intoPostgres.error)")
            #expect(intoPostgres.error.hasSuffix("; --make-valid repairs it\n"))
            #expect(intoPostgres.error == intoSQLite.error && intoPostgres.output == intoSQLite.output)
            #expect(intoPostgres.output == "imported 1, rejected 1\n")
            let kept = try PostgresQueryParityTests.run(["bbox", "--bbox", "-1,-1,3,3", "--format", "ids", "--db", postgres], in: folder.path)
            #expect(kept.output == "square\n")

            let repaired = try PostgresQueryParityTests.run(["import", path, "--make-valid", "--db", postgres], in: folder.path)
            #expect(repaired.status == 0, "\(repaired.error)")
            #expect(repaired.output == "imported 2, rejected 0 (1 invalid polygons repaired by --make-valid)\n")
            let tie = try PostgresQueryParityTests.run(["get", "tie", "--db", postgres], in: folder.path)
            #expect(tie.output.contains(#""type":"MultiPolygon""#), "\(tie.output)") // the bow tie's two triangles
        }
    }
}
