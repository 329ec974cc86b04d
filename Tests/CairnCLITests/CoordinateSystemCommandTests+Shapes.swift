import CairnTestSupport
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

/// `--t-srs` on shapes: every vertex transformed and the real geometry written (GeoJSON, JSON, CSV WKT), checked on
/// the New York boroughs (EPSG:2263, US feet) against the file itself and against the Web Mercator formula.
extension CoordinateSystemCommandTests {
    /// Imports the boroughs as they are (the file's crs member names EPSG:2263).
    func importBoroughs() throws {
        try importFile(try RepositoryData.path("Data/nyc-boroughs-epsg2263.geojson.gz"))
    }

    /// The geometries of a FeatureCollection by borough name.
    static func geometries(_ text: [UInt8]) throws -> [String: [String: Any]] {
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(text)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        var byName: [String: [String: Any]] = [:]
        for feature in features {
            let name = try #require((feature["properties"] as? [String: Any])?["BoroName"] as? String)
            byName[name] = try #require(feature["geometry"] as? [String: Any])
        }
        return byName
    }

    /// The largest difference between matching positions of two GeoJSON coordinate nestings, `f` applied to the
    /// second's positions; infinity when the nestings differ (a ring, hole or part more or less, a position count).
    static func largestDifference(_ a: Any, _ b: Any, _ f: ([Double]) -> [Double] = { $0 }) -> Double {
        if let p = a as? [Double], let q = b as? [Double], !p.isEmpty, !q.isEmpty {
            guard p.count == 2, q.count == 2 else { return .infinity }
            let r = f(q)
            return max(abs(p[0] - r[0]), abs(p[1] - r[1]))
        }
        guard let p = a as? [Any], let q = b as? [Any], p.count == q.count, !p.isEmpty else { return .infinity }
        return zip(p, q).map { largestDifference($0, $1, f) }.max() ?? .infinity
    }

    /// The number of positions in a GeoJSON coordinate nesting.
    static func positionCount(_ nesting: Any) -> Int {
        if let position = nesting as? [Double], position.count == 2 { return 1 }
        return (nesting as? [Any])?.reduce(0) { $0 + positionCount($1) } ?? 0
    }

    @Test func boroughsWrittenInTheirOwnSystemGiveBackTheFilesVertices() throws {
        try importBoroughs()
        let file = try Self.geometries(try RepositoryData.bytes("Data/nyc-boroughs-epsg2263.geojson.gz"))
        let written = try run(["bbox", "--bbox", "-180,-90,180,90", "--t-srs", "EPSG:2263"])
        #expect(written.hasPrefix(#"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2263"}},"#))
        let output = try Self.geometries(Array(written.utf8))
        #expect(output.count == 5 && Set(output.keys) == Set(file.keys))
        var vertices = 0
        for (name, geometry) in output {
            let original = try #require(file[name])
            #expect(geometry["type"] as? String == original["type"] as? String, "\(name)")
            let difference = Self.largestDifference(try #require(original["coordinates"]), try #require(geometry["coordinates"]))
            // Feet: PROJ's round trip through WGS84 degrees and the shortest decimal text both ways.
            #expect(difference < 1e-6, "\(name): a vertex \(difference) ft away, or rings/holes/parts differ")
            vertices += Self.positionCount(geometry["coordinates"] as Any)
        }
        #expect(vertices > 10_000) // every vertex, not a representative point

        // The other forms carry the same shapes: JSON's geometry member, CSV's WKT column.
        let json = try run(["containing", "--lat", "40.7831", "--long", "-73.9712", "--format", "json", "--t-srs", "EPSG:2263"])
        #expect(json.contains(#""geometry":{"type":"MultiPolygon","coordinates":[[[["#) && !json.contains("latitude"))
        let csv = try run(["bbox", "--bbox", "-74,40.7,-73.9,40.8", "--format", "csv", "--t-srs", "EPSG:2263"])
        #expect(csv.hasPrefix("id,kind,y,x,radiusMeters,startTime,endTime,geometry,"))
        #expect(csv.contains("\"MULTIPOLYGON ((("))
        #expect(!csv.contains("MULTIPOLYGON (((-7")) // feet, not degrees
    }

    @Test func webMercatorVerticesFollowTheFormula() throws {
        try importBoroughs()
        let degrees = try Self.geometries(Array(try run(["bbox", "--bbox", "-180,-90,180,90"]).utf8))
        let mercator = try Self.geometries(Array(try run(["bbox", "--bbox", "-180,-90,180,90", "--t-srs", "EPSG:3857"]).utf8))
        // EPSG:3857: the spherical Mercator on the WGS84 semi-major axis.
        let radius = 6_378_137.0
        func webMercator(_ position: [Double]) -> [Double] {
            [radius * position[0] * .pi / 180, radius * log(tan(.pi / 4 + position[1] * .pi / 360))]
        }
        #expect(mercator.count == 5)
        for (name, geometry) in mercator {
            let source = try #require(degrees[name])
            let difference = Self.largestDifference(try #require(geometry["coordinates"]), try #require(source["coordinates"]), webMercator)
            #expect(difference < 1e-6, "\(name): \(difference) m from the formula, or rings/holes/parts differ")
        }
    }

    @Test func aVertexOutsideTheSystemIsAnErrorNamingTheFeature() throws {
        // A cap at the south pole, seen from above the north pole: an orthographic view has no position for it.
        let cap = #"{"type":"Feature","id":"cap","geometry":{"type":"Polygon","coordinates":[[[0,-80],[10,-80],[10,-90],[0,-90],[0,-80]]]},"properties":{}}"#
        let northView = "+proj=ortho +lat_0=90 +lon_0=0 +ellps=WGS84 +type=crs"
        try importFile(try folder.write("cap.geojson", cap))
        #expect {
            _ = try run(["bbox", "--bbox", "-180,-90,180,90", "--t-srs", northView])
        } throws: { error in
            let message = CairnCommand.message(for: error)
            return message.contains("'\(northView)'") && message.contains("feature 'cap'") && message.contains("latitude -80")
        }
        // In a system that has the south pole (Antarctic polar stereographic), the shape is written whole.
        let south = try run(["bbox", "--bbox", "-180,-90,180,90", "--t-srs", "EPSG:3031", "--format", "csv"])
        #expect(south.contains(#","POLYGON (("#) && !south.contains("null"))
    }
}
