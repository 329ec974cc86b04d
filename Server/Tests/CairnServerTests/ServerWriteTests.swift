import CairnServer
import CairnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Writes need the token, land in the store in one transaction, and show in the next read of every endpoint.
@Suite struct ServerWriteTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    static let cafe = #"{"type":"Feature","id":"cafe","geometry":{"type":"Point","coordinates":[24.9401,60.1701]},"properties":{"name":"Cafe","kind":"place","radiusMeters":50}}"#

    @Test func aServerWithoutATokenIsReadOnly() async throws {
        let put = try await fixture.withServer { client in try await client.call("/features/cafe", method: .put, body: Self.cafe) }
        #expect(put.status == .forbidden)
        #expect(try errorBody(put.body).error.contains("read-only"))
    }

    @Test func aWriteWithoutTheRightTokenIsRefused() async throws {
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            #expect(try await client.call("/features/cafe", method: .put, body: Self.cafe).status == .unauthorized)
            #expect(try await client.call("/features/cafe", method: .put, headers: [.authorization: "Bearer nope"], body: Self.cafe).status == .unauthorized)
            #expect(try await client.call("/features/hel", method: .delete, headers: [.authorization: "Bearer nope"]).status == .unauthorized)
        }
        #expect(try FeatureStore(path: fixture.db).feature(id: "cafe") == nil)
    }

    @Test func anEditIsSeenByFeaturesAroundClustersAndTheStore() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let put = try await client.call("/features/cafe", method: .put, headers: auth, body: Self.cafe)
            #expect(put.status == .ok, "\(put.body)")
            #expect(put.body == "{\"upserted\":1,\"generation\":2}\n")
            #expect(try await client.get("/features/cafe").contains("\"name\":\"Cafe\""))
            #expect(try await client.get("/places/around_location?lat=60.1701&long=24.9401&rad=10m&format=ids") == "cafe\n")
            #expect(try await client.get("/containing?lat=60.17012&long=24.94012&format=ids").contains("cafe\n"))
            #expect(try await client.get("/clusters?zoom=20&bbox=24.9,60.1,25,60.2").contains("\"id\":\"cafe\""))
            let deleted = try await client.call("/features/hel", method: .delete, headers: auth)
            #expect(deleted.status == .ok)
            #expect(try await client.call("/features/hel").status == .notFound)
            #expect(try await client.call("/features/hel", method: .delete, headers: auth).status == .notFound)
        }
        // The store holds the edits, and the CLI over it answers as the server did.
        let store = try FeatureStore(path: fixture.db)
        #expect(try store.feature(id: "cafe") != nil)
        #expect(try store.feature(id: "hel") == nil)
    }

    @Test func answersAfterEditsAreTheCLIsOverTheEditedStore() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        let moved = #"{"type":"Feature","id":"esp","geometry":{"type":"Point","coordinates":[24.7,60.21]},"properties":{"name":"Espoo moved","kind":"place"}}"#
        let served = try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            #expect(try await client.call("/features/esp", method: .put, headers: auth, body: moved).status == .ok)
            #expect(try await client.call("/features/cafe", method: .put, headers: auth, body: Self.cafe).status == .ok)
            #expect(try await client.call("/features/van", method: .delete, headers: auth).status == .ok)
            return [try await client.get("/features?bbox=-180,-90,180,90"),
                    try await client.get("/places/around_location?lat=60.17&long=24.94&rad=50km&format=csv"),
                    try await client.get("/clusters?zoom=4")]
        }
        #expect(served[0] == (try fixture.cli(["bbox", "--bbox", "-180,-90,180,90"])))
        #expect(served[1] == (try fixture.cli(["around", "--lat", "60.17", "--long", "24.94", "--rad", "50km", "--format", "csv"])))
        #expect(sortedLines(withoutEpoch(served[2])) == sortedLines(try fixture.cli(["cluster", "--zoom", "4"])))
    }

    @Test func aRepeatedReadKeepsItsAnswerUntilAnEditChangesIt() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        let uri = "/places/around_location?lat=60.1701&long=24.9401&rad=50m&format=ids"
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let first = try await client.get(uri)
            #expect(try await client.get(uri) == first)
            #expect(try await client.call("/features/cafe", method: .put, headers: auth, body: Self.cafe).status == .ok)
            #expect(try await client.get(uri) == "cafe\n" + first)
            // Another format of the same query by Accept is another answer.
            let csv = try await client.call("/places/around_location?lat=60.1701&long=24.9401&rad=50m", headers: [.accept: "text/csv"])
            #expect(csv.body.hasPrefix("id,kind,"))
        }
    }

    @Test func aCollectionWithOneBadRecordWritesNothing() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret", .contentType: "application/geo+json"]
        let collection = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,1]},"properties":{"name":"A","kind":"place"}},
            {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[1,95]},"properties":{"name":"B","kind":"place"}}
            ]}
            """
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let refused = try await client.call("/features", method: .post, headers: auth, body: collection)
            #expect(refused.status == .badRequest)
            #expect(try errorBody(refused.body).error.contains("1 of 2 records refused, nothing written"))
            #expect(try await client.call("/features/a").status == .notFound)
            let good = collection.replacingOccurrences(of: "[1,95]", with: "[1,2]")
            let posted = try await client.call("/features", method: .post, headers: auth, body: good)
            #expect(posted.body == "{\"upserted\":2,\"generation\":2}\n")
            #expect(try await client.get("/features?bbox=0,0,3,3&format=ids") == "a\nb\n")
        }
    }

    @Test func aBodyOverTheLimitGets413() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        let big = String(repeating: " ", count: 2 << 20) + Self.cafe
        let response = try await fixture.withServer(writeToken: "secret", configure: { $0.maxBodyBytes = 1 << 20 }) { (client: any TestClientProtocol) async throws in
            try await client.call("/features", method: .post, headers: auth, body: big)
        }
        #expect(response.status == .contentTooLarge)
    }

    @Test func pagesStayCorrectWhileEditsHappen() async throws {
        let auth: HTTPFields = [.authorization: "Bearer secret"]
        try await fixture.withServer(writeToken: "secret", configure: { $0.maxResults = 3 }) { (client: any TestClientProtocol) async throws in
            let first = try await client.call("/features?bbox=-180,-90,180,90&format=ids")
            #expect(first.body == "hel\nesp\nvan\n")
            let cursor = try #require(first.headers[HTTPField.Name("Cairn-Next-Cursor")!])
            #expect(cursor == "3")
            // Between pages: a feature already shown and one not yet shown are deleted, two are added.
            for id in ["hel", "twin1"] { _ = try await client.call("/features/\(id)", method: .delete, headers: auth) }
            for id in ["aaa", "zzz"] {
                let body = #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[1,1]},"properties":{"name":"x","kind":"place"}}"#
                _ = try await client.call("/features/\(id)", method: .put, headers: auth, body: body)
            }
            var seen = first.body.split(separator: "\n").map(String.init)
            var next: String? = cursor
            while let page = next {
                let response = try await client.call("/features?bbox=-180,-90,180,90&format=ids&cursor=\(page)")
                seen += response.body.split(separator: "\n").map(String.init)
                next = response.headers[HTTPField.Name("Cairn-Next-Cursor")!]
            }
            #expect(seen == ["hel", "esp", "van", "suva", "taveuni", "west", "pole", "twin2", "aaa", "zzz"])
        }
    }
}
