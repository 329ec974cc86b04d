import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnBench

/// `cairn bench --db`'s library side: queries drawn from a store's features, a queries file's parsing and its
/// refusals, threads sharing the queries, the JSON report's shape. Small and quick; no timing is asserted.
@Suite("The store bench: drawn and file queries, threads, the report")
struct StoreBenchTests {
    /// 3,000 seeded towns, every third with a radius of 200 m to 2 km.
    static func index(radii: Bool = true) throws -> FeatureIndex {
        var random = SplitMix64(seed: 5)
        let towns = try SyntheticTowns.make(count: 3_000, seed: 11).enumerated().map { n, town in
            try Feature(id: town.id, kind: .place, location: town.location,
                        radiusMeters: radii && n % 3 == 0 ? random.uniform(200...2_000) : nil)
        }
        return FeatureIndex(towns)
    }

    @Test("Drawn queries: every operation, boxes near their target, nearest exactly k, containment only with radii")
    func drawnQueries() throws {
        let index = try Self.index()
        let (operations, notes) = StoreWorkload.make(index: index, queriesPerOperation: 30, seed: 3)
        #expect(notes.isEmpty)
        #expect(operations.map(\.name) == BenchOperationKind.all.map(\.name))
        var configuration = StoreBenchConfiguration()
        configuration.warmupQueries = 2
        let rows = StoreBench.run(index: index, operations: operations, configuration: configuration)
        for row in rows {
            #expect(row.queries == 30 && row.latency.count == 30, "\(row.operation)")
            #expect(row.latency.microseconds(atPercentile: 50) <= row.latency.microseconds(atPercentile: 99.9))
        }
        let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0.operation, $0) })
        #expect(byName["nearest-20"]?.meanResults == 20)
        let box100 = try #require(byName["box-100"]).meanResults
        #expect(abs(box100 - 100) <= 15, "box-100 averaged \(box100)")
        #expect((byName["containment"]?.results ?? 0) > 0)

        let (withoutRadii, skipped) = StoreWorkload.make(index: try Self.index(radii: false), queriesPerOperation: 5, seed: 3,
                                                        kinds: [.containment, .nearest(count: 1)])
        #expect(withoutRadii.map(\.name) == ["nearest-1"])
        #expect(skipped == ["containment skipped: no feature of the store has a radius"])
    }

    @Test("Threads share the queries: the same answer count on 1 and 3 threads; a duration repeats them")
    func threadsGiveTheSameAnswers() throws {
        let index = try Self.index()
        let (operations, _) = StoreWorkload.make(index: index, queriesPerOperation: 41, seed: 8,
                                                 kinds: [.box(targetResults: 100), .radius(meters: 25_000), .nearest(count: 20), .containment])
        var one = StoreBenchConfiguration()
        one.warmupQueries = 3
        var three = one
        three.threads = 3
        let single = StoreBench.run(index: index, operations: operations, configuration: one)
        let threaded = StoreBench.run(index: index, operations: operations, configuration: three)
        for (a, b) in zip(single, threaded) {
            #expect(a.operation == b.operation)
            #expect(a.queries == 41 && b.queries == 41)
            #expect(a.results == b.results, "\(a.operation): \(a.results) results on one thread, \(b.results) on three")
            #expect(b.latency.count == 41)
        }
        var timed = three
        timed.durationSeconds = 0.05
        let repeated = StoreBench.run(index: index, operations: [operations[2]], configuration: timed)
        // Three threads for 50 ms each go round their 13-14 queries more than once.
        #expect(repeated[0].queries > 41)
        #expect(repeated[0].results == 20 * repeated[0].queries)
    }

    @Test("A queries file: every kind and alias, a header, comments, CRLF; bad lines named by line and field, good ones kept")
    func queriesFile() throws {
        let text = """
            op,a,b,c,d\r
            # a day's log\r
            nearest,60.17,24.94,5\r
            box,24,59,26,61\r
            radius, 60.2 , 24.6 , 1.5km\r
            containing,60.17,24.94\r
            bbox,179,-20,-179,-15\r
            around,-16.8,179.99,500\r
            containment,0,0\r

            nearest,95,24.94,5
            nearest,60,24.94,0
            radius,60,24,far
            box,24,61,26,59
            teleport,1,2
            nearest,60,24
            containing,60,abc
            """
        let file = StoreQueryFile.parse(text, path: "log.csv")
        #expect(file.operations.map(\.name) == ["box", "radius", "nearest", "containing"])
        #expect(file.operations.map(\.queries.count) == [2, 2, 1, 2])
        #expect(file.operations[1].queries[0] == .radius(center: try Coordinate(latitude: 60.2, longitude: 24.6), meters: 1_500))
        #expect(file.operations[0].queries[1] == .box(try BoundingBox(west: 179, south: -20, east: -179, north: -15)))
        #expect(file.problems.map(\.description) == [
            "log.csv:11: field 2 (lat): expected a latitude in degrees, -90...90, got '95'",
            "log.csv:12: field 4 (k): expected a whole number of neighbours, 1 or more, got '0'",
            "log.csv:13: field 4 (radius): expected a distance of 0 or more (metres, or a unit: 500m, 1.2km, 3mi), got 'far'",
            "log.csv:14: field 5 (north): south edge 61 is north of north edge 59 (swap them)",
            "log.csv:15: field 1 (op): expected box, radius, nearest or containing, got 'teleport'",
            "log.csv:16: nearest takes 4 fields (op,lat,lon,k), got 3",
            "log.csv:17: field 3 (lon): expected a longitude in degrees, -180...180, got 'abc'",
        ])
        #expect(throws: BenchError.self) { try StoreQueryFile.read(path: "/nonexistent/queries.csv") }
    }

    @Test("The JSON report: one object with the run's fields and an operation array with p50 to p99.9")
    func jsonShape() throws {
        let index = try Self.index()
        let (operations, notes) = StoreWorkload.make(index: index, queriesPerOperation: 10, seed: 1, kinds: [.nearest(count: 1), .box(targetResults: 10)])
        var configuration = StoreBenchConfiguration()
        configuration.threads = 2
        let rows = StoreBench.run(index: index, operations: operations, configuration: configuration)
        let report = StoreBenchReport(store: "s.sqlite", features: index.count, querySource: "drawn", configuration: configuration,
                                      rows: rows, notes: notes + ["a \"quoted\" note"], rejectedLines: 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["store", "features", "threads", "duration_s", "model", "queries_from", "rejected_lines", "notes", "operations"])
        #expect(object["threads"] as? Int == 2 && object["features"] as? Int == 3_000 && object["duration_s"] is NSNull)
        #expect(object["notes"] as? [String] == ["a \"quoted\" note"])
        let rowsJSON = try #require(object["operations"] as? [[String: Any]])
        #expect(rowsJSON.map { $0["op"] as? String } == ["nearest-1", "box-10"])
        for row in rowsJSON {
            #expect(Set(row.keys) == ["op", "distinct_queries", "queries", "results", "mean_results", "p50_us", "p95_us", "p99_us",
                                      "p999_us", "max_us", "mean_us", "wall_s", "qps"])
            #expect(row["queries"] as? Int == 10)
        }
        let text = report.text()
        #expect(text.contains("p99.9 µs") && text.contains("nearest-1") && text.contains("2 threads"))
    }
}
