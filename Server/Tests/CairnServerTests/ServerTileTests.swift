import CairnCLI
import CairnServer
import CairnTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `/tiles/{z}/{x}/{y}.mvt` gives the bytes of `cairn cluster --tile z/x/y --format mvt` (the same hierarchy, the
/// same ids), a 204 for an empty tile, and `/tiles.json` describes them (TileJSON 3.0.0).
@Suite struct ServerTileTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    /// The bytes `cairn cluster` writes for `arguments` (in-process, with `--out`).
    func cliBytes(_ arguments: [String]) throws -> [UInt8] {
        let out = fixture.folder.path + "/tile-\(UUID().uuidString).mvt"
        var command = try CairnCommand.parseAsRoot(arguments + ["--db", fixture.db, "--out", out])
        try command.run()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    @Test(arguments: ["0/0/0", "3/4/2", "5/31/17", "6/36/18"])
    func aTileIsTheCLIsVectorTile(tile: String) async throws {
        let expected = try cliBytes(["cluster", "--tile", tile, "--format", "mvt"])
        let (status, body, type) = try await fixture.withServer { client in
            try await client.execute(uri: "/tiles/\(tile).mvt", method: .get) { response in
                (response.status, [UInt8](buffer: response.body), response.headers[.contentType])
            }
        }
        #expect(status == (expected.isEmpty ? .noContent : .ok))
        #expect(body == expected)
        if !expected.isEmpty {
            #expect(type == "application/vnd.mapbox-vector-tile")
            let decoded = try VectorTileTestDecoder(body)
            #expect(decoded.layer("clusters") != nil || decoded.layer("points") != nil)
        }
    }

    @Test func aTileWithNothingInItIsA204AndBadAddressesAreRefused() async throws {
        let answers = try await fixture.withServer { client in
            [try await client.call("/tiles/8/0/0.mvt"), try await client.call("/tiles/2/4/0.mvt"),
             try await client.call("/tiles/a/0/0.mvt"), try await client.call("/tiles/1/0/0.png"),
             try await client.call("/tiles/99/0/0.mvt")]
        }
        #expect(answers[0].status == .noContent && answers[0].body.isEmpty)
        #expect(answers[1].status == .badRequest && answers[1].body.contains("x and y are 0 to 3, got 4 and 0"))
        #expect(answers[2].status == .notFound && answers[3].status == .notFound)
        #expect(answers[4].status == .badRequest && answers[4].body.contains("zoom must be 0 to"))
    }

    @Test func tileJSONNamesTheTilesTheirZoomsAndLayers() async throws {
        let text = try await fixture.withServer { client in
            try await client.get("/tiles.json")
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["tilejson"] as? String == "3.0.0")
        let tiles = try #require(object["tiles"] as? [String])
        #expect(tiles.count == 1 && tiles[0].hasPrefix("http://") && tiles[0].hasSuffix("/tiles/{z}/{x}/{y}.mvt"))
        #expect(object["minzoom"] as? Int == 0 && object["maxzoom"] as? Int == 17)
        #expect(object["bounds"] as? [Double] == [-179.9, -90, 179.995, 60.2934])
        let layers = try #require(object["vector_layers"] as? [[String: Any]])
        #expect(layers.map { $0["id"] as? String } == ["clusters", "points"])
        let pointFields = try #require(layers[1]["fields"] as? [String: String])
        #expect(Set(pointFields.keys).isSuperset(of: ["name", "fenced", "rating", "kind"]))
    }
}
