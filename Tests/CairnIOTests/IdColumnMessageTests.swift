import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// A record without the id field the user named says so in the user's words (#16 item 3): the `--id-column` name,
/// where the record is in a one-line collection, and what the record holds instead; not "field 'id'" for every one.
@Suite struct IdColumnMessageTests {
    @Test func aMissingIdColumnIsNamedWithWhereTheRecordIsAndWhatItHolds() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("parks.geojson", #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,60.1]},"properties":{"id":1,"name":"A"}},"#
            + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[24.8,60.2]},"properties":{"osm_id":"w2","name":"B"}}]}"#)
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions(idColumn: "osm_id")))
        let rejections = jsonRejections(records)
        #expect(rejections.count == 1 && jsonFeatures(records).map(\.id) == ["w2"])
        #expect(rejections.first?.field == "osm_id")
        #expect(rejections.first?.reason == "field 'osm_id' named by --id-column is missing (the record at column 41); the record has 'id', 'name'")
    }

    @Test func anEmptyIdIsStillAnEmptyId() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("p.csv", "id,name,lat,lon\n,A,1,1\nb,B,2,2\n")
        let records = try jsonReadAll(CSVFeatureReader(source: ByteSource(path: path), options: ImportOptions()))
        #expect(jsonRejections(records).map(\.reason) == ["field 'id': must not be empty"])
        #expect(jsonFeatures(records).map(\.id) == ["b"])
    }
}
