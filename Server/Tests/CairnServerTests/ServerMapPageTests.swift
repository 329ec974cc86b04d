import CairnServer
import CairnTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The map page and the files it loads: Leaflet from the configured folder (404 naming the package when absent) and
/// the outline given with `--basemap`. What the page draws is checked in a real browser by scripts/browser-test.
struct ServerMapPageTests {
    @Test func thePageLeafletAndTheOutlineAreServedFromWhereTheyWereFound() async throws {
        let fixture = try ServerFixture()
        let leaflet = fixture.folder.path + "/leaflet"
        try FileManager.default.createDirectory(atPath: leaflet, withIntermediateDirectories: true)
        _ = try fixture.folder.write("leaflet/leaflet.js", "var L = {};\n")
        _ = try fixture.folder.write("leaflet/leaflet.css", ".leaflet-container {}\n")
        let outline = try fixture.folder.write("outline.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        let answers = try await fixture.withServer(configure: { $0.leafletFolder = leaflet; $0.basemapPath = outline }) { client in
            [try await client.call("/", method: .get), try await client.call("/leaflet/leaflet.js", method: .get),
             try await client.call("/leaflet/leaflet.css", method: .get), try await client.call("/basemap.geojson", method: .get),
             try await client.call("/leaflet/secret.txt", method: .get)]
        }
        #expect(answers[0].status == .ok && answers[0].headers[.contentType] == "text/html; charset=utf-8")
        #expect(answers[0].body.contains("<script src=\"/leaflet/leaflet.js\"></script>"))
        #expect(answers[1].status == .ok && answers[1].body == "var L = {};\n")
        #expect(answers[2].status == .ok && answers[2].headers[.contentType] == "text/css; charset=utf-8")
        #expect(answers[3].status == .ok && answers[3].body == "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        #expect(answers[4].status == .notFound)
    }

    @Test func withoutLeafletOrAnOutlineTheAnswersSayWhatIsMissing() async throws {
        let fixture = try ServerFixture()
        let answers = try await fixture.withServer(configure: { $0.leafletFolder = fixture.folder.path + "/none" }) { client in
            [try await client.call("/", method: .get), try await client.call("/leaflet/leaflet.js", method: .get),
             try await client.call("/basemap.geojson", method: .get)]
        }
        #expect(answers[0].status == .ok && answers[0].body.contains("apt install libjs-leaflet"))
        #expect(answers[1].status == .notFound && answers[1].body.contains("apt install libjs-leaflet"))
        #expect(answers[2].status == .notFound && answers[2].body.contains("--basemap"))
    }

    @Test func anUnreadableOutlineStopsTheStartWithItsPath() throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration()
        configuration.basemapPath = fixture.folder.path + "/missing.geojson"
        let error = #expect(throws: ServerError.self) { _ = try CairnServer.makeApplication(configuration: configuration) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("--basemap: cannot read '\(fixture.folder.path)/missing.geojson'"))
    }
}
