import CairnCore
import Foundation

/// The clustering workload of `cairn bench --clusters`: hierarchy build, 1024×768-pixel viewports at every zoom,
/// exact grid clustering of such viewports at zooms 4 and 10 (at 4 also on one thread), and single edits (move,
/// insert, remove of the last point and of one in the middle) against a rebuild, then rounds of edits as a replica
/// applies them (`cluster-round-80`: 80 edits, mostly remove-and-insert pairs). Cairn alone: no peer runs in-process.
public enum ClusterBench {
    /// One measured row: an operation on one dataset.
    public struct Row: Sendable {
        /// The dataset's name.
        public let dataset: String
        /// The operation's name: `cluster-build`, `clusters-z6`, `grid-z4`, `cluster-move-1`, ….
        public let operation: String
        /// Latency (for the build and the edits, one sample).
        public let stats: LatencyStats
        /// Clusters and points returned per query (viewport rows), bytes per point (the build row), or the
        /// edit's time as a share of the build's (edit rows).
        public let perQuery: Double
    }

    /// The viewport the map shows: 1024×768 pixels of 256-pixel tiles at `zoom`, centred on `center`.
    /// - Complexity: O(1).
    public static func viewport(around center: Coordinate, zoom: Int) -> Viewport {
        do {
            return try Viewport(center: center, zoom: Double(zoom), widthPixels: 1024, heightPixels: 768)
        } catch {
            preconditionFailure("a 1024x768 viewport at zoom \(zoom) is always valid: \(error)")
        }
    }

    /// `count` viewports at `zoom`, each centred on a point of `points` drawn from `random`: the viewports
    /// both `run` and the `Benchmarks/` package query.
    /// - Precondition: `points` is not empty.
    /// - Complexity: O(count).
    public static func viewports(
        around points: [Coordinate], zoom: Int, count: Int, random: inout SeededRandom
    ) -> [Viewport] {
        (0..<count).map { _ in viewport(around: points[random.below(points.count)], zoom: zoom) }
    }

    /// Runs the workload on `dataset` with `queries` viewports per zoom.
    /// - Complexity: one hierarchy build, four single edits, 17 × `queries` viewport queries, 3 × `queries` grid
    ///   viewports and `roundsPerSize` rounds of edits of each of the `roundSizes`.
    public static func run(_ dataset: BenchDataset, queries: Int, seed: UInt64) -> [Row] {
        let points = dataset.points
        var rows: [Row] = []
        var start = monotonicNanoseconds()
        var index = ClusterIndex(coordinates: points)
        let buildMicroseconds = Double(monotonicNanoseconds() - start) / 1_000
        rows.append(Row(dataset: dataset.name, operation: "cluster-build", stats: LatencyStats(singleMicroseconds: buildMicroseconds),
                        perQuery: Double(index.memoryBytes) / Double(max(1, points.count))))

        var random = SeededRandom(seed: seed &+ 0xC1_05_7E)
        for zoom in 0...16 {
            let boxes = viewports(around: points, zoom: zoom, count: queries, random: &random).map(\.box)
            var samples: [UInt64] = []
            var returned = 0
            for box in boxes {
                start = monotonicNanoseconds()
                let found = index.clusters(in: box, zoom: zoom)
                samples.append(monotonicNanoseconds() - start)
                returned += found.count
            }
            rows.append(Row(dataset: dataset.name, operation: "clusters-z\(zoom)", stats: LatencyStats(nanoseconds: samples),
                            perQuery: Double(returned) / Double(queries)))
        }

        // Grid viewports as a map asks for them (two threads for large ones), then zoom 4 on one thread (other
        // viewports: the same ones would find the first run's reads in the caches).
        var serial = GridClusterOptions.standard
        serial.parallel = false
        for (zoom, options, name) in [(4, GridClusterOptions.standard, "grid-z4"), (10, .standard, "grid-z10"), (4, serial, "grid-z4-1-thread")] {
            var samples: [UInt64] = []
            var returned = 0
            // Drawn before the timing: the same draws, in the same order, as one per query.
            for view in viewports(around: points, zoom: zoom, count: queries, random: &random) {
                start = monotonicNanoseconds()
                returned += index.gridClusters(in: view, options: options).count
                samples.append(monotonicNanoseconds() - start)
            }
            rows.append(Row(dataset: dataset.name, operation: name, stats: LatencyStats(nanoseconds: samples),
                            perQuery: Double(returned) / Double(queries)))
        }

        // One point moved a little, against the build above (an edit must equal a rebuild; the tests check that).
        let edited = random.below(points.count)
        let target = (try? destination(from: points[edited], bearingDegrees: 90, distanceMeters: 500)) ?? points[edited]
        start = monotonicNanoseconds()
        _ = try? index.move(at: edited, to: target)
        let editMicroseconds = Double(monotonicNanoseconds() - start) / 1_000
        rows.append(Row(dataset: dataset.name, operation: "cluster-move-1", stats: LatencyStats(singleMicroseconds: editMicroseconds),
                        perQuery: editMicroseconds / buildMicroseconds))
        // One point added at the end (at the moved point's place: a group of identical points forms), that point
        // removed, then a point in the middle removed (every later point and cluster origin moves up by one).
        for (operation, edit) in [("cluster-insert-1", { (i: inout ClusterIndex) in i.insert(target) }),
                                  ("cluster-remove-1", { (i: inout ClusterIndex) in try? i.remove(at: i.count - 1) }),
                                  ("cluster-remove-mid-1", { (i: inout ClusterIndex) in try? i.remove(at: i.count / 2) })] {
            start = monotonicNanoseconds()
            edit(&index)
            let microseconds = Double(monotonicNanoseconds() - start) / 1_000
            rows.append(Row(dataset: dataset.name, operation: operation, stats: LatencyStats(singleMicroseconds: microseconds),
                            perQuery: microseconds / buildMicroseconds))
        }
        // Rounds of edits as a replica applies them (`ClusterIndex.apply`), each timed alone.
        var current = (0..<index.count).map { index.coordinate(ofPoint: $0) }
        for size in roundSizes {
            var samples: [UInt64] = []
            for _ in 0..<roundsPerSize {
                let edits = servedRound(size: size, points: &current, random: &random)
                start = monotonicNanoseconds()
                applyRound(edits, to: &index)
                samples.append(monotonicNanoseconds() - start)
            }
            let stats = LatencyStats(nanoseconds: samples)
            rows.append(Row(dataset: dataset.name, operation: "cluster-round-\(size)", stats: stats,
                            perQuery: stats.p50Microseconds / buildMicroseconds))
        }
        return rows
    }

