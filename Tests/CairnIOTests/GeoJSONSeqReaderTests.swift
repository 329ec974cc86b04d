import CairnCore
import Testing
@testable import CairnIO

struct GeoJSONSeqReaderTests {
    @Test func readsRecordSeparatedFeatures() throws {
        for name in ["sequence.geojsons", "sequence.geojsons.gz"] {
            let path = try jsonFixture(name)
            let records = try jsonReadAll(makeGeoJSONSeqReader(path: path, options: ImportOptions()))
            let summary = jsonSummaries(records)
            try #require(summary.count == 6, "\(summary)")
            #expect(summary[0] == "1 s1 60.1 24.9")
            #expect(summary[1] == "2 s2 60.2 25.0")
            #expect(summary[2].hasPrefix("6 ! invalid JSON at line 7, column 1: unexpected end of input"))
            #expect(summary[3] == "7 s4 60.3 25.1")
            #expect(summary[4] == "8 ! expected a GeoJSON Feature, got type 'FeatureCollection'")
            #expect(summary[5] == "9 ! unexpected end of file inside a feature (is the file truncated?)")
        }
    }

    @Test func readsNewlineDelimitedFeatures() throws {
        let records = try jsonReadAll(makeGeoJSONSeqReader(path: try jsonFixture("newline-delimited.geojsonl"), options: ImportOptions()))
        #expect(jsonSummaries(records) == ["1 n1 60.1 24.9", "3 n2 60.2 24.8"])
    }

    @Test func flatRecordsAreNotFeatures() throws {
        let records = try jsonReadAll(makeGeoJSONSeqReader(path: try jsonFixture("records.jsonl"), options: ImportOptions()))
        // Only line 4 of records.jsonl is a GeoJSON Feature.
        #expect(jsonFeatures(records).map(\.id) == ["j2"])
        #expect(jsonRejections(records).first?.reason == "missing \"type\": \"Feature\"")
    }

    @Test func emptyFileHasNoRecords() throws {
        #expect(try jsonReadAll(makeGeoJSONSeqReader(path: try jsonFixture("empty.geojson"), options: ImportOptions())).isEmpty)
    }
}
