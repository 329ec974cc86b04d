import CairnCLI
import CairnServer
import CairnTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// A park kept as its polygon: `/tiles` draws it in the `shapes` layer (the CLI's bytes, at any extent), and the
/// JSON endpoints and `PUT /features/{id}` carry the real geometry.
@Suite struct ServerShapeTests {
    let fixture: ServerFixture

    /// A park with a hole (WKT in CSV), a trail, and a point place.
    static let csv = """
        id,kind,name,wkt
        77,park,Kaivopuisto,"POLYGON ((24.95 60.155, 24.96 60.155, 24.96 60.16, 24.95 60.16, 24.95 60.155), (24.953 60.157, 24.953 60.158, 24.955 60.158, 24.955 60.157, 24.953 60.157))"
        ridge,trailhead,Ridge,"LINESTRING (24.94 60.15, 24.97 60.165)"
        cafe,place,Cafe,POINT (24.9401 60.1701)

        """

    init() throws {
        fixture = try ServerFixture(csv: Self.csv)
    }

    /// The bytes `cairn cluster` writes for `arguments` (in-process, with `--out`).
    func cliBytes(_ arguments: [String]) throws -> [UInt8] {
        let out = fixture.folder.path + "/tile-\(UUID().uuidString).mvt"
        var command = try CairnCommand.parseAsRoot(arguments + ["--db", fixture.db, "--out", out])
        try command.run()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test(arguments: ["14/9327/4743", "12/2331/1185", "10/582/296"])
    func tilesDrawTheParkAndTheTrail(tile: String) async throws {
        let (plain, small, refused) = try await fixture.withServer { client in
            (try await client.execute(uri: "/tiles/\(tile).mvt", method: .get) { [UInt8](buffer: $0.body) },
             try await client.execute(uri: "/tiles/\(tile).mvt?extent=512", method: .get) { [UInt8](buffer: $0.body) },
             try await client.call("/tiles/\(tile).mvt?extent=0"))
        }
        #expect(plain == (try cliBytes(["cluster", "--tile", tile, "--format", "mvt"])))
        #expect(small == (try cliBytes(["cluster", "--tile", tile, "--format", "mvt", "--tile-extent", "512"])))
        #expect(refused.status == .badRequest && refused.body.contains("extent must be 1 to 1073741824, got 0"))
        let decoded = try VectorTileTestDecoder(plain)
        let shapes = try #require(decoded.layer("shapes"))
        let smallShapes = try VectorTileTestDecoder(small).layer("shapes")
        #expect(shapes.extent == 4096 && smallShapes?.extent == 512)
        let park = try #require(shapes.features.first { $0.id == 77 })
        #expect(park.type == 3 && park.property("name") == .string("Kaivopuisto") && park.property("kind") == .string("park"))
        let commands = try VectorTileTestDecoder.commands(park.geometry)
        if tile.hasPrefix("14/") {
            // At zoom 14 the hole is hundreds of units wide: two rings, each MoveTo, LineTo, ClosePath.
            #expect(commands.map(\.id) == [1, 2, 7, 1, 2, 7])
        }
        let trail = try #require(shapes.features.first { $0.property("id") == .string("ridge") })
        #expect(trail.type == 2)
    }

    @Test func tileJSONListsTheShapesLayer() async throws {
        let text = try await fixture.withServer { client in try await client.get("/tiles.json") }
        #expect(text.contains(#"{"id":"shapes","minzoom":0"#))
    }

    @Test func jsonEndpointsReturnThePolygon() async throws {
        let polygon = #""geometry":{"type":"Polygon","coordinates":[[[24.95,60.155],[24.96,60.155],[24.96,60.16],[24.95,60.16],[24.95,60.155]],[[24.953,60.157],[24.953,60.158],[24.955,60.158],[24.955,60.157],[24.953,60.157]]]}"#
        let answers = try await fixture.withServer { client in
            [try await client.get("/features/77"), try await client.get("/features?bbox=24.9,60.1,25,60.2"),
             try await client.get("/places/around_location?lat=60.1575&long=24.955&rad=1km")]
        }
        for answer in answers { #expect(answer.contains(polygon), "\(answer.prefix(300))") }
        #expect(answers[1].contains(#""type":"LineString""#))
    }

    @Test func aPutPolygonIsKept() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        let square = #"{"type":"Feature","id":"sq","geometry":{"type":"Polygon","coordinates":[[[24.9,60.1],[24.91,60.1],[24.91,60.11],[24.9,60.11],[24.9,60.1]]]},"properties":{"name":"Square","kind":"park"}}"#
        let (put, got, tileBytes) = try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            (try await client.call("/features/sq", method: .put, headers: auth, body: square),
             try await client.get("/features/sq"),
             try await client.execute(uri: "/tiles/12/2331/1187.mvt", method: .get) { [UInt8](buffer: $0.body) })
        }
        #expect(put.status == .ok, "\(put.body)")
        #expect(got.contains(#""geometry":{"type":"Polygon","coordinates":[[[24.9,60.1],[24.91,60.1],[24.91,60.11],[24.9,60.11],[24.9,60.1]]]}"#))
        let shapes = try VectorTileTestDecoder(tileBytes).layer("shapes")
        #expect(shapes?.features.contains { $0.property("id") == .string("sq") && $0.type == 3 } == true)
    }
}
