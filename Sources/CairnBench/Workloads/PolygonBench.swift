import CairnCore
import CairnIO

/// The polygon workload of `cairn bench --polygons` (issue #19): which of 100,000 seeded polygons (`PolygonSet`)
/// contain a point, through Cairn's `FeatureIndex.containing` (the extent tree, then `Shape.covers`) and, in the
/// same process, through GEOS's STRtree plus prepared geometries (`GEOSPreparedPolygonPeer`). Every query's two
/// answers are compared; the run fails on any difference, except where the point lies within a millimetre of the
/// boundary of a polygon the two disagree on, where two exact engines may still differ on the doubles' side of
/// an edge: those are counted and reported (none were seen so far).
///
/// Queries, seeded: 45 % uniform in a random polygon's bounding box (inside or near its edges), 45 % up to three
/// radii from a random polygon's town (mostly outside), 10 % exactly at a random vertex (on the boundary).
public enum PolygonBench {
    /// One measured row.
    public struct Row: Sendable {
        /// `build` or `containment`.
        public let operation: String
        /// `cairn` or `geos-prepared`.
        public let engine: String
        /// Latency (for `build`, one sample).
        public let stats: LatencyStats
        /// Polygons returned per query (0 for `build`).
        public let meanResults: Double
    }

    /// What one run measured.
    public struct Report: Sendable {
        /// The seed of the polygons and queries.
        public let seed: UInt64
        /// The polygons and their vertices.
        public let polygons: Int, vertices: Int
        /// The towns the polygons were drawn around: `places` or `uniform`.
        public let spread: String
        /// GEOS's library and how the peer uses it.
        public let peerSummary: String
        /// Build and containment, Cairn first.
        public let rows: [Row]
        /// The share of queries inside at least one polygon.
        public let insideShare: Double
        /// Queries whose answers differ only in polygons with the point within a millimetre of their boundary.
        public let boundaryDisagreements: Int
        /// Queries whose answers differ elsewhere, described (the first five); empty when the engines agree.
        public let mismatches: [String]
        /// How many queries' answers differ elsewhere.
        public let mismatchCount: Int

        /// p50 of GEOS over p50 of Cairn, for `operation`.
        /// - Complexity: O(rows).
        public func speedup(_ operation: String) -> Double? {
            guard let cairn = rows.first(where: { $0.operation == operation && $0.engine == "cairn" }),
                  let peer = rows.first(where: { $0.operation == operation && $0.engine != "cairn" }),
                  cairn.stats.p50Microseconds > 0 else { return nil }
            return peer.stats.p50Microseconds / cairn.stats.p50Microseconds
        }
    }

    /// The peer's name in reports.
    public static let peerName = "geos-prepared"
    /// Within this distance of a polygon's boundary, a disagreement is counted, not failed, metres.
    public static let boundaryToleranceMeters = 1e-3

    /// The seeded query points for `set` (see the type).
    /// - Complexity: O(count).
    public static func queries(for set: PolygonSet, count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededRandom(seed: seed &+ 0x9017_0000_0001)
        var points: [Coordinate] = []
        points.reserveCapacity(count)
        guard !set.shapes.isEmpty else { return [] }
        while points.count < count {
            let polygon = random.below(set.shapes.count)
            let shape = set.shapes[polygon]
            let draw = random.unit()
            if draw < 0.45 {
                let box = shape.extent
                if let point = try? Coordinate(latitude: random.uniform(box.south...box.north),
                                               longitude: random.uniform(box.west...box.east)) {
                    points.append(point)
                }
            } else if draw < 0.9 {
                points.append(BenchWorkload.jittered(set.centres[polygon], upToMeters: 3 * set.radiiMeters[polygon], random: &random))
            } else {
                points.append(shape.vertex(random.below(shape.vertexCount)))
            }
        }
        return points
    }

