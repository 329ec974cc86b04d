import CairnTestSupport
import Testing
@testable import CairnCheckIns

/// The check-ins' format follows CairnIO's one format rule: by name, `.json` by its first line, GeoJSON refused.
@Suite struct CheckInInputFormatTests {
    @Test func namesGiveTheFormat() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("checkins.csv", "id,user,lat,lon,time\n")
        let tsv = try folder.write("checkins.TSV", "id,user,lat,lon,time\n")
        let jsonl = try folder.write("checkins.jsonl", "{\"id\":\"c1\",\"lat\":1,\"lon\":2}\n")
        let ndjson = try folder.write("checkins.ndjson.gz", "")
        #expect(try CheckInInputFormat.detect(fileAt: csv) == .csv)
        #expect(try CheckInInputFormat.detect(fileAt: tsv) == .csv)
        #expect(try CheckInInputFormat.detect(fileAt: jsonl) == .jsonl)
        #expect(try CheckInInputFormat.detect(fileAt: ndjson) == .jsonl)
    }

    @Test func aJSONFileIsToldByItsFirstLine() throws {
        let folder = try TemporaryFolder()
        let lines = try folder.write("lines.json", "{\"id\":\"c1\",\"lat\":1,\"lon\":2}\n{\"id\":\"c2\",\"lat\":1,\"lon\":2}\n")
        #expect(try CheckInInputFormat.detect(fileAt: lines) == .jsonl)
        let collection = try folder.write("collection.json", "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        let pretty = try folder.write("pretty.json", "{\n  \"type\": \"FeatureCollection\",\n  \"features\": []\n}\n")
        for path in [collection, pretty] {
            #expect(throws: CheckInError.self) { try CheckInInputFormat.detect(fileAt: path) }
        }
    }

    @Test func geoJSONIsRefusedWithAClearMessage() throws {
        let folder = try TemporaryFolder()
        let geojson = try folder.write("places.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}\n")
        let sequence = try folder.write("places.geojsonseq", "")
        for path in [geojson, sequence] {
            do {
                _ = try CheckInInputFormat.detect(fileAt: path)
                Issue.record("\(path) was not refused")
            } catch {
                #expect(error.description.hasPrefix("\(path): looks like GeoJSON"))
                #expect(error.description.contains("--input-format"))
            }
        }
    }

    @Test func standardInputAndUnknownNamesAreCSV() throws {
        let folder = try TemporaryFolder()
        let plain = try folder.write("checkins", "id,user,lat,lon,time\n")
        #expect(try CheckInInputFormat.detect(fileAt: "-") == .csv)
        #expect(try CheckInInputFormat.detect(fileAt: plain) == .csv)
    }
}
