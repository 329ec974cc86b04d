import Foundation

/// One operation measured on one engine.
struct BenchRow: Sendable {
    /// The dataset's name.
    let dataset: String
    /// The operation's name (`build`, `box-100`, …).
    let operation: String
    /// The engine's name.
    let engine: String
    /// Latency and throughput (for `build`, one sample: the build time).
    let stats: LatencyStats
    /// Mean number of results per query (0 for `build`).
    let meanResults: Double
    /// For `build`: the C heap kept by the engine, bytes per point (nil where it cannot be measured).
    let bytesPerPoint: Double?
    /// For `build`: what the engine's own accounting reports, bytes per point (Cairn's `memoryBytes`,
    /// SQLite's `sqlite3_memory_used`), when it has one.
    let reportedBytesPerPoint: Double?
    /// Whether every query's answer matched the reference engine's.
    let verified: Bool

    /// Whether this is a build row.
    var isBuild: Bool { operation == "build" }
}

/// A query on which an engine disagreed with the reference engine.
struct BenchMismatch: Sendable, CustomStringConvertible {
    let dataset: String
    let operation: String
    let queryIndex: Int
    let engine: String
    let reference: String
    /// What differed.
    let detail: String

    var description: String {
        "\(dataset) \(operation) query #\(queryIndex): \(engine) disagrees with \(reference): \(detail)"
    }
}

/// Everything one run measured.
struct BenchReport: Sendable {
    let configuration: BenchConfiguration
    /// A line per engine saying what it is, with its library's version: `sqlite-rtree: SQLite 3.40.1 R*Tree…`.
    let engineSummaries: [String]
    /// Each dataset's name and point count, in order.
    let datasets: [(name: String, points: Int)]
    /// Per dataset, operation and engine, in that order.
    let rows: [BenchRow]
    /// Every disagreement found (at most one per dataset, operation and engine).
    let mismatches: [BenchMismatch]
    /// Wall time of the whole run, seconds.
    let seconds: Double
}


extension BenchReport {
    /// The row of `engine` for `operation` on `dataset`.
    func row(_ dataset: String, _ operation: String, _ engine: String) -> BenchRow? {
        rows.first { $0.dataset == dataset && $0.operation == operation && $0.engine == engine }
    }

    /// How many times faster Cairn is than `row`'s engine on the same dataset and operation (p50, or
    /// build time), when Cairn ran it.
    func cairnSpeedup(over row: BenchRow) -> Double? {
        guard let cairn = self.row(row.dataset, row.operation, BenchEngineName.cairn.rawValue),
              cairn.stats.p50Microseconds > 0 else { return nil }
        return row.stats.p50Microseconds / cairn.stats.p50Microseconds
    }

    /// The report as a JSON array with one object per dataset, operation and engine:
    /// `op`, `engine`, `p50_us`, `p95_us`, `p99_us`, `qps`, plus `dataset`, `points`, `queries`,
    /// `mean_results`, `verified`, `cairn_speedup` (this engine's p50 over Cairn's), and for `build`:
    /// `build_ms`, `bytes_per_point`, `reported_bytes_per_point`. For `build`, the latencies are the build
    /// time and `qps` is builds per second.
    /// - Complexity: O(rows).
    func json() -> String {
        let counts = Dictionary(datasets.map { ($0.name, $0.points) }, uniquingKeysWith: { first, _ in first })
        let objects = rows.map { row -> String in
            var fields: [(String, String)] = [
                ("dataset", quoted(row.dataset)), ("points", "\(counts[row.dataset] ?? 0)"),
                ("op", quoted(row.operation)), ("engine", quoted(row.engine)),
                ("p50_us", number(row.stats.p50Microseconds)), ("p95_us", number(row.stats.p95Microseconds)),
                ("p99_us", number(row.stats.p99Microseconds)), ("qps", number(row.stats.queriesPerSecond)),
                ("queries", "\(row.stats.count)"), ("mean_results", number(row.meanResults)),
                ("verified", row.verified ? "true" : "false"),
                ("cairn_speedup", cairnSpeedup(over: row).map(number) ?? "null"),
            ]
            if row.isBuild {
                fields.append(("build_ms", number(row.stats.p50Microseconds / 1_000)))
                fields.append(("bytes_per_point", row.bytesPerPoint.map(number) ?? "null"))
                fields.append(("reported_bytes_per_point", row.reportedBytesPerPoint.map(number) ?? "null"))
            }
            return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n  " + objects.joined(separator: ",\n  ") + "\n]"
    }

