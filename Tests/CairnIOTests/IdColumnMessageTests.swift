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
        #expect(rejections.first?.reason == "field 'osm_id' named by --id-column is missing (feature 1 of the collection, at column 41); the record has 'id', 'name'")
    }

    /// In a FeatureCollection on one line the line says nothing: the message counts the features, 1-based, the
    /// ones rejected for other reasons and the ones over the size limit included, as a reader of the file counts them.
    @Test func aMissingIdColumnInACollectionNamesTheFeaturesNumber() throws {
        let folder = try TemporaryFolder()
        let point = #""geometry":{"type":"Point","coordinates":[24.9,60.1]}"#
        let path = try folder.write("parks.geojson", #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature",\#(point),"properties":{"osm_id":"w1"}},"#
            + #"{"type":"Feature","geometry":null,"properties":{"osm_id":"w2"}},"#
            + #"{"type":"Feature",\#(point),"properties":{"osm_id":"w3","name":""#
            + String(repeating: "x", count: 200) + #""}},"#
            + #"{"type":"Feature",\#(point),"properties":{"id":8042613,"name":"Simonpuistikko"}}]}"#)
        var options = ImportOptions(idColumn: "osm_id")
        options.maxRecordBytes = 150
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: options))
        #expect(jsonFeatures(records).map(\.id) == ["w1"])
        let rejections = jsonRejections(records)
        #expect(rejections.count == 3)
        #expect(rejections.last?.line == 1 && rejections.last?.field == "osm_id")
        #expect(rejections.last?.reason.hasPrefix("field 'osm_id' named by --id-column is missing (feature 4 of the collection, at column ") == true)
        #expect(rejections.last?.reason.hasSuffix("); the record has 'id', 'name'") == true)
    }

    @Test func anEmptyIdInACollectionNamesTheFeaturesNumber() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("p.geojson", """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9, 60.1]}, "properties": {"id": "a"}},
              {"type": "Feature", "geometry": {"type": "Point", "coordinates": [24.9, 60.1]}, "properties": {"id": ""}}
            ]}
            """)
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions()))
        #expect(jsonRejections(records).map(\.reason) == ["field 'id': must not be empty (feature 2 of the collection, at column 3)"])
        #expect(jsonRejections(records).map(\.line) == [3])
    }

    @Test func anEmptyIdIsStillAnEmptyId() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("p.csv", "id,name,lat,lon\n,A,1,1\nb,B,2,2\n")
        let records = try jsonReadAll(CSVFeatureReader(source: ByteSource(path: path), options: ImportOptions()))
        #expect(jsonRejections(records).map(\.reason) == ["field 'id': must not be empty"])
        #expect(jsonFeatures(records).map(\.id) == ["b"])
    }
}
