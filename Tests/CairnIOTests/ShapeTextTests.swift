import CairnCore
import CairnTestSupport
@testable import CairnIO
import Foundation
import Testing

/// Shapes as text: WKT read and written, hexadecimal WKB, a CSV geometry column, and the shape in every result format.
@Suite struct ShapeTextTests {
    private func shape(_ text: String) throws -> Shape { try Shape(checking: ShapeText.parts(text)) }

    @Test func wktOfEveryKind() throws {
        let polygon = try shape("POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 1 2, 2 2, 1 1))")
        #expect(polygon.kind == .polygon && polygon.parts.ringEnds == [5, 9] && polygon.parts.polygonEnds == [2])
        #expect(try shape("point(24.9 60.1)").vertex(0) == (try Coordinate(latitude: 60.1, longitude: 24.9)))
        #expect(try shape("LINESTRING Z (1 2 3, 4 5 6)").parts.positions == [1, 2, 4, 5])
        #expect(try shape("MULTIPOINT ((1 2), (3 4))") == (try shape("MULTIPOINT (1 2, 3 4)")))
        #expect(try shape("MULTILINESTRING ((1 2, 3 4), (5 6, 7 8))").lineStrings.count == 2)
        let multi = try shape("SRID=4326;MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((10 10, 11 10, 11 11, 10 10), (10.2 10.1, 10.8 10.1, 10.8 10.6, 10.2 10.1)))")
        #expect(multi.parts.polygonEnds == [1, 3])
        #expect(try shape("POINT ZM (1 2 3 4)").parts.positions == [1, 2])
    }

    @Test func wktErrorsSayWhatWasExpectedWhere() throws {
        func failure(_ text: String) -> String? {
            do { _ = try ShapeText.parts(text) } catch { return error.reason }
            return nil
        }
        #expect(failure("POLYGON EMPTY") == "WKT: an empty Polygon locates nothing")
        #expect(failure("CIRCLE (1 2)")?.hasPrefix("WKT: expected a geometry type") == true)
        #expect(failure("POINT (1 x)") == "WKT: expected a number at character 10, found 'x)'")
        #expect(failure("POINT (1 2") == "WKT: expected ')' at character 11, found the end")
        #expect(failure("POINT (1 2) extra") == "WKT: expected the end of the geometry at character 13, found 'extra'")
        #expect(failure("SRID=3067;POINT (1 2)") == "WKT: SRID 3067, expected 4326 (WGS84 degrees)")
        #expect(failure("0101") == "WKB: ends at byte 1, inside a geometry")
        #expect(failure("01zz")?.hasPrefix("expected WKT (such as POLYGON ((...))) or WKB in hexadecimal digits") == true)
    }

    /// Written WKT reads back to the same shape, for every kind on seeded shapes; hexadecimal WKB as well.
    @Test(arguments: ShapeKind.allCases)
    func writtenTextReadsBack(kind: ShapeKind) throws {
        var random = SplitMix64(seed: 300 + UInt64(kind.rawValue))
        for _ in 0..<100 {
            let center = try Coordinate(latitude: random.uniform(-89...89), longitude: random.uniform(-179...179))
            let original = try SyntheticShapes.shape(kind, around: center, random: &random)
            #expect(try shape(ShapeOutput.wkt(original)) == original)
            let hex = original.wkb.map { String(format: "%02X", $0) }.joined()
            #expect(try shape(hex) == original)
            var json: [UInt8] = []
            ShapeOutput.appendGeoJSON(original, to: &json)
            let feature = #"{"type":"Feature","geometry":"# + String(decoding: json, as: UTF8.self) + "}"
            let decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: "t.geojson", options: ImportOptions()))
            let decoded = decoder.decodeFeature(try JSONParser.parse(Array(feature.utf8)), line: 1).feature
            #expect(decoded?.shape == (kind == .point ? nil : original))
            #expect(decoded?.location == original.representativePoint)
        }
    }

    @Test func aCSVGeometryColumnGivesTheShapeAndItsLocation() throws {
        let csv = """
            id,kind,name,wkt
            p1,park,Square,"POLYGON ((24.9 60.1, 25 60.1, 25 60.2, 24.9 60.2, 24.9 60.1))"
            p2,park,Bad,"POLYGON ((24.9 60.1, 25 60.1, 25 95, 24.9 60.1))"
            p3,trailhead,Line,0102000000020000000000000000000000000000000000F03F00000000000000400000000000000840
            p4,park,Broken,"POLYGON ((1 2"
            """
        let records = try readAllRecords(csv: csv)
        #expect(records.count == 4)
        let square = try #require(records[0].feature)
        #expect(square.shape?.kind == .polygon)
        #expect(abs(square.location.latitude - 60.15) < 1e-12 && abs(square.location.longitude - 24.95) < 1e-12)
        #expect(records[1].rejection?.reason.hasPrefix("field 'wkt': [0][2]: latitude 95 is out of range [-90, 90]") == true)
        #expect(records[1].rejection?.field == "wkt" && records[1].rejection?.line == 3)
        #expect(records[2].feature?.shape?.parts.positions == [0, 1, 2, 3])
        #expect(records[3].rejection?.reason == "field 'wkt': WKT: expected ')' at character 14, found the end")
        // Neither latitude nor longitude is needed beside a geometry column; without either, the header is refused.
        #expect(try inputError(csv: "id,name\na,b\n") != nil)
    }

    @Test func everyResultFormatCarriesTheShape() throws {
        let line = try shape("LINESTRING (24.9 60.1, 25 60.2, 25.1 60.25)")
        let trail = try Feature(id: "t1", kind: .trailhead, location: line.representativePoint, attributes: ["name": .string("Ridge")], shape: line)
        let spot = try Feature(id: "s1", kind: .place, location: Coordinate(latitude: 1, longitude: 2))
        func written(_ format: QueryResultFormat, _ features: [Feature]) -> String {
            let sink = MemorySink()
            QueryResultWriter(format: format).write(features.map { QueryResultRow(feature: $0) }, to: sink)
            return sink.text
        }
        #expect(written(.geojson, [trail]) == """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"t1","geometry":{"type":"LineString","coordinates":[[24.9,60.1],[25,60.2],[25.1,60.25]]},"properties":{"kind":"trailhead","name":"Ridge"}}
            ]}

            """)
        #expect(written(.json, [trail]) == """
            [
            {"id":"t1","kind":"trailhead","latitude":60.2,"longitude":25,"geometry":{"type":"LineString","coordinates":[[24.9,60.1],[25,60.2],[25.1,60.25]]},"name":"Ridge"}
            ]

            """)
        #expect(written(.csv, [trail, spot]) == """
            id,kind,latitude,longitude,radiusMeters,startTime,endTime,geometry,name
            t1,trailhead,60.2,25,,,,"LINESTRING (24.9 60.1, 25 60.2, 25.1 60.25)",Ridge
            s1,place,1,2,,,,,

            """)
        // Without a shape among the rows, the CSV header is as it always was.
        #expect(written(.csv, [spot]).hasPrefix("id,kind,latitude,longitude,radiusMeters,startTime,endTime\n"))
    }
}
