import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnIO

/// The path of a fixture under `Fixtures/json/`.
func jsonFixture(_ name: String) throws -> String {
    let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
    return folder.appendingPathComponent("json").appendingPathComponent(name).path
}

/// Every record a reader yields, in order.
func jsonReadAll(_ reader: any FeatureReader) throws -> [ImportRecord] {
    var records: [ImportRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
}

/// Records as comparable summaries: `line id lat lon` for features, `line ! reason` for rejections.
func jsonSummaries(_ records: [ImportRecord]) -> [String] {
    records.map { record in
        switch record {
        case .feature(let feature, let line): "\(line) \(feature.id) \(feature.location.latitude) \(feature.location.longitude)"
        case .rejected(let rejection): "\(rejection.line) ! \(rejection.reason)"
        }
    }
}

func jsonFeatures(_ records: [ImportRecord]) -> [Feature] {
    records.compactMap { if case .feature(let feature, _) = $0 { feature } else { nil } }
}

func jsonRejections(_ records: [ImportRecord]) -> [RowRejection] {
    records.compactMap { if case .rejected(let rejection) = $0 { rejection } else { nil } }
}

/// The input error opening or reading a file throws, or nil when it reads through.
func jsonInputError(_ open: () throws(InputError) -> any FeatureReader) -> InputError? {
    do {
        let reader = try open()
        while try reader.next() != nil {}
        return nil
    } catch {
        return error
    }
}

struct GeoJSONReaderTests {
    @Test func readsACollectionWithTypedProperties() throws {
        let path = try jsonFixture("collection.geojson")
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions()))
        #expect(jsonRejections(records).isEmpty, "\(jsonRejections(records))")
        let lines = records.map { if case .feature(_, let line) = $0 { line } else { -1 } }
        #expect(lines == [6, 21, 23, 31])
        let features = jsonFeatures(records)
        try #require(features.count == 4)

        let cafe = features[0]
        #expect(cafe.id == "p1")
        #expect(cafe.kind == .place)
        #expect(cafe.location == (try Coordinate(latitude: 60.1699, longitude: 24.9384)))
        #expect(cafe.radiusMeters == 150)
        #expect(cafe.attributes["name"] == .string("Café \"Kappeli\" \\ tab\there"))
        #expect(cafe.attributes["rating"] == .number(4.5))
        #expect(cafe.attributes["open"] == .bool(true))
        #expect(cafe.attributes["closedOn"] == nil)
        #expect(cafe.attributes["tags"] == .set(["terrace", "coffee"]))
        #expect(cafe.attributes["extra"] == .string(#"{"floors":2,"note":"a,b"}"#))

        let tree = features[1]
        #expect(tree.id == "42") // properties.id when there is no top-level id
        #expect(tree.attributes["name"] == .string("Emoji 🌲 tree 🌲 Ääkkönen"))
        #expect(tree.location == (try Coordinate(latitude: 60.17, longitude: 24.95)))
        #expect(tree.radiusMeters == 80)

        let square = features[2]
        #expect(square.kind == .park)
        #expect(square.location == (try Coordinate(latitude: 61, longitude: 25)))
        #expect(square.id == path + ":23:5") // no id anywhere: FILE:LINE:COLUMN, FILE the path as given

        let fromProperties = features[3]
        #expect(fromProperties.id == "7")
        #expect(fromProperties.location == (try Coordinate(latitude: 60.2, longitude: 24.9)))
    }

    @Test func idColumnNamesTheIdProperty() throws {
        let path = try jsonFixture("collection.geojson")
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions(idColumn: "name")))
        let ids = jsonFeatures(records).map(\.id)
        #expect(ids == ["Emoji 🌲 tree 🌲 Ääkkönen", "square park", "from properties"])
        // The first name holds a tab: a control character, which an id may not hold (issue #15 item 6).
        #expect(jsonRejections(records).map(\.line) == [6] && jsonRejections(records).first?.field == "name")
    }

    @Test func helsinkiParksRealData() throws {
        for name in ["helsinki-parks.geojson", "helsinki-parks.geojson.gz"] {
            let path = try jsonFixture(name)
            let reader = try makeGeoJSONReader(path: path, options: ImportOptions(kind: .park))
            let records = try jsonReadAll(reader)
            #expect(records.count == 17)
            #expect(jsonRejections(records).isEmpty, "\(jsonRejections(records))")
            let features = jsonFeatures(records)
            #expect(Set(features.map(\.id)).count == 17)
            for feature in features {
                #expect((60.1...60.3).contains(feature.location.latitude), "\(feature.id) \(feature.location)")
                #expect((24.8...25.1).contains(feature.location.longitude), "\(feature.id) \(feature.location)")
                #expect(feature.kind == .park)
                #expect(feature.attributes["leisure"] != nil)
                if case .time = feature.attributes["timestamp"] {} else { Issue.record("timestamp is not a time") }
            }
            #expect(reader.bytesConsumed == reader.fileSizeBytes)
        }
    }

    @Test func parkLocationsMatchTheGoldenFile() throws {
        // helsinki-parks.expected.tsv is made by make-parks-expected.py (Python, a different centroid formulation).
        let golden = try String(contentsOfFile: try jsonFixture("helsinki-parks.expected.tsv"), encoding: .utf8)
        let expected = golden.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let records = try jsonReadAll(makeGeoJSONReader(path: try jsonFixture("helsinki-parks.geojson"), options: ImportOptions()))
        let features = jsonFeatures(records)
        try #require(features.count == expected.count)
        for (feature, row) in zip(features, expected) {
            #expect(feature.id == row[0])
            #expect(abs(feature.location.latitude - (Double(row[1]) ?? .nan)) < 1e-9, "\(feature.id)")
            #expect(abs(feature.location.longitude - (Double(row[2]) ?? .nan)) < 1e-9, "\(feature.id)")
        }
    }

    @Test func malformedFeaturesAreRejectedAndTheRestContinue() throws {
        let path = try jsonFixture("rejections.geojson")
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions()))
        let summary = jsonSummaries(records)
        #expect(summary.count == 11, "\(summary)")
        #expect(jsonFeatures(records).map(\.id) == ["ok1", "ok2", "ok3"])
        let rejections = Dictionary(jsonRejections(records).map { ($0.line, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(Set(rejections.keys) == [3, 4, 5, 6, 7, 9, 10, 11])
        #expect(rejections[3]?.reason.hasPrefix("geometry.coordinates: latitude 95 is out of range [-90, 90]") == true)
        #expect(rejections[3]?.field == "geometry.coordinates")
        #expect(rejections[4]?.reason == "geometry is null and the properties have no latitude and longitude")
        #expect(rejections[5]?.reason.contains("geometry type 'GeometryCollection' is not supported") == true)
        #expect(rejections[6]?.reason.hasPrefix("invalid JSON at line 6, column ") == true)
        #expect(rejections[7]?.reason.hasPrefix("invalid JSON at line 7") == true)
        #expect(rejections[9]?.reason == "expected a GeoJSON Feature object, got a string")
        #expect(rejections[10]?.reason == "expected a GeoJSON Feature, got type 'Topology'")
        #expect(rejections[11]?.reason.hasPrefix("properties: expected an object or null") == true)
        // MultiPolygon: the centroid of the larger polygon's outer ring (the hole is ignored).
        let ok3 = try #require(jsonFeatures(records).last)
        #expect(ok3.location == (try Coordinate(latitude: 12, longitude: 12)))
        #expect(records.last.map { if case .feature(_, let line) = $0 { line } else { 0 } } == 12)
        // A rejection prints like a compiler message.
        #expect(rejections[3]?.description.hasPrefix("\(path):3: geometry.coordinates: latitude 95 is out of range") == true)
    }

    @Test func truncatedFileYieldsCompleteFeaturesThenARejection() throws {
        for name in ["truncated.geojson", "truncated.geojson.gz"] {
            let records = try jsonReadAll(makeGeoJSONReader(path: try jsonFixture(name), options: ImportOptions()))
            #expect(jsonFeatures(records).map(\.id) == ["a", "b"])
            let rejection = try #require(jsonRejections(records).first)
            #expect(records.count == 3)
            #expect(rejection.line == 4)
            #expect(rejection.reason == "unexpected end of file inside a feature (is the file truncated?)")
        }
        let between = try jsonReadAll(makeGeoJSONReader(path: try jsonFixture("truncated-between.geojson"), options: ImportOptions()))
        #expect(jsonFeatures(between).map(\.id) == ["a"])
        #expect(jsonRejections(between).first?.reason.contains("unexpected end of file inside the \"features\" array") == true)
    }

    @Test func fileLevelErrors() throws {
        let cases: [(String, String)] = [
            ("empty.geojson", "the file is empty"),
            ("whitespace.geojson", "the file is empty"),
            ("garbage.geojson", "not a GeoJSON FeatureCollection: expected '{' at column 1, got 'i'"),
            ("array.geojson", "got a JSON array"),
            ("topology.geojson", "not a GeoJSON FeatureCollection: \"type\" is 'Topology'"),
        ]
        for (name, message) in cases {
            let path = try jsonFixture(name)
            let error = try #require(jsonInputError { () throws(InputError) in try makeGeoJSONReader(path: path, options: ImportOptions()) })
            #expect(error.message.contains(message), "\(name): \(error.message)")
            #expect(error.file == path)
        }
        let missing = jsonInputError { () throws(InputError) in try makeGeoJSONReader(path: "/nonexistent/x.geojson", options: ImportOptions()) }
        #expect(missing?.message.hasPrefix("cannot open") == true)
    }

    @Test func emptyCollectionAndBareFeature() throws {
        #expect(try jsonReadAll(makeGeoJSONReader(path: try jsonFixture("empty-collection.geojson"), options: ImportOptions())).isEmpty)
        let records = try jsonReadAll(makeGeoJSONReader(path: try jsonFixture("bare-feature.geojson"), options: ImportOptions()))
        #expect(jsonSummaries(records) == ["1 solo 60.17 24.94"])
        #expect(jsonFeatures(records).first?.attributes["name"] == .string("Solo"))
    }

    @Test func numericIdsKeepTheirTextInCollectionsAndBareFeatures() throws {
        let point = #""geometry": {"type": "Point", "coordinates": [1, 2]}"#
        let texts = [
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "id": 12345678901234567890, \#(point)}, {"type": "Feature", "id": 12345678901234567891, \#(point)}]}"#,
            #"{"id": 12345678901234567890 , "type": "Feature", \#(point)}"#,
        ]
        for (index, text) in texts.enumerated() {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-json-\(UUID().uuidString).geojson").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let ids = jsonFeatures(try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions()))).map(\.id)
            #expect(ids == ["12345678901234567890", "12345678901234567891"].prefix(2 - index).map { $0 }, "\(text)")
        }
    }

    @Test func invalidUTF8RejectsOnlyThatFeature() throws {
        let records = try jsonReadAll(makeGeoJSONReader(path: try jsonFixture("invalid-utf8.geojson"), options: ImportOptions()))
        #expect(records.count == 2)
        #expect(jsonRejections(records).first?.line == 2)
        #expect(jsonRejections(records).first?.reason.contains("invalid UTF-8") == true)
        #expect(jsonFeatures(records).map(\.id) == ["u2"])
        #expect(jsonFeatures(records).first?.attributes["name"] == .string("fine ä"))
    }

    @Test func structureErrorsStopTheFileWithLineAndColumn() throws {
        let cases: [(String, String, Int?)] = [
            ("{\"type\": \"FeatureCollection\", \"features\": [\n{\"type\": \"Feature\", \"geometry\": null, \"properties\": {\"lat\": 1, \"lon\": 2}}\n {}]}",
             "expected ',' or ']' after a feature, got '{' (column 2)", 3),
            ("{\"features\": [], \"type\": \"Topology\"}", "\"type\" is 'Topology'", 1),
            ("{\"features\": {}}", "\"features\" must be an array", 1),
            ("{\"type\": \"FeatureCollection\"}", "no \"features\" array", 1),
            ("{\"type\": \"FeatureCollection\", \"features\": []} extra", "unexpected 'e' after the end of the GeoJSON object", 1),
            ("{\"type\": \"FeatureCollection\", \"features\": [1,]}", "trailing ','", 1),
            ("{\"type\": \"FeatureCollection\" \"features\": []}", "expected ',' or '}' between top-level members", 1),
            ("{\"type\": \"FeatureCollection\", \"features\": []", "unexpected end of file inside the top-level object", 1),
        ]
        for (text, message, line) in cases {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-json-\(UUID().uuidString).geojson").path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let error = try #require(jsonInputError { () throws(InputError) in try makeGeoJSONReader(path: path, options: ImportOptions()) }, "\(text)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.line == line, "\(error)")
        }
    }
}

@Suite struct MinifiedGeoJSONTests {
    /// A minified collection puts every feature on line 1: derived ids must still differ, or all but one are lost.
    @Test func featuresWithoutIdsOnOneLineGetDistinctIds() throws {
        let scratch = try TemporaryFolder()
        let point = #"{"type":"Feature","geometry":{"type":"Point","coordinates":[24.9,60.1]},"properties":{}}"#
        let path = try scratch.write("min.geojson", #"{"type":"FeatureCollection","features":["# + [point, point, point].joined(separator: ",") + "]}")
        let reader = try openFeatureReader(path: path, options: ImportOptions())
        var ids: [String] = []
        while let record = try reader.next() {
            if case .feature(let feature, _) = record { ids.append(feature.id) }
        }
        #expect(ids.count == 3)
        #expect(Set(ids).count == 3)
    }
}
