import CairnServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The read endpoints answer the CLI's bytes, and refuse bad requests with a 400 naming the parameter.
@Suite struct ServerQueryTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    @Test(arguments: [
        ("/places/around_location?lat=60.17&long=24.94&rad=30km", ["around", "--lat", "60.17", "--long", "24.94", "--rad", "30km"]),
        ("/places/around_location?lat=60.17&long=24.94&rad=30km&format=csv", ["around", "--lat", "60.17", "--long", "24.94", "--rad", "30km", "--format", "csv"]),
        ("/places/around_location?lat=-16.8&long=180&rad=20km&where=fenced", ["around", "--lat", "-16.8", "--long", "180", "--rad", "20km", "--where", "fenced"]),
        ("/places/around_location?lat=-90&long=0&rad=1m", ["around", "--lat", "-90", "--long", "0", "--rad", "1m"]),
        ("/features?bbox=170,-25,190,-10", ["bbox", "--bbox", "170,-25,190,-10"]),
        ("/features?sw=-25,170&ne=-10,-170&format=json", ["bbox", "--sw", "-25,170", "--ne", "-10,-170", "--format", "json"]),
        ("/features?bbox=-180,-90,180,90&limit=3", ["bbox", "--bbox", "-180,-90,180,90", "--limit", "3"]),
        ("/features?bbox=24,60,26,61&where=rating%3E=4&format=ids", ["bbox", "--bbox", "24,60,26,61", "--where", "rating>=4", "--format", "ids"]),
        ("/nearest?lat=60.17&long=24.94&k=4", ["nearest", "--lat", "60.17", "--long", "24.94", "-k", "4"]),
        ("/nearest?lat=0&long=179.9&k=3&max_distance=3000km&model=sphere", ["nearest", "--lat", "0", "--long", "179.9", "-k", "3", "--max-distance", "3000km", "--model", "sphere"]),
        ("/containing?lat=60.17&long=24.94", ["containing", "--lat", "60.17", "--long", "24.94"]),
        ("/containing?lat=10&long=10", ["containing", "--lat", "10", "--long", "10"]),
        ("/geohash/prefix/ud9?format=csv", ["geohash", "prefix", "ud9", "--format", "csv"]),
    ])
    func answersAreTheCLIsBytes(uri: String, arguments: [String]) async throws {
        let expected = try fixture.cli(arguments)
        let served = try await fixture.withServer { client in try await client.get(uri) }
        #expect(served == expected, "\(uri)")
    }

    @Test func geohashToolsAnswerAsTheCLIPrintsThem() async throws {
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/geohash/encode?lat=60.17&long=24.94&precision=7") == "ud9wr98\n")
            #expect(try await client.get("/geohash/neighbors/ud9wr98")
                    == "n ud9wr9b\nne ud9wr9c\ne ud9wr99\nse ud9wr93\ns ud9wr92\nsw ud9wr3r\nw ud9wr3x\nnw ud9wr3z\n")
            #expect(try await client.get("/geohash/decode/u")
                    == "{\"hash\":\"u\",\"latitude\":67.5,\"longitude\":22.5,\"west\":0.0,\"south\":45.0,\"east\":45.0,\"north\":90.0}\n")
            #expect(try await client.get("/geohash/cover?bbox=24,60,25,61&max_cells=4") == "ud9\nudc\n")
        }
    }

    @Test(arguments: [
        ("/places/around_location?lat=95&long=0&rad=1km", "lat/long"),
        ("/places/around_location?lat=x&long=0&rad=1km", "lat"),
        ("/places/around_location?long=0&rad=1km", "lat"),
        ("/places/around_location?lat=0&long=0&rad=-5", "rad"),
        ("/places/around_location?lat=0&long=0", "rad"),
        ("/features?bbox=a,b", "bbox"),
        ("/features?bbox=0,95,1,96", "bbox"),
        ("/features", "bbox"),
        ("/features?bbox=0,0,1,1&where=%3E%3D4", "where"),
        ("/features?bbox=0,0,1,1&kind=castle", "kind"),
        ("/features?bbox=0,0,1,1&limit=100000000", "limit"),
        ("/features?bbox=0,0,1,1&limit=-1", "limit"),
        ("/features?bbox=0,0,1,1&format=xml", "format"),
        ("/nearest?lat=0&long=0&k=0", "k"),
        ("/nearest?lat=0&long=0&model=flat", "model"),
        ("/clusters?bbox=0,0,1,1&zoom=25", "zoom"),
        ("/clusters?bbox=0,0,1,1", "zoom"),
        ("/clusters/abc/children", "id"),
        ("/geohash/decode/ua", "hash"),
    ])
    func badRequestsGetA400NamingTheParameter(uri: String, parameter: String) async throws {
        let (status, body, headers) = try await fixture.withServer { client in try await client.call(uri) }
        #expect(status == .badRequest, "\(uri): \(body)")
        #expect(headers[.contentType] == "application/json")
        let error = try errorBody(body)
        #expect(error.parameter == parameter, "\(uri): \(body)")
        #expect(!error.error.isEmpty)
    }

    @Test func theSameMistakeGetsTheCLIsMessage() async throws {
        let body = try await fixture.withServer { client in try await client.call("/features?bbox=1,2,3").body }
        #expect(try errorBody(body).error == "bbox '1,2,3': expected west,south,east,north, 4 numbers separated by commas")
    }

    @Test func anAnswerCarriesTheGenerationAsETagAndARepeatGets304() async throws {
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            let first = try await client.call("/features?bbox=24,60,26,61")
            let tag = try #require(first.headers[.eTag])
            #expect(tag.hasPrefix("\"g1-"))
            let again = try await client.call("/features?bbox=24,60,26,61", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.body.isEmpty)
            let other = try await client.call("/features?bbox=24,60,26,61", headers: [.ifNoneMatch: "\"g0-x\""])
            #expect(other.status == .ok)
        }
    }

    @Test func aLongAnswerIsCutAtTheLimitAndSaysHowManyThereWere() async throws {
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            let (status, body, headers) = try await client.call("/places/around_location?lat=60.17&long=24.94&rad=100km&limit=2&format=ids")
            #expect(status == .ok)
            #expect(body.split(separator: "\n").count == 2)
            #expect(headers[HTTPField.Name("Cairn-Result-Count")!] == "5")
        }
    }

    @Test func healthAndMetricsReport() async throws {
        try await fixture.withServer { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/healthz") == "{\"status\":\"ok\",\"generation\":1,\"clusters_generation\":1,\"features\":9}\n")
            _ = try await client.get("/features?bbox=0,0,1,1")
            let metrics = try await client.get("/metrics")
            #expect(metrics.contains("cairn_features 9"))
            #expect(metrics.contains("cairn_store_generation 1"))
            #expect(metrics.contains("/features"))
        }
    }
}
