import CairnCore
import Testing
@testable import CairnIO

struct JSONLinesReaderTests {
    @Test func readsFlatRecordsAndFeatures() throws {
        for name in ["records.jsonl", "records.jsonl.gz"] {
            let path = try jsonFixture(name)
            let records = try jsonReadAll(makeJSONLinesReader(path: path, options: ImportOptions()))
            let lines = records.map { record in
                switch record {
                case .feature(_, let line): line
                case .rejected(let rejection): rejection.line
                }
            }
            #expect(lines == [1, 4, 5, 6, 7, 8, 9, 10, 11, 12]) // blank lines 2 and 3 skipped
            let features = jsonFeatures(records)
            #expect(features.map(\.id) == ["j1", "j2", "j5"])
            try #require(features.count == 3)
            #expect(features[0].location == (try Coordinate(latitude: 60.17, longitude: 24.94)))
            #expect(features[0].radiusMeters == 1200)
            #expect(features[0].attributes["interests"] == .set(["a", "b"]))
            #expect(features[0].attributes["name"] == .string("flat one"))
            #expect(features[1].radiusMeters == 50)
            #expect(features[2].location == (try Coordinate(latitude: -33.86, longitude: 151.21))) // misspelt aliases, CRLF

            let rejections = Dictionary(jsonRejections(records).map { ($0.line, $0) }, uniquingKeysWith: { a, _ in a })
            // Swapped latitude and longitude: the message says so.
            #expect(rejections[5]?.reason == "field 'latitude': latitude 151.21 is out of range [-90, 90] (are latitude and longitude swapped?)")
            #expect(rejections[5]?.field == "latitude")
            #expect(rejections[6]?.reason.contains("(are latitude and longitude swapped?)") == true)
            #expect(rejections[7]?.reason.hasPrefix("invalid JSON at line 7, column 1: invalid literal") == true)
            #expect(rejections[8]?.reason == "expected a JSON object, got an array")
            #expect(rejections[10]?.reason.contains("invalid UTF-8 in a string") == true)
            #expect(rejections[11]?.reason.contains("field 'longitude': missing value") == true)
            #expect(rejections[12]?.reason == "unexpected end of file inside a feature (is the file truncated?)")
        }
    }

    @Test func readsFeatureCollectionsAsRejections() throws {
        let path = try jsonFixture("empty-collection.geojson")
        let records = try jsonReadAll(makeJSONLinesReader(path: path, options: ImportOptions()))
        #expect(jsonSummaries(records) == ["1 ! a FeatureCollection is not a JSON lines record; read the file as .geojson"])
    }

    @Test func acceptsRecordSeparatorFraming() throws {
        let records = try jsonReadAll(makeJSONLinesReader(path: try jsonFixture("sequence.geojsons"), options: ImportOptions()))
        #expect(jsonFeatures(records).map(\.id) == ["s1", "s2", "s4"])
    }

    @Test func idColumnAndKindOptions() throws {
        let options = ImportOptions(kind: .park, idColumn: "name")
        let records = try jsonReadAll(makeJSONLinesReader(path: try jsonFixture("records.jsonl"), options: options))
        let first = try #require(jsonFeatures(records).first)
        #expect(first.id == "flat one")
        #expect(first.kind == .park)
    }
}