    /// ClusterEdits per measured round: a few edits, the replica's usual round, and a large backlog; or the sizes
    /// in `CAIRN_CLUSTER_ROUNDS` (comma-separated), so that callgrind can count one size's rounds alone.
    static let roundSizes: [Int] = {
        let sizes = ProcessInfo.processInfo.environment["CAIRN_CLUSTER_ROUNDS"]?.split(separator: ",").compactMap { Int($0) } ?? []
        return sizes.isEmpty ? [8, 80, 200] : sizes.filter { $0 > 0 }
    }()
    /// Rounds timed per size (the rows give their median and spread).
    static let roundsPerSize = 5

    /// One round of `size` edits as `cairn serve` replicas send them, mirrored on `points`: mostly an edited
    /// place (`remove(at: i)` then its insert 200 m away at the end of the input, i among the last 2,000 half the
    /// time), and one edit in ten a new place or a removal.
    /// - Complexity: O(size · n) for the mirror's removals (outside the timing).
    static func servedRound(size: Int, points: inout [Coordinate], random: inout SeededRandom) -> [ClusterEdit] {
        var edits: [ClusterEdit] = []
        while edits.count < size, !points.isEmpty {
            let n = points.count
            let kind = random.below(10)
            if kind == 0 || n < 2 || edits.count == size - 1 {
                let near = points[random.below(n)]
                let p = (try? destination(from: near, bearingDegrees: random.uniform(0...360), distanceMeters: 1_000)) ?? near
                points.append(p)
                edits.append(.insert(p))
            } else if kind == 1 {
                let i = random.below(n)
                points.remove(at: i)
                edits.append(.remove(at: i))
            } else {
                let i = random.below(2) == 0 ? n - 1 - random.below(min(n, 2_000)) : random.below(n)
                let moved = (try? destination(from: points[i], bearingDegrees: random.uniform(0...360), distanceMeters: 200)) ?? points[i]
                points.remove(at: i)
                points.append(moved)
                edits.append(.remove(at: i))
                edits.append(.insert(moved))
            }
        }
        return edits
    }

    /// Applies one round (apart, so that `valgrind --tool=callgrind --toggle-collect='*applyRound*'` counts the
    /// rounds alone).
    @inline(never)
    static func applyRound(_ edits: [ClusterEdit], to index: inout ClusterIndex) {
        do {
            try index.apply(edits)
        } catch {
            preconditionFailure("a served round holds positions within the points: \(error)")
        }
    }

    /// The rows as a text table.
    /// - Complexity: O(rows).
    public static func text(_ rows: [Row]) -> String {
        var lines = ["cairn bench --clusters: supercluster defaults (radius 40 px, extent 512, zooms 0-16), viewports of 1024x768 px",
                     "  cluster-build: per point = bytes per point; cluster-move/insert/remove-1: the edit's cost as a share of the build"]
        var dataset = ""
        for row in rows {
            if row.dataset != dataset {
                dataset = row.dataset
                lines.append("")
                lines.append(ReportText.padded(dataset, toLength: 20) + "     p50 µs     p95 µs     p99 µs   per query / per point")
            }
            func cell(_ v: Double) -> String {
                let text = ReportText.oneDecimal(v)
                return String(repeating: " ", count: max(0, 11 - text.count)) + text
            }
            lines.append(ReportText.padded(row.operation, toLength: 20) + cell(row.stats.p50Microseconds) + cell(row.stats.p95Microseconds)
                         + cell(row.stats.p99Microseconds) + "   " + (row.operation.hasPrefix("cluster-") && row.operation != "cluster-build"
                            ? "\(Int((row.perQuery * 1000).rounded()) / 10).\(Int((row.perQuery * 1000).rounded()) % 10) % of a build"
                            : ReportText.oneDecimal(row.perQuery)))
        }
        return lines.joined(separator: "\n")
    }

    /// The rows as the bench's JSON: `[{"op": ..., "engine": "cairn", "p50_us": ..., "p99_us": ..., "qps": ...}, ...]`.
    /// - Complexity: O(rows).
    public static func json(_ rows: [Row]) -> String {
        "[" + rows.map { row in
            "{\"dataset\":\"\(row.dataset)\",\"op\":\"\(row.operation)\",\"engine\":\"cairn\",\"p50_us\":\(row.stats.p50Microseconds),"
                + "\"p95_us\":\(row.stats.p95Microseconds),\"p99_us\":\(row.stats.p99Microseconds),\"qps\":\(row.stats.queriesPerSecond),"
                + "\"per_query\":\(row.perQuery)}"
        }.joined(separator: ",\n") + "]"
    }
}