    /// Runs the workload: `polygons` polygons around `towns`, `queryCount` timed queries per engine after
    /// `warmup` untimed ones.
    /// - Throws: `BenchError` when GEOS cannot start or fails.
    /// - Complexity: O(v log v) to build, O(queries · (log n + k · v)) to query.
    public static func run(
        towns: BenchDataset, polygons: Int, queryCount: Int, warmup: Int, seed: UInt64,
        progress: (String) -> Void = { _ in }
    ) throws -> Report {
        progress("generating \(polygons) polygons around \(towns.name)")
        let set = PolygonSet.generate(around: towns.points, count: polygons, seed: seed)
        let points = queries(for: set, count: queryCount + warmup, seed: seed)
        var rows: [Row] = []

        progress("building cairn over \(polygons) polygons")
        var begin = monotonicNanoseconds()
        var features: [Feature] = []
        features.reserveCapacity(set.shapes.count)
        for (item, shape) in set.shapes.enumerated() {
            // Valid by construction (an id, a location from the shape); a failure would be a bug here.
            guard let feature = try? Feature(id: "p\(item)", kind: .park, location: shape.representativePoint, shape: shape) else {
                preconditionFailure("PolygonBench: polygon \(item) does not make a feature")
            }
            features.append(feature)
        }
        let index = FeatureIndex(features)
        var stats = QueryStats()
        // The first query that reads shapes builds their extent tree: part of the build.
        _ = index.containing(set.centres.first ?? points[0], stats: &stats)
        rows.append(Row(operation: "build", engine: "cairn", stats: LatencyStats(singleMicroseconds: Double(monotonicNanoseconds() - begin) / 1_000), meanResults: 0))

        progress("building \(peerName) over \(polygons) polygons")
        let peer = try GEOSPreparedPolygonPeer()
        begin = monotonicNanoseconds()
        try peer.build(set.shapes)
        rows.append(Row(operation: "build", engine: peerName, stats: LatencyStats(singleMicroseconds: Double(monotonicNanoseconds() - begin) / 1_000), meanResults: 0))

        progress("containment on cairn")
        var cairnAnswers: [[Int]] = []
        cairnAnswers.reserveCapacity(queryCount)
        var samples: [UInt64] = []
        samples.reserveCapacity(queryCount)
        var found = 0
        for (position, point) in points.enumerated() {
            let start = monotonicNanoseconds()
            let hits = index.containing(point, stats: &stats)
            let end = monotonicNanoseconds()
            guard position >= warmup else { continue }
            samples.append(end - start)
            found += hits.count
            cairnAnswers.append(hits.map(\.item).sorted())
        }
        rows.append(Row(operation: "containment", engine: "cairn", stats: LatencyStats(nanoseconds: samples),
                        meanResults: Double(found) / Double(max(1, queryCount))))

        progress("containment on \(peerName)")
        var peerAnswers: [[Int]] = []
        peerAnswers.reserveCapacity(queryCount)
        samples.removeAll(keepingCapacity: true)
        found = 0
        var buffer: [Int] = []
        buffer.reserveCapacity(64)
        for (position, point) in points.enumerated() {
            buffer.removeAll(keepingCapacity: true)
            let start = monotonicNanoseconds()
            try peer.containing(point, into: &buffer)
            let end = monotonicNanoseconds()
            guard position >= warmup else { continue }
            samples.append(end - start)
            found += buffer.count
            peerAnswers.append(buffer.sorted())
        }
        rows.append(Row(operation: "containment", engine: peerName, stats: LatencyStats(nanoseconds: samples),
                        meanResults: Double(found) / Double(max(1, queryCount))))

        var boundary = 0, mismatchCount = 0, inside = 0
        var mismatches: [String] = []
        for query in 0..<queryCount {
            let cairn = cairnAnswers[query], geos = peerAnswers[query]
            if !cairn.isEmpty { inside += 1 }
            guard cairn != geos else { continue }
            let point = points[warmup + query]
            let differing = Set(cairn).symmetricDifference(geos).sorted()
            if differing.allSatisfy({ ShapeBoundaryDistance.meters(from: point, to: set.shapes[$0]) <= boundaryToleranceMeters }) {
                boundary += 1
            } else {
                mismatchCount += 1
                if mismatches.count < 5 { mismatches.append("query \(query) at \(point): cairn \(cairn), \(peerName) \(geos)") }
            }
        }
        return Report(seed: seed, polygons: set.shapes.count, vertices: set.vertexCount, spread: towns.name,
                      peerSummary: peer.summary, rows: rows, insideShare: Double(inside) / Double(max(1, queryCount)),
                      boundaryDisagreements: boundary, mismatches: mismatches, mismatchCount: mismatchCount)
    }

