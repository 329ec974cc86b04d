import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

/// The one format rule: by extension, `.json` by its first line.
@Suite struct InputFormatTests {
    @Test(arguments: [
        ("a.csv", InputFormat.csv), ("A.TSV.GZ", .csv), ("a.geojson", .geojson), ("a.json", .geojson), ("a.geojsons", .geojsonSeq),
        ("a.geojsonseq.gz", .geojsonSeq), ("a.jsonl", .jsonLines), ("a.ndjson", .jsonLines),
    ] as [(String, InputFormat)])
    func byName(path: String, format: InputFormat) {
        #expect(InputFormat.detect(path: path) == format)
    }

    @Test func unknownNamesSayNothing() {
        #expect(InputFormat.detect(path: "a.xml") == nil && InputFormat.detect(path: "noextension") == nil)
        #expect(InputFormat.detect(path: "-") == nil)
    }

    @Test(arguments: [
        (#"{"user":"u","lat":1,"lon":2}"# + "\n" + #"{"user":"v","lat":1,"lon":2}"# + "\n", InputFormat.jsonLines),
        (#"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"# + "\n", .jsonLines),
        ("{\n  \"type\": \"FeatureCollection\",\n  \"features\": []\n}\n", .geojson),
        (#"{"type":"FeatureCollection","features":[]}"# + "\n", .geojson),
        (#"{"type":"FeatureCollection","features":[]}"#, .geojson),
        ("\u{FEFF}" + #"{"id":"a","lat":1,"lon":2}"# + "\n", .jsonLines),
        ("", .geojson),
    ] as [(String, InputFormat)])
    func jsonByItsFirstLine(text: String, format: InputFormat) throws {
        #expect(InputFormat.detect(path: "x.json", leadingBytes: Array(text.utf8)) == format)
        let folder = try TemporaryFolder()
        #expect(InputFormat.detect(fileAt: try folder.write("x.json", text)) == format)
        // Other names keep their format whatever the content.
        #expect(InputFormat.detect(path: "x.geojson", leadingBytes: Array(text.utf8)) == .geojson)
    }

    @Test func aJSONLinesFileNamedJSONImports() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("places.json", #"{"id":"a","lat":60.1,"lon":24.9}"# + "\n" + #"{"id":"b","lat":60.2,"lon":24.8}"# + "\n")
        let reader = try openFeatureReader(path: path, options: ImportOptions())
        var ids: [String] = []
        while let record = try reader.next() {
            if case .feature(let feature, _) = record { ids.append(feature.id) }
        }
        #expect(ids == ["a", "b"])
    }
}
