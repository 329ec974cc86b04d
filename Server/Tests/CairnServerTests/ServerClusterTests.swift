import CairnServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// `/clusters` answers as `cairn cluster` does; a cluster id opens as in the CLI until the features change, and
/// is refused (404) after, never read as another cluster.
@Suite struct ServerClusterTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    /// The `cluster_id`s in a GeoJSON answer.
    static func clusterIDs(_ text: String) -> [String] {
        text.split(separator: "\"cluster_id\":").dropFirst().map { String($0.prefix { $0.isNumber }) }
    }

    @Test(arguments: [
        ("/clusters?bbox=-180,-90,180,90&zoom=0", ["cluster", "--bbox", "-180,-90,180,90", "--zoom", "0"]),
        ("/clusters?zoom=3.7", ["cluster", "--zoom", "3.7"]),
        ("/clusters?bbox=170,-25,190,-10&zoom=5", ["cluster", "--bbox", "170,-25,190,-10", "--zoom", "5"]),
        ("/clusters?zoom=2&kind=place&where=fenced", ["cluster", "--zoom", "2", "--kind", "place", "--where", "fenced"]),
    ])
    func clustersAreTheCLIsBytes(uri: String, arguments: [String]) async throws {
        let expected = try fixture.cli(arguments)
        #expect(try await fixture.withServer { client in try await client.get(uri) } == expected)
    }

    /// Answers made partly of the features kept from earlier answers (`ClusterFeatureFragments`) are still the CLI's
    /// bytes: overlapping viewports of several zooms, across the antimeridian, and a cluster's children.
    @Test func answersMadeOfKeptFeaturesAreTheCLIsBytes() async throws {
        let world = try fixture.cli(["cluster", "--zoom", "1"])
        let id = try #require(Self.clusterIDs(world).first)
        let views: [(uri: String, arguments: [String])] = [
            ("/clusters?zoom=1", ["cluster", "--zoom", "1"]),
            ("/clusters?bbox=0,0,180,90&zoom=1", ["cluster", "--bbox", "0,0,180,90", "--zoom", "1"]),
            ("/clusters?bbox=-180,-90,0,0&zoom=1", ["cluster", "--bbox", "-180,-90,0,0", "--zoom", "1"]),
            ("/clusters/\(id)/children", ["cluster", "--children", id]),
            ("/clusters?bbox=170,-60,-170,60&zoom=4", ["cluster", "--bbox", "170,-60,-170,60", "--zoom", "4"]),
            ("/clusters?zoom=4", ["cluster", "--zoom", "4"]),
            ("/clusters?bbox=20,55,30,65&zoom=9", ["cluster", "--bbox", "20,55,30,65", "--zoom", "9"]),
            ("/clusters?bbox=24,59,26,61&zoom=9", ["cluster", "--bbox", "24,59,26,61", "--zoom", "9"]),
            // Zooms with block grids: whole cells kept as blocks, then the same cells again, and cells cut.
            ("/clusters?bbox=0,40,60,80&zoom=5", ["cluster", "--bbox", "0,40,60,80", "--zoom", "5"]),
            ("/clusters?bbox=10,50,40,70&zoom=5", ["cluster", "--bbox", "10,50,40,70", "--zoom", "5"]),
            ("/clusters?bbox=24.9,60.1,25,60.3&zoom=7", ["cluster", "--bbox", "24.9,60.1,25,60.3", "--zoom", "7"]),
            ("/clusters?bbox=20,55,30,65&zoom=7", ["cluster", "--bbox", "20,55,30,65", "--zoom", "7"]),
            ("/clusters?zoom=1", ["cluster", "--zoom", "1"]),
        ]
        let expected = try views.map { try fixture.cli($0.arguments) }
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            for (view, bytes) in zip(views, expected) {
                #expect(try await client.get(view.uri) == bytes, "\(view.uri)")
            }
        }
    }

    @Test func aClusterOpensAsInTheCLI() async throws {
        let world = try fixture.cli(["cluster", "--zoom", "0"])
        let id = try #require(Self.clusterIDs(world).first)
        let children = try fixture.cli(["cluster", "--children", id])
        let leaves = try fixture.cli(["cluster", "--leaves", id, "--limit", "2", "--offset", "1"])
        let expansion = try fixture.cli(["cluster", "--expand", id])
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/clusters/\(id)/children") == children)
            #expect(try await client.get("/clusters/\(id)/leaves?limit=2&offset=1") == leaves)
            #expect(try await client.get("/clusters/\(id)/expansion_zoom") == expansion)
            let missing = try await client.call("/clusters/999999/children")
            #expect(missing.status == .notFound, "\(missing.body)")
        }
    }

    @Test func anIdFromBeforeAnEditIsRefusedAndTheNewIdsOpen() async throws {
        try await fixture.withServer(writeToken: "t") { (client: any TestClientProtocol) async throws in
            let before = try await client.get("/clusters?zoom=0")
            let old = try #require(Self.clusterIDs(before).first)
            let feature = #"{"type":"Feature","id":"new","geometry":{"type":"Point","coordinates":[24.95,60.18]},"properties":{"name":"New","kind":"place"}}"#
            let put = try await client.call("/features/new", method: .put, headers: [.authorization: "Bearer t"], body: feature)
            #expect(put.status == .ok, "\(put.body)")
            let stale = try await client.call("/clusters/\(old)/children")
            #expect(stale.status == .notFound)
            #expect(try errorBody(stale.body).error.contains("the features changed"))
            let after = try await client.get("/clusters?zoom=0")
            let fresh = try #require(Self.clusterIDs(after).first)
            #expect(fresh != old)
            let children = try await client.get("/clusters/\(fresh)/children")
            #expect(children.contains("\"type\":\"FeatureCollection\""))
            // The spliced hierarchy holds what a fresh build over the store holds; edited entries are listed last.
            #expect(sortedLines(withoutEpoch(after)) == sortedLines(try fixture.cli(["cluster", "--zoom", "0"])))
        }
    }

    /// Blocks kept for the low zooms' grid cells before an edit are not read after it: the answers hold what a
    /// fresh build over the edited store holds.
    @Test func blocksKeptBeforeAnEditAreNotReadAfterIt() async throws {
        let views = ["/clusters?bbox=0,40,60,80&zoom=5", "/clusters?zoom=3", "/clusters?bbox=20,55,30,65&zoom=7"]
        try await fixture.withServer(writeToken: "t") { (client: any TestClientProtocol) async throws in
            for view in views + views { _ = try await client.get(view) }
            let feature = #"{"type":"Feature","id":"new","geometry":{"type":"Point","coordinates":[24.95,60.18]},"properties":{"name":"New","kind":"place"}}"#
            let put = try await client.call("/features/new", method: .put, headers: [.authorization: "Bearer t"], body: feature)
            #expect(put.status == .ok, "\(put.body)")
            let fresh = try [["--bbox", "0,40,60,80", "--zoom", "5"], ["--zoom", "3"], ["--bbox", "20,55,30,65", "--zoom", "7"]]
                .map { try fixture.cli(["cluster"] + $0) }
            for _ in 0..<2 {
                for (view, expected) in zip(views, fresh) {
                    #expect(sortedLines(withoutEpoch(try await client.get(view))) == sortedLines(expected), "\(view)")
                }
            }
        }
    }
}