    /// The report as text: the two builds, the two containment rows with Cairn's speed-up, the issue's target.
    /// - Complexity: O(rows).
    public static func text(_ report: Report) -> String {
        var lines = [
            "cairn bench --polygons: seed \(report.seed), \(ReportText.grouped(report.polygons)) star-shaped polygons "
                + "(\(ReportText.grouped(report.vertices)) vertices, 15 % with a hole) around points of the \(report.spread) dataset, one thread",
            "  cairn: FeatureIndex.containing (extent tree, then Shape.covers: exact, planar lon/lat, boundary inside)",
            "  \(peerName): \(report.peerSummary)",
            "",
        ]
        var table: [[String]] = [["operation", "engine", "p50 µs", "p95 µs", "p99 µs", "qps", "results", "cairn faster"]]
        for row in report.rows {
            let isBuild = row.operation == "build"
            table.append([
                row.operation, row.engine,
                isBuild ? ReportText.fixed(row.stats.p50Microseconds / 1_000, 1) + " ms" : ReportText.fixed(row.stats.p50Microseconds, 2),
                isBuild ? "-" : ReportText.fixed(row.stats.p95Microseconds, 2), isBuild ? "-" : ReportText.fixed(row.stats.p99Microseconds, 2),
                isBuild ? "-" : ReportText.grouped(Int(row.stats.queriesPerSecond.rounded())),
                isBuild ? "-" : ReportText.fixed(row.meanResults, 2),
                row.engine == "cairn" ? "" : report.speedup(row.operation).map { ReportText.fixed($0, 1) + "x" } ?? "-",
            ])
        }
        lines.append(contentsOf: ReportText.columns(table, rightAligned: [2, 3, 4, 5, 6, 7]))
        lines.append("")
        lines.append("queries inside at least one polygon: \(ReportText.fixed(100 * report.insideShare, 1)) %; "
            + "answers differing only within 1 mm of a boundary: \(report.boundaryDisagreements)")
        if let speedup = report.speedup("containment") {
            lines.append("target: containment at least 2x \(peerName): \(speedup >= 2 ? "met" : "missed") (\(ReportText.fixed(speedup, 2))x)")
        }
        if report.mismatchCount == 0 {
            lines.append("verified: both engines returned the same polygons for every query")
        } else {
            lines.append("FAILED: the engines disagree on \(report.mismatchCount) queries:")
            for mismatch in report.mismatches { lines.append("  " + mismatch) }
        }
        return lines.joined(separator: "\n")
    }

    /// The report as a JSON array like `cairn bench`'s: one object per operation and engine, `op`, `engine`,
    /// `p50_us`, `p95_us`, `p99_us`, `qps`, `queries`, `mean_results`, `cairn_speedup`, `polygons`, `vertices`,
    /// `verified`, and for `build` `build_ms`, for `containment` `inside_share` and `boundary_disagreements`.
    /// - Complexity: O(rows).
    public static func json(_ report: Report) -> String {
        let objects = report.rows.map { row -> String in
            var fields: [(String, String)] = [
                ("dataset", TextEscaping.jsonString("polygons")), ("polygons", "\(report.polygons)"), ("vertices", "\(report.vertices)"),
                ("op", TextEscaping.jsonString(row.operation)), ("engine", TextEscaping.jsonString(row.engine)),
                ("p50_us", BenchReport.jsonNumber(row.stats.p50Microseconds)), ("p95_us", BenchReport.jsonNumber(row.stats.p95Microseconds)),
                ("p99_us", BenchReport.jsonNumber(row.stats.p99Microseconds)), ("qps", BenchReport.jsonNumber(row.stats.queriesPerSecond)),
                ("queries", "\(row.stats.count)"), ("mean_results", BenchReport.jsonNumber(row.meanResults)),
                ("verified", report.mismatchCount == 0 ? "true" : "false"),
                ("cairn_speedup", report.speedup(row.operation).map(BenchReport.jsonNumber) ?? "null"),
            ]
            if row.operation == "build" {
                fields.append(("build_ms", BenchReport.jsonNumber(row.stats.p50Microseconds / 1_000)))
            } else {
                fields.append(("inside_share", BenchReport.jsonNumber(report.insideShare)))
                fields.append(("boundary_disagreements", "\(report.boundaryDisagreements)"))
            }
            return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n  " + objects.joined(separator: ",\n  ") + "\n]"
    }
}
