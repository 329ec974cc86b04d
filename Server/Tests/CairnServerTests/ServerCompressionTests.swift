import CairnServer
import CairnTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// gzip for clients that accept it: the same bytes once decompressed (by the system's `gzip`, an independent
/// decoder), q-values and `identity` honoured, `Vary` and a distinct `ETag` for caches in between, 304 still
/// answered, small answers plain.
@Suite struct ServerCompressionTests {
    let fixture: ServerFixture

    /// 400 seeded places over the world: list and cluster answers of several KiB.
    init() throws {
        var random = SplitMix64(seed: 2026)
        var csv = "id,name,lat,lon,radius,fenced,rating\n"
        for n in 0..<400 {
            csv += "p\(n),Place \(n),\(random.uniform(-60.0...70.0)),\(random.uniform(-180.0...180.0)),1km,true,\(n % 5)\n"
        }
        fixture = try ServerFixture(csv: csv)
    }

    /// A GET with `headers`: status, headers and the body's bytes as sent.
    static func fetch(_ client: any TestClientProtocol, _ uri: String, _ headers: HTTPFields = [:]) async throws
        -> (status: HTTPResponse.Status, headers: HTTPFields, body: [UInt8]) {
        try await client.execute(uri: uri, method: .get, headers: headers, body: nil) { response in
            (response.status, response.headers, Array(response.body.readableBytesView))
        }
    }

