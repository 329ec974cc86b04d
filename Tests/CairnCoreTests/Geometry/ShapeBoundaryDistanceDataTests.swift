import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `ShapeBoundaryDistance` on the real shapes of `Data/` (the Helsinki parks; Natural Earth's countries, Russia,
/// Fiji and Antarctica among them) against pyproj: `Tests/Golden/shape-distance-oracle.json` holds seeded points
/// and pyproj's minimum over densely sampled boundaries, made by `scripts/shape-distance-check --write` (which
/// `scripts/test` reruns to check the figures still come out). The GeoJSON is read here with Foundation, not
/// CairnIO, so that this test needs only CairnCore.
@Suite("Distance to a shape's boundary, Data/ against pyproj")
struct ShapeBoundaryDistanceDataTests {
    struct OracleCase: Decodable {
        let file: String
        let feature: Int
        let latitude: Double
        let longitude: Double
        let meters: Double
    }

    struct Fixture: Decodable {
        let cases: [OracleCase]
    }

    /// The Polygon or MultiPolygon of every feature of a GeoJSON FeatureCollection, checked as an import checks it.
    static func shapes(_ relativePath: String) throws -> [Shape] {
        let document = try JSONSerialization.jsonObject(with: Data(RepositoryData.bytes(relativePath)))
        let features = try #require((document as? [String: Any])?["features"] as? [[String: Any]])
        return try features.map { feature in
            let geometry = try #require(feature["geometry"] as? [String: Any])
            let type = try #require(geometry["type"] as? String)
            let coordinates = try #require(geometry["coordinates"] as? [Any])
            let polygons = type == "Polygon" ? [coordinates] : coordinates
            var parts = ShapeParts(kind: type == "Polygon" ? .polygon : .multiPolygon)
            for polygon in polygons {
                for ring in try #require(polygon as? [[[Double]]]) {
                    for position in ring { parts.append(longitude: position[0], latitude: position[1]) }
                    parts.endRing()
                }
                parts.endPolygon()
            }
            return try Shape(checking: parts)
        }
    }

    @Test func dataShapesAgreeWithPyproj() throws {
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(RepositoryData.bytes("Tests/Golden/shape-distance-oracle.json")))
        #expect(fixture.cases.count > 200)
        var shapes: [String: [Shape]] = [:]
        var largest = 0.0
        for oracle in fixture.cases {
            if shapes[oracle.file] == nil { shapes[oracle.file] = try Self.shapes(oracle.file) }
            let shape = try #require(shapes[oracle.file]?[oracle.feature])
            let point = try Coordinate(latitude: oracle.latitude, longitude: oracle.longitude)
            let meters = ShapeBoundaryDistance.meters(from: point, to: shape)
            largest = max(largest, abs(meters - oracle.meters))
            #expect(abs(meters - oracle.meters) <= 1e-3,
                    "\(oracle.file) feature \(oracle.feature) from \(point): \(meters) m, pyproj \(oracle.meters) m")
        }
        // The largest difference, for the record (the run's output).
        print("largest difference from pyproj: \(largest) m over \(fixture.cases.count) points")
    }
}
