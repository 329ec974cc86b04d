import CairnCore
import Testing
@testable import CairnIO

/// One GeoJSON object at a time through the decoder: ids, geometry types and their error messages.
struct GeoJSONFeatureDecoderTests {
    private func decode(_ text: String, options: ImportOptions = ImportOptions()) throws -> ImportRecord {
        let decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: "t.geojson", options: options))
        return decoder.decodeFeature(try JSONParser.parse(Array(text.utf8)), line: 9)
    }

    private func reason(_ text: String) throws -> String? {
        if case .rejected(let rejection) = try decode(text) {
            #expect(rejection.line == 9)
            return rejection.reason
        }
        return nil
    }

    private func feature(_ text: String, options: ImportOptions = ImportOptions()) throws -> Feature? {
        if case .feature(let feature, let line) = try decode(text, options: options) {
            #expect(line == 9)
            return feature
        }
        return nil
    }

    private func point(_ coordinates: String, properties: String = "{}", id: String = "") -> String {
        #"{"type": "Feature", \#(id) "geometry": {"type": "Point", "coordinates": \#(coordinates)}, "properties": \#(properties)}"#
    }

    @Test func topLevelIdWinsOverThePropertyUnlessAnIdColumnIsNamed() throws {
        let text = point("[1, 2]", properties: #"{"id": "inner", "code": "C7"}"#, id: #""id": "outer","#)
        #expect(try feature(text)?.id == "outer")
        #expect(try feature(text, options: ImportOptions(idColumn: "code"))?.id == "C7")
        #expect(try feature(point("[1, 2]", properties: #"{"id": "inner"}"#, id: #""id": null,"#))?.id == "inner")
        #expect(try reason(point("[1, 2]", id: #""id": [1],"#)) == "id: expected a string or a number, got an array")
    }

    @Test func numericIdsKeepTheirSourceText() throws {
        // Beyond 2^53 a Double merges neighbouring integers and prints as an exponent; the id is the text as written.
        let big = point("[1, 2]", id: #""id": 12345678901234567890,"#)
        #expect(try feature(big)?.id == "12345678901234567890")
        let neighbour = point("[1, 2]", id: #""id": 12345678901234567891,"#)
        #expect(try feature(neighbour)?.id == "12345678901234567891")
        #expect(try feature(point("[1, 2]", id: #""id": 9007199254740993,"#))?.id == "9007199254740993")
        // 1 and 1.0 are different ids, as they are in a CSV file; negative numbers and exponents stay as written.
        #expect(try feature(point("[1, 2]", id: #""id": 1,"#))?.id == "1")
        #expect(try feature(point("[1, 2]", id: #""id": 1.0,"#))?.id == "1.0")
        #expect(try feature(point("[1, 2]", id: #""id": -7e2,"#))?.id == "-7e2")
        // The same for the id property, an --id-column property and a flat record's id.
        #expect(try feature(point("[1, 2]", properties: #"{"id": 98765432109876543210}"#))?.id == "98765432109876543210")
        let geonames = point("[1, 2]", properties: #"{"geonameid": 18446744073709551617}"#)
        #expect(try feature(geonames, options: ImportOptions(idColumn: "geonameid"))?.id == "18446744073709551617")
        let decoder = GeoJSONFeatureDecoder(builder: FeatureRecordBuilder(file: "t.jsonl", options: ImportOptions()))
        guard case .object(let members) = try JSONParser.parse(Array(#"{"id": 12345678901234567890, "lat": 1, "lon": 2}"#.utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(decoder.decodeFlatRecord(members, line: 1).feature?.id == "12345678901234567890")
    }

    @Test func pointErrorsNameTheField() throws {
        #expect(try reason(point("[200, 10]")) == "geometry.coordinates: longitude 200 is out of range [-180, 180]")
        #expect(try reason(point("[10]"))?.hasPrefix("geometry.coordinates: expected a position [longitude, latitude]") == true)
        #expect(try reason(point(#"["1", "2"]"#))?.hasPrefix("geometry.coordinates: expected a position") == true)
        #expect(try reason(#"{"type": "Feature", "geometry": {"type": "Point"}, "properties": {}}"#) == "geometry.coordinates: missing")
        #expect(try reason(#"{"type": "Feature", "geometry": {"coordinates": [1, 2]}}"#) == "geometry.type: missing")
        #expect(try reason(#"{"type": "Feature", "geometry": [1, 2]}"#) == "geometry: expected an object or null, got an array")
        #expect(try feature(point("[-180, 90, 100]"))?.location == (try Coordinate(latitude: 90, longitude: -180)))
    }

    @Test func unsupportedGeometryTypesAreNamed() throws {
        let expected = "(expected Point, LineString, Polygon, MultiPoint, MultiLineString or MultiPolygon)"
        for type in ["GeometryCollection", "Circle", "linestring"] {
            let text = #"{"type": "Feature", "geometry": {"type": "\#(type)", "coordinates": [[1, 2], [3, 4]], "geometries": []}}"#
            #expect(try reason(text) == "geometry type '\(type)' is not supported \(expected)")
        }
        #expect(try reason(#"{"type": "Feature", "geometry": {"type": "GeometryCollection", "geometries": []}}"#)?
            .contains("'GeometryCollection' is not supported") == true)
    }

    /// Lines, multi-points and polygons are kept whole as the feature's shape; the location is their
    /// representative point; a Point is the location alone.
    @Test func shapesAreKeptWhole() throws {
        let line = #"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], [25, 60.2], [25.1, 60.25]]}}"#
        let lineFeature = try #require(try feature(line))
        #expect(lineFeature.shape?.kind == .lineString && lineFeature.shape?.vertexCount == 3)
        #expect(lineFeature.location == (try Coordinate(latitude: 60.2, longitude: 25)))
        let multi = #"{"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[5, 6], [7, 8]]]}}"#
        #expect(try feature(multi)?.shape?.lineStrings.count == 2)
        let points = #"{"type": "Feature", "geometry": {"type": "MultiPoint", "coordinates": [[1, 2], [3, 4]]}}"#
        #expect(try feature(points)?.shape?.points == [try Coordinate(latitude: 2, longitude: 1), try Coordinate(latitude: 4, longitude: 3)])
        let holed = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[4,0],[4,4],[0,4],[0,0]], [[1,1],[1,2],[2,2],[1,1]]]}}"#
        let polygons = try #require(try feature(holed)?.shape?.polygons)
        #expect(polygons.count == 1 && polygons[0].holes.count == 1 && polygons[0].exterior.count == 5)
        #expect(try feature(point("[1, 2]"))?.shape == nil)
        #expect(try reason(#"{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2]]}}"#)
            == "geometry.coordinates: a line needs at least 2 positions, got 1")
        #expect(try reason(#"{"type": "Feature", "geometry": {"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[1, 2], [3, 95]]]}}"#)?.hasPrefix("geometry.coordinates[1][1]: latitude 95 is out of range [-90, 90]") == true)
        // A property that names a geometry column stays an attribute beside a GeoJSON geometry.
        #expect(try feature(point("[1, 2]", properties: #"{"wkt": "x"}"#))?.attributes["wkt"] == .string("x"))
    }

    @Test func polygonCentroids() throws {
        // A triangle: the centroid is the mean of its vertices; orientation does not matter.
        let ccw = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [3, 0], [0, 3], [0, 0]]]}}"#
        let cw = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0, 0], [0, 3], [3, 0], [0, 0]]]}}"#
        for text in [ccw, cw] {
            let location = try #require(try feature(text)?.location)
            #expect(abs(location.latitude - 1) < 1e-12 && abs(location.longitude - 1) < 1e-12)
        }
        // An L shape, decomposed by hand: area 2 centred at (1, 0.5) plus area 1 centred at (0.5, 1.5),
        // so x = (2 * 1 + 0.5) / 3 and y = (2 * 0.5 + 1.5) / 3.
        let l = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,1],[1,1],[1,2],[0,2],[0,0]]]}}"#
        let location = try #require(try feature(l)?.location)
        #expect(abs(location.longitude - 2.5 / 3) < 1e-12 && abs(location.latitude - 2.5 / 3) < 1e-12)
        // The same L without the closing position gives the same point.
        let open = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[2,1],[1,1],[1,2],[0,2]]]}}"#
        #expect(try feature(open)?.location == location)
        // A degenerate ring (zero area) falls back to the mean of its vertices.
        let flat = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[2,0],[4,0],[0,0]]]}}"#
        let mean = try #require(try feature(flat)?.location)
        #expect(abs(mean.longitude - 2) < 1e-12 && mean.latitude == 0)
    }

    @Test func polygonsAcrossTheAntimeridianAreCentredOnIt() throws {
        // A square from 179 E to 179 W: its centroid is on the antimeridian, not near longitude 0.
        let square = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[179,-1],[-179,-1],[-179,1],[179,1],[179,-1]]]}}"#
        let location = try #require(try feature(square)?.location)
        #expect(abs(abs(location.longitude) - 180) < 1e-9 && abs(location.latitude) < 1e-9, "\(location)")
        // Off centre: 178 E to 179 W is 3 degrees wide, so the centre is at 179.5 E.
        let wide = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[178,0],[-179,0],[-179,2],[178,2],[178,0]]]}}"#
        let east = try #require(try feature(wide)?.location)
        #expect(abs(east.longitude - 179.5) < 1e-9 && abs(east.latitude - 1) < 1e-9, "\(east)")
        // Starting on the west side gives the same point, wrapped back into [-180, 180].
        let fromWest = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-179,0],[-179,2],[178,2],[178,0],[-179,0]]]}}"#
        let west = try #require(try feature(fromWest)?.location)
        #expect(abs(west.longitude - 179.5) < 1e-9 && abs(west.latitude - 1) < 1e-9, "\(west)")
        // A degenerate ring across the antimeridian: the mean of its vertices, unwrapped the same way.
        let flat = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[179,0],[-179,0],[-177,0],[179,0]]]}}"#
        let mean = try #require(try feature(flat)?.location)
        #expect(abs(mean.longitude - -179) < 1e-9 && mean.latitude == 0, "\(mean)")
        // A band wider than 180 degrees that does not cross the antimeridian, drawn with short edges, is centred
        // on longitude 0 (unwrapping each vertex against the first one alone would put it on the antimeridian).
        let band = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[-100,0],[-50,0],[0,0],[50,0],[100,0],[100,10],[50,10],[0,10],[-50,10],[-100,10],[-100,0]]]}}"#
        let middle = try #require(try feature(band)?.location)
        #expect(abs(middle.longitude) < 1e-9 && abs(middle.latitude - 5) < 1e-9, "\(middle)")
        // A MultiPolygon picks the largest part by its unwrapped area.
        let multi = #"{"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[10,0],[12,0],[12,2],[10,2],[10,0]]], [[[178,0],[-179,0],[-179,2],[178,2],[178,0]]]]}}"#
        #expect(abs((try #require(try feature(multi)?.location)).longitude - 179.5) < 1e-9)
    }

    @Test func polygonErrors() throws {
        let short = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[0,0]]]}}"#
        #expect(try reason(short) == "geometry.coordinates[0]: a linear ring needs at least 4 positions, got 3")
        let empty = #"{"type": "Feature", "geometry": {"type": "Polygon", "coordinates": []}}"#
        #expect(try reason(empty) == "geometry.coordinates: a polygon needs at least one linear ring")
        let badHole = #"{"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": [[[[0,0],[1,0],[1,1],[0,0]]], [[[0,0],[1,0],[1,1],[0,0]], [[0,0],[1,0],[1,91],[0,0]]]]}}"#
        #expect(try reason(badHole)?.hasPrefix("geometry.coordinates[1][1][2]: latitude 91 is out of range") == true)
        let none = #"{"type": "Feature", "geometry": {"type": "MultiPolygon", "coordinates": []}}"#
        #expect(try reason(none) == "geometry.coordinates: a MultiPolygon needs at least one polygon")
    }

    @Test func missingGeometryUsesLatitudeAndLongitudeProperties() throws {
        let text = #"{"type": "Feature", "properties": {"latitude": "60.5", "longitude": 25}}"#
        #expect(try feature(text)?.location == (try Coordinate(latitude: 60.5, longitude: 25)))
        #expect(try reason(#"{"type": "Feature", "geometry": null, "properties": {"lat": null, "lon": 3}}"#)
            == "geometry is null and the properties have no latitude and longitude")
        #expect(try reason(#"{"type": "Feature", "geometry": null, "properties": null}"#)
            == "geometry is null and the properties have no latitude and longitude")
        #expect(try reason(#"{"geometry": null}"#) == "missing \"type\": \"Feature\"")
    }

    @Test func propertyValuesKeepTheirJSONTypes() throws {
        let properties = #"{"n": 3, "b": false, "s": "08", "list": ["x", "y", "x"], "mixed": ["x", 1], "obj": {"k": [true, null]}, "z": null}"#
        let attributes = try #require(try feature(point("[1, 2]", properties: properties))?.attributes)
        #expect(attributes["n"] == .number(3))
        #expect(attributes["b"] == .bool(false))
        #expect(attributes["s"] == .string("08"))
        #expect(attributes["list"] == .set(["x", "y"]))
        #expect(attributes["mixed"] == .string(#"["x",1]"#))
        #expect(attributes["obj"] == .string(#"{"k":[true,null]}"#))
        #expect(attributes["z"] == nil)
    }
}