    /// `bytes` decompressed by the system's `gzip -dc`.
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = try TemporaryFolder()
        let path = folder.path + "/answer.gz"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (status, output) = try SystemCommand.run(["gzip", "-dc", path])
        #expect(status == 0, "gzip -dc failed on the answer")
        return Array(output)
    }

    static let largeAnswers = [
        "/clusters?bbox=-180,-90,180,90&zoom=3",
        "/features?bbox=-180,-90,180,90",
        "/features?bbox=-180,-90,180,90&format=csv",
        "/places/around_location?lat=10&long=20&rad=6000km",
    ]

    @Test(arguments: largeAnswers)
    func aGzipAnswerIsThePlainAnswerCompressed(uri: String) async throws {
        try await fixture.withServer { client in
            let plain = try await Self.fetch(client, uri)
            let gzip = try await Self.fetch(client, uri, [.acceptEncoding: "gzip, deflate, br"])
            #expect(plain.status == .ok && gzip.status == .ok)
            #expect(plain.body.count > 1024, "the answer must be above the threshold to test anything")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(gzip.headers[.contentType] == plain.headers[.contentType])
            #expect(gzip.body.count < plain.body.count / 2, "\(gzip.body.count) of \(plain.body.count) bytes")
            #expect(try Self.gunzip(gzip.body) == plain.body)
            // Kept in the answer cache: the second gzip answer is the same bytes.
            #expect(try await Self.fetch(client, uri, [.acceptEncoding: "gzip"]).body == gzip.body)
        }
    }

    @Test func clustersDecompressToTheCLIsBytes() async throws {
        let expected = try fixture.cli(["cluster", "--bbox", "-180,-90,180,90", "--zoom", "3"])
        try await fixture.withServer { client in
            let gzip = try await Self.fetch(client, "/clusters?bbox=-180,-90,180,90&zoom=3", [.acceptEncoding: "gzip"])
            #expect(gzip.headers[.contentEncoding] == "gzip")
            #expect(String(decoding: try Self.gunzip(gzip.body), as: UTF8.self) == expected)
        }
    }

    @Test(arguments: [
        ("gzip", true), ("GZip", true), ("x-gzip", true), ("*", true), ("deflate, gzip;q=0.8", true),
        ("gzip;q=0.5, identity;q=0.5", true), ("br;q=1.0, gzip ; q=0.001", true),
        ("gzip;q=0", false), ("gzip;q=0.0", false), ("identity", false), ("", false), ("deflate, br", false),
        ("gzip;q=0.5, identity", false), ("*;q=0", false), ("*, gzip;q=0", false), ("gzip;q=2", false),
        ("gzip;q=abc", false),
    ])
    func qValuesAndIdentityAreHonoured(acceptEncoding: String, gzip: Bool) async throws {
        let uri = "/features?bbox=-180,-90,180,90"
        try await fixture.withServer { client in
            let plain = try await Self.fetch(client, uri)
            let answer = try await Self.fetch(client, uri, [.acceptEncoding: acceptEncoding])
            #expect(answer.headers[.contentEncoding] == (gzip ? "gzip" : nil), "Accept-Encoding: \(acceptEncoding)")
            #expect((gzip ? try Self.gunzip(answer.body) : answer.body) == plain.body)
            // The control: the same answer is compressed for a plain `gzip`.
            #expect(try await Self.fetch(client, uri, [.acceptEncoding: "gzip"]).headers[.contentEncoding] == "gzip")
        }
    }

    @Test func answersVaryByAcceptEncodingAndSmallOnesStayPlain() async throws {
        try await fixture.withServer { client in
            let large = "/features?bbox=-180,-90,180,90"
            #expect(try await Self.fetch(client, large).headers[.vary] == "Accept-Encoding")
            #expect(try await Self.fetch(client, large, [.acceptEncoding: "gzip"]).headers[.vary] == "Accept-Encoding")
            let small = try await Self.fetch(client, "/features?bbox=-180,-90,180,90&limit=1", [.acceptEncoding: "gzip"])
            #expect(small.status == .ok && small.body.count <= 1024 && small.body.count > 0)
            #expect(small.headers[.contentEncoding] == nil && small.headers[.vary] == nil)
            #expect(small.body.first == UInt8(ascii: "{"))
        }
    }

    @Test func theGzipAnswerHasItsOwnTagAndBothRevalidate() async throws {
        let uri = "/clusters?bbox=-180,-90,180,90&zoom=3"
        try await fixture.withServer { client in
            let plain = try await Self.fetch(client, uri)
            let gzip = try await Self.fetch(client, uri, [.acceptEncoding: "gzip"])
            let plainTag = try #require(plain.headers[.eTag]), gzipTag = try #require(gzip.headers[.eTag])
            #expect(plainTag != gzipTag)
            #expect(gzipTag.hasPrefix("\"") && gzipTag.hasSuffix("-gz\""))

            // The gzip tag revalidates for a client that accepts gzip: 304, its tag, no body.
            let held = try await Self.fetch(client, uri, [.acceptEncoding: "gzip", .ifNoneMatch: gzipTag])
            #expect(held.status == .notModified && held.body.isEmpty)
            #expect(held.headers[.eTag] == gzipTag && held.headers[.vary] == "Accept-Encoding")
            // Named with the plain tag (a cache holding both), the gzip one is chosen.
            let both = try await Self.fetch(client, uri, [.acceptEncoding: "gzip", .ifNoneMatch: "\(plainTag), \(gzipTag)"])
            #expect(both.status == .notModified && both.headers[.eTag] == gzipTag)
            // A client that accepts gzip and holds the plain answer holds an answer it accepts.
            let plainHeld = try await Self.fetch(client, uri, [.acceptEncoding: "gzip", .ifNoneMatch: plainTag])
            #expect(plainHeld.status == .notModified && plainHeld.headers[.eTag] == plainTag)
            // Without gzip, the gzip tag is not the answer it would get: the plain answer, in full.
            let refetched = try await Self.fetch(client, uri, [.ifNoneMatch: gzipTag])
            #expect(refetched.status == .ok && refetched.body == plain.body && refetched.headers[.eTag] == plainTag)
            let plainAgain = try await Self.fetch(client, uri, [.ifNoneMatch: plainTag])
            #expect(plainAgain.status == .notModified && plainAgain.headers[.eTag] == plainTag)
        }
    }

    @Test func noGzipSendsPlainAnswersThatDoNotVary() async throws {
        let uri = "/features?bbox=-180,-90,180,90"
        let off = try await fixture.withServer(configure: { $0.gzip = false }) { client in
            try await Self.fetch(client, uri, [.acceptEncoding: "gzip"])
        }
        let on = try await fixture.withServer { client in try await Self.fetch(client, uri, [.acceptEncoding: "gzip"]) }
        #expect(off.headers[.contentEncoding] == nil && off.headers[.vary] == nil)
        #expect(off.body.count > 1024 && off.body.first == UInt8(ascii: "{"))
        #expect(on.headers[.contentEncoding] == "gzip")
    }
}