    /// The report as text: per dataset, a build table and a query table with Cairn's speed-up over each peer
    /// on the peer's row, then the issue's targets (for the uniform dataset) and the verification verdict.
    /// - Complexity: O(rows).
    func text() -> String {
        var lines: [String] = []
        let configuration = self.configuration
        lines.append("cairn bench: seed \(configuration.seed), \(configuration.queriesPerOperation) timed queries per operation "
            + "and engine after \(min(configuration.warmupQueries, configuration.queriesPerOperation)) untimed, "
            + "\(configuration.model == .wgs84 ? "WGS84 geodesic" : "spherical") distances, one thread")
        for summary in engineSummaries { lines.append("  " + summary) }
        lines.append("  peers re-check every candidate exactly with distanceMeters; heap B/pt is the C heap an engine keeps after its build")
        lines.append("  (peers' include the 16 B/pt of coordinates they keep for the re-check); own count is memoryBytes or sqlite3_memory_used")
        for (dataset, count) in datasets {
            lines.append("")
            lines.append("\(dataset): \(Terminal.grouped(count)) points")
            var table: [[String]] = [["build", "engine", "time ms", "heap B/pt", "own count B/pt", "cairn faster"]]
            for row in rows where row.dataset == dataset && row.isBuild {
                table.append([
                    "build", row.engine, fixed(row.stats.p50Microseconds / 1_000, 1),
                    row.bytesPerPoint.map { fixed($0, 1) } ?? "-",
                    row.reportedBytesPerPoint.map { fixed($0, 1) } ?? "-",
                    row.engine == BenchEngineName.cairn.rawValue ? "" : cairnSpeedup(over: row).map { fixed($0, 1) + "x" } ?? "-",
                ])
            }
            lines.append(contentsOf: columns(table, rightAligned: [2, 3, 4, 5]))
            lines.append("")
            table = [["operation", "engine", "p50 µs", "p95 µs", "p99 µs", "qps", "results", "cairn faster", ""]]
            var previous = ""
            for row in rows where row.dataset == dataset && !row.isBuild {
                table.append([
                    row.operation == previous ? "" : row.operation, row.engine,
                    fixed(row.stats.p50Microseconds, 2), fixed(row.stats.p95Microseconds, 2), fixed(row.stats.p99Microseconds, 2),
                    Terminal.grouped(Int(row.stats.queriesPerSecond.rounded())), fixed(row.meanResults, 1),
                    row.engine == BenchEngineName.cairn.rawValue ? "" : cairnSpeedup(over: row).map { fixed($0, 1) + "x" } ?? "-",
                    row.verified ? "" : "MISMATCH",
                ])
                previous = row.operation
            }
            lines.append(contentsOf: columns(table, rightAligned: [2, 3, 4, 5, 6, 7]))
            if dataset == "uniform" { lines.append(contentsOf: targets(dataset: dataset, points: count)) }
        }
        lines.append("")
        if mismatches.isEmpty {
            let engines = Set(rows.map(\.engine)).count
            lines.append(engines > 1
                ? "verified: every engine returned the same answers as \(configuration.engines.first?.rawValue ?? "") on every query "
                    + "(sorted items compared; nearest compared as distance lists)"
                : "verified: one engine only, nothing to compare")
        } else {
            lines.append("FAILED: the engines disagree (\(mismatches.count) operations):")
            for mismatch in mismatches { lines.append("  " + mismatch.description) }
        }
        lines.append("took \(fixed(seconds, 1)) s")
        return lines.joined(separator: "\n")
    }

    /// The issue's targets (release build, one core, 1,000,000 uniform points), checked against this run.
    private func targets(dataset: String, points: Int) -> [String] {
        let cairn = BenchEngineName.cairn.rawValue
        var lines = ["", "targets (set for 1,000,000 points; this run has \(Terminal.grouped(points))):"]
        func check(_ label: String, _ value: Double?, _ limit: Double, atMost: Bool, unit: String) {
            guard let value else { return }
            let met = atMost ? value <= limit : value >= limit
            lines.append("  \(met ? "met   " : "missed") \(label): \(fixed(value, 2))\(unit) (\(atMost ? "<=" : ">=") \(fixed(limit, 0))\(unit))")
        }
        let build = row(dataset, "build", cairn)
        check("build time", build.map { $0.stats.p50Microseconds / 1_000 }, 250, atMost: true, unit: " ms")
        check("bytes per point", build?.bytesPerPoint, 32, atMost: true, unit: " B")
        check("box-100 p50", row(dataset, "box-100", cairn)?.stats.p50Microseconds, 10, atMost: true, unit: " µs")
        check("box-100 vs sqlite-rtree", row(dataset, "box-100", BenchEngineName.sqliteRTree.rawValue).flatMap(cairnSpeedup), 10,
              atMost: false, unit: "x")
        check("box-100 vs geos-strtree", row(dataset, "box-100", BenchEngineName.geosSTRtree.rawValue).flatMap(cairnSpeedup), 3,
              atMost: false, unit: "x")
        check("radius-150km p50", row(dataset, "radius-150km", cairn)?.stats.p50Microseconds, 20, atMost: true, unit: " µs")
        check("nearest-20 p50", row(dataset, "nearest-20", cairn)?.stats.p50Microseconds, 10, atMost: true, unit: " µs")
        return lines.count > 2 ? lines : []
    }
}

/// Lines of a table with columns padded to their widest cell.
private func columns(_ table: [[String]], rightAligned: Set<Int>) -> [String] {
    let widths = (0..<(table.map(\.count).max() ?? 0)).map { column in
        table.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0
    }
    return table.map { cells in
        cells.enumerated().map { column, cell in
            let padding = String(repeating: " ", count: widths[column] - cell.count)
            return rightAligned.contains(column) ? padding + cell : cell + padding
        }.joined(separator: "  ").replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
    }
}

/// A JSON string literal.
private func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
        default: result.unicodeScalars.append(scalar)
        }
    }
    return result + "\""
}

/// A JSON number rounded to 3 decimals (0 for non-finite values, which JSON cannot carry).
private func number(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    let rounded = (value * 1_000).rounded() / 1_000
    return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int64(rounded)) : "\(rounded)"
}

/// `value` with `digits` decimals.
private func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

