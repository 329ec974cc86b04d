extension BenchReport {
    /// The report as text: per dataset, a build table and a query table with Cairn's speed-up over each peer
    /// on the peer's row, then the issue's targets (for the uniform dataset) and the verification verdict.
    /// - Complexity: O(rows).
    public func text() -> String {
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
            lines.append("\(dataset): \(ReportText.grouped(count)) points")
            var table: [[String]] = [["build", "engine", "time ms", "heap B/pt", "own count B/pt", "cairn faster"]]
            for row in rows where row.dataset == dataset && row.isBuild {
                table.append([
                    "build", row.engine, ReportText.fixed(row.stats.p50Microseconds / 1_000, 1),
                    row.bytesPerPoint.map { ReportText.fixed($0, 1) } ?? "-",
                    row.reportedBytesPerPoint.map { ReportText.fixed($0, 1) } ?? "-",
                    row.engine == BenchEngineName.cairn.rawValue ? "" : cairnSpeedup(over: row).map { ReportText.fixed($0, 1) + "x" } ?? "-",
                ])
            }
            lines.append(contentsOf: ReportText.columns(table, rightAligned: [2, 3, 4, 5]))
            lines.append("")
            table = [["operation", "engine", "p50 µs", "p95 µs", "p99 µs", "qps", "results", "cairn faster", ""]]
            var previous = ""
            for row in rows where row.dataset == dataset && !row.isBuild {
                table.append([
                    row.operation == previous ? "" : row.operation, row.engine,
                    ReportText.fixed(row.stats.p50Microseconds, 2), ReportText.fixed(row.stats.p95Microseconds, 2), ReportText.fixed(row.stats.p99Microseconds, 2),
                    ReportText.grouped(Int(row.stats.queriesPerSecond.rounded())), ReportText.fixed(row.meanResults, 1),
                    row.engine == BenchEngineName.cairn.rawValue ? "" : cairnSpeedup(over: row).map { ReportText.fixed($0, 1) + "x" } ?? "-",
                    row.verified ? "" : "MISMATCH",
                ])
                previous = row.operation
            }
            lines.append(contentsOf: ReportText.columns(table, rightAligned: [2, 3, 4, 5, 6, 7]))
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
        lines.append("took \(ReportText.fixed(seconds, 1)) s")
        return lines.joined(separator: "\n")
    }

    /// The issue's targets (release build, one core, 1,000,000 uniform points), checked against this run.
    private func targets(dataset: String, points: Int) -> [String] {
        let cairn = BenchEngineName.cairn.rawValue
        var lines = ["", "targets (set for 1,000,000 points; this run has \(ReportText.grouped(points))):"]
        func check(_ label: String, _ value: Double?, _ limit: Double, atMost: Bool, unit: String) {
            guard let value else { return }
            let met = atMost ? value <= limit : value >= limit
            lines.append("  \(met ? "met   " : "missed") \(label): \(ReportText.fixed(value, 2))\(unit) (\(atMost ? "<=" : ">=") \(ReportText.fixed(limit, 0))\(unit))")
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
