import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnBench

/// The bench's own correctness: the three engines must return the same answers, the checker must catch an
/// engine that does not, and the report must carry the documented keys. Small and quick in a debug build;
/// no timing is asserted.
@Suite("The bench: engines agree, the checker catches a wrong one, the report is complete")
struct BenchRunnerTests {
    /// A small configuration: `points` uniform points, `queries` queries per operation, every engine.
    static func quick(points: Int = 2_000, queries: Int = 20) -> BenchConfiguration {
        var configuration = BenchConfiguration()
        configuration.datasets = [.uniform(count: points)]
        configuration.queriesPerOperation = queries
        configuration.warmupQueries = 2
        configuration.seed = 7
        return configuration
    }

    @Test("The three engines agree on every operation over uniform points")
    func enginesAgreeOnUniformPoints() throws {
        let report = try BenchRunner.run(BenchRunnerTests.quick())
        #expect(report.mismatches.isEmpty, "\(report.mismatches)")
        let engines = BenchEngineName.allCases.map(\.rawValue)
        for kind in BenchOperationKind.all {
            for engine in engines {
                let row = try #require(report.row("uniform", kind.name, engine), "no \(kind.name) row for \(engine)")
                #expect(row.verified)
                #expect(row.stats.count == 20)
            }
        }
        // The boxes are calibrated to their target counts, and nearest returns exactly k.
        for target in [10, 100, 1_000] {
            let mean = try #require(report.row("uniform", "box-\(target)", "cairn")).meanResults
            #expect(abs(mean - Double(target)) <= Double(target) * 0.1, "box-\(target) averaged \(mean) results")
        }
        #expect(report.row("uniform", "nearest-20", "sqlite-rtree")?.meanResults == 20)
        // Some radius and containment queries find something: the comparison is not of empty answers only.
        #expect((report.row("uniform", "radius-150km", "cairn")?.meanResults ?? 0) > 0)
        #expect((report.row("uniform", "containment", "geos-strtree")?.meanResults ?? 0) > 0)
    }

