import CairnCore
import CairnGEOS
import CairnTestSupport
import Foundation
import Testing
@testable import CairnBench

/// The polygon workload: valid seeded polygons, Cairn and GEOS agreeing on every query, the check-in load's files.
@Suite struct PolygonBenchTests {
    static func towns() -> [Coordinate] { BenchDataset.uniform(count: 2_000, seed: 11).points }

    @Test("Polygons are seeded, valid for GEOS, 8-64 outer vertices, some with a hole, away from the antimeridian")
    func polygonsAreSeededAndValid() throws {
        let set = PolygonSet.generate(around: Self.towns(), count: 400, seed: 3)
        #expect(set.shapes == PolygonSet.generate(around: Self.towns(), count: 400, seed: 3).shapes)
        #expect(set.shapes != PolygonSet.generate(around: Self.towns(), count: 400, seed: 4).shapes)
        let validator = try ShapeValidator()
        var holes = 0
        for shape in set.shapes {
            #expect(validator.problem(in: shape) == nil)
            let rings = shape.parts.ringEnds.count
            holes += rings - 1
            let outer = shape.parts.positionRange(ofRing: 0).count - 1
            #expect((8...64).contains(outer) && (1...2).contains(rings))
            #expect(shape.extent.west <= shape.extent.east && abs(shape.extent.north) <= 81)
        }
        #expect(holes > 20 && holes < 110) // 15 % of 400
    }

    @Test("Cairn and GEOS agree on every query; the report has both engines and the ratio")
    func enginesAgree() throws {
        let report = try PolygonBench.run(towns: BenchDataset(name: "test", points: Self.towns()), polygons: 1_500,
                                          queryCount: 2_000, warmup: 10, seed: 9)
        #expect(report.mismatchCount == 0, "\(report.mismatches)")
        #expect(report.rows.map(\.operation) == ["build", "build", "containment", "containment"])
        #expect(report.rows.map(\.engine) == ["cairn", PolygonBench.peerName, "cairn", PolygonBench.peerName])
        #expect(report.insideShare > 0.3 && report.insideShare < 0.8)
        #expect(report.speedup("containment") != nil)
        let json = PolygonBench.json(report)
        for key in ["\"op\": \"containment\"", "\"engine\": \"geos-prepared\"", "\"p99_us\":", "\"cairn_speedup\":", "\"boundary_disagreements\": "] {
            #expect(json.contains(key))
        }
        #expect(PolygonBench.text(report).contains("verified: both engines returned the same polygons for every query"))
    }

    @Test("The park check-in load: places as WKT polygons, check-ins naming parks, seeded")
    func parkLoadFiles() throws {
        let parks = PolygonSet.generate(around: Self.towns(), count: 50, seed: 5)
        var files: [String: String] = [:]
        ParkCheckInLoad(parks: parks, seed: 5, checkIns: 1_000).generate { files[$0, default: ""] += $1 }
        let places = files["places.csv", default: ""].split(separator: "\n")
        let checkIns = files["checkins.csv", default: ""].split(separator: "\n")
        #expect(places.first == "id,name,wkt" && places.count == 51)
        #expect(checkIns.first == "id,userId,placeId,latitude,longitude,time" && checkIns.count == 1_001)
        // Every polygon reads back through the WKT reader and stays valid after rounding to seven decimals.
        let validator = try ShapeValidator()
        for shape in parks.shapes {
            let read = try Self.polygon(wkt: ParkCheckInLoad.wkt(shape))
            #expect(read.parts.positionCount == shape.parts.positionCount && validator.problem(in: read) == nil)
        }
        var again: [String: String] = [:]
        ParkCheckInLoad(parks: parks, seed: 5, checkIns: 1_000).generate { again[$0, default: ""] += $1 }
        #expect(again == files)
    }

    /// A `POLYGON ((x y, ...), ...)` as the load writes it, read back (a test's own small reader).
    static func polygon(wkt: String) throws -> Shape {
        #expect(wkt.hasPrefix("POLYGON ((") && wkt.hasSuffix("))"))
        var parts = ShapeParts(kind: .polygon)
        for ring in wkt.dropFirst("POLYGON ((".count).dropLast(2).components(separatedBy: "), (") {
            for pair in ring.components(separatedBy: ", ") {
                let numbers = pair.split(separator: " ").compactMap { Double($0) }
                #expect(numbers.count == 2)
                parts.append(longitude: numbers[0], latitude: numbers[1])
            }
            parts.endRing()
        }
        parts.endPolygon()
        return try Shape(checking: parts)
    }
}
