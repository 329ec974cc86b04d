import CairnServer
import CairnStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `PUT /features/{id}` and `POST /features` check polygons as the import does (GEOS's validity): an invalid one is a
/// 400 with GEOS's reason and nothing is stored; a valid one is stored and served.
@Suite struct ServerPolygonValidityTests {
    let fixture: ServerFixture
    static let auth: HTTPFields = [.authorization: "Bearer secret"]

    init() throws {
        fixture = try ServerFixture()
    }

    /// A park as a GeoJSON Feature with `ring` as its exterior.
    static func park(_ id: String, _ ring: String) -> String {
        #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Polygon","coordinates":[\#(ring)]},"properties":{"kind":"park","name":"\#(id)"}}"#
    }

    /// A bow tie: its edges cross at (1, 1).
    static let bowTie = "[[0,0],[2,2],[2,0],[0,2],[0,0]]"
    static let square = "[[0,0],[2,0],[2,2],[0,2],[0,0]]"

    @Test func aBowTieIsRefusedWithGEOSsReasonAndNothingIsStored() async throws {
        let refused = try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let put = try await client.call("/features/tie", method: .put, headers: Self.auth, body: Self.park("tie", Self.bowTie))
            #expect(try await client.call("/features/tie").status == .notFound)
            #expect(try await client.get("/features?bbox=-1,-1,3,3&format=ids") == "")
            return put
        }
        #expect(refused.status == .badRequest)
        let body = try errorBody(refused.body)
        #expect(body.error.contains("invalid Polygon: Self-intersection"), "\(body.error)")
        #expect(body.parameter == "geometry")
        #expect(try FeatureStore(path: fixture.db).feature(id: "tie") == nil)
    }

    @Test func aValidPolygonIsStoredAndServed() async throws {
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let put = try await client.call("/features/square", method: .put, headers: Self.auth, body: Self.park("square", Self.square))
            #expect(put.status == .ok, "\(put.body)")
            #expect(try await client.get("/features?bbox=-1,-1,3,3&format=ids") == "square\n")
            #expect(try await client.get("/features/square").contains(#""type":"Polygon""#))
        }
    }

    @Test func oneBadFeatureInAPostStoresNone() async throws {
        let collection = #"{"type":"FeatureCollection","features":["#
            + [Self.park("a", Self.square), Self.park("tie", Self.bowTie), Self.park("c", Self.square)].joined(separator: ",") + "]}"
        try await fixture.withServer(writeToken: "secret") { (client: any TestClientProtocol) async throws in
            let posted = try await client.call("/features", method: .post, headers: Self.auth, body: collection)
            #expect(posted.status == .badRequest)
            let body = try errorBody(posted.body)
            #expect(body.error.hasPrefix("feature 2 of 3 (id 'tie'): invalid Polygon: Self-intersection"), "\(body.error)")
            #expect(body.parameter == "geometry")
            #expect(try await client.get("/features?bbox=-1,-1,3,3&format=ids") == "")
        }
        let store = try FeatureStore(path: fixture.db)
        #expect(try store.feature(id: "a") == nil && store.feature(id: "c") == nil)
    }
}