    @Test("The engines agree near the poles, across the antimeridian and on duplicate points")
    func enginesAgreeOnEdgeCases() throws {
        var random = SplitMix64(seed: 99)
        var points: [Coordinate] = []
        for _ in 0..<600 {
            // Near the antimeridian on both sides, near both poles, and exactly on the edges.
            points.append(try Coordinate(latitude: random.uniform(-60...60), longitude: random.uniform(178.5...180)))
            points.append(try Coordinate(latitude: random.uniform(-60...60), longitude: random.uniform(-180 ... -178.5)))
            points.append(try Coordinate(latitude: random.uniform(88.5...90), longitude: random.uniform(-180...180)))
            points.append(try Coordinate(latitude: random.uniform(-90 ... -88.5), longitude: random.uniform(-180...180)))
        }
        for longitude in [-180.0, 180, 0] {
            for latitude in [-90.0, 90, 0, 45] {
                points.append(try Coordinate(latitude: latitude, longitude: longitude))
                points.append(try Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        var configuration = BenchRunnerTests.quick(queries: 40)
        configuration.datasets = [.points(name: "edges", points)]
        let report = try BenchRunner.run(configuration)
        #expect(report.mismatches.isEmpty, "\(report.mismatches)")
        #expect(report.rows.filter { $0.dataset == "edges" }.count >= 3 * 10 + 2)
    }

    @Test("The checker reports an engine that gets answers wrong")
    func wrongEngineIsCaught() throws {
        var configuration = BenchRunnerTests.quick(points: 1_000, queries: 10)
        configuration.operations = [.box(targetResults: 100), .radius(meters: 150_000), .nearest(count: 20)]
        configuration.extraEngines = [{ DroppingEngine() }]
        let report = try BenchRunner.run(configuration)
        let wrong = report.mismatches.filter { $0.engine == "dropping" }
        #expect(Set(wrong.map(\.operation)) == ["box-100", "nearest-20"])
        #expect(wrong.allSatisfy { $0.reference == "cairn" && $0.queryIndex == 0 })
        #expect(report.mismatches.allSatisfy { $0.engine == "dropping" })
        #expect(report.row("uniform", "box-100", "dropping")?.verified == false)
        #expect(report.row("uniform", "radius-150km", "dropping")?.verified == true)
        #expect(report.row("uniform", "box-100", "sqlite-rtree")?.verified == true)
        let text = report.text()
        #expect(text.contains("FAILED: the engines disagree"))
        #expect(text.contains("box-100 query #0: dropping disagrees with cairn"))
    }

    @Test("The JSON report has the documented keys for every operation and engine")
    func jsonHasDocumentedKeys() throws {
        let report = try BenchRunner.run(BenchRunnerTests.quick(points: 800, queries: 5))
        let data = Data(report.json().utf8)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(!objects.isEmpty)
        for object in objects {
            for key in ["op", "engine", "p50_us", "p99_us", "qps"] {
                #expect(object[key] != nil, "missing \(key) in \(object)")
            }
            #expect(object["p50_us"] is NSNumber && object["qps"] is NSNumber)
        }
        let engines = Set(objects.compactMap { $0["engine"] as? String })
        #expect(engines == ["cairn", "sqlite-rtree", "geos-strtree"])
        let operations = Set(objects.compactMap { $0["op"] as? String })
        #expect(operations == Set(["build"] + BenchOperationKind.all.map(\.name)))
        let build = try #require(objects.first { $0["op"] as? String == "build" && $0["engine"] as? String == "cairn" })
        #expect(build["bytes_per_point"] != nil && build["build_ms"] != nil)
        let reported = try #require(build["reported_bytes_per_point"] as? Double)
        #expect(reported >= 20 && reported < 24)  // PointIndex keeps 20 bytes per point (plus spare capacity)
    }

    @Test("Circle bounding rectangles hold every point within the radius", arguments: [DistanceModel.wgs84, .sphere])
    func circleRectanglesAreConservative(model: DistanceModel) throws {
        var random = SplitMix64(seed: 2026)
        for _ in 0..<2_000 {
            let center = try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            let radius = [10.0, 1_000, 150_000, 3_000_000][random.below(4)] * random.unit()
            let rects = BenchRect.covering(circleAround: center, radiusMeters: radius, model: model)
            for _ in 0..<4 {
                // A point at the radius (the worst case) or inside it, in a random direction.
                let distance = random.unit() < 0.5 ? radius : radius * random.unit()
                let point = try destination(from: center, bearingDegrees: random.uniform(0...360), distanceMeters: distance, model: model)
                guard distanceMeters(from: center, to: point, model: model) <= radius else { continue }
                var inside = false
                rects.forEach { if $0.contains(longitude: point.longitude, latitude: point.latitude) { inside = true } }
                // A point on the antimeridian may be stored as -180 or 180: both are the same meridian.
                if abs(point.longitude) == 180 {
                    rects.forEach { if $0.contains(longitude: -point.longitude, latitude: point.latitude) { inside = true } }
                }
                #expect(inside, "\(point) at \(distance) m from \(center) is outside \(rects.first) \(String(describing: rects.second))")
            }
        }
    }

    @Test("Box rectangles identify longitudes 180 and -180")
    func boxRectangles() throws {
        let wrapping = BenchRect.covering(try BoundingBox(west: 170, south: -10, east: -170, north: 10))
        #expect(wrapping.first == BenchRect(west: 170, south: -10, east: 180, north: 10))
        #expect(wrapping.second == BenchRect(west: -180, south: -10, east: -170, north: 10))
        let touching = BenchRect.covering(try BoundingBox(west: 100, south: 0, east: 180, north: 1))
        #expect(touching.second == BenchRect(west: -180, south: 0, east: -180, north: 1))
        #expect(BenchRect.covering(try BoundingBox(west: 1, south: 0, east: 2, north: 1)).second == nil)
    }

    @Test("Latency percentiles are nearest-rank and qps is queries over total time")
    func latencyStats() {
        let stats = LatencyStats(nanoseconds: (1...100).map { UInt64($0) * 1_000 }.shuffled())
        #expect(stats.p50Microseconds == 50)
        #expect(stats.p95Microseconds == 95)
        #expect(stats.p99Microseconds == 99)
        #expect(stats.meanMicroseconds == 50.5)
        #expect(abs(stats.queriesPerSecond - 100 / 0.005050) < 1e-6)
        #expect(LatencyStats(nanoseconds: [7_000]).p99Microseconds == 7)
    }

    @Test("The places reader finds the coordinate columns and honours CSV quoting")
    func placesFile() throws {
        let folder = try TemporaryFolder()
        let lines = [
            "geonameid,name,latitude,longitude,country\r",
            "1,\"Ryasno, Рясно\",53.7115,30.6176,BY\r",
            "2,\"Say \"\"hi\"\"\",-17.8,-179.5,FJ",
            "4,Plain,1.5,2.5,YY",
        ]
        let file = try folder.write("places.csv", lines.joined(separator: "\n"))
        let dataset = try BenchDataset.places(path: file)
        #expect(dataset.points == [try Coordinate(latitude: 53.7115, longitude: 30.6176),
                                   try Coordinate(latitude: -17.8, longitude: -179.5),
                                   try Coordinate(latitude: 1.5, longitude: 2.5)])
        // A bad row stops the bench instead of silently shrinking its data.
        try folder.write("places.csv", (lines + ["5,Broken,95,10,XX"]).joined(separator: "\n"))
        #expect(throws: BenchError.self) { try BenchDataset.places(path: file) }
        #expect(throws: BenchError.self) { try BenchDataset.places(path: folder.path("none.csv")) }
    }
}
