import CairnCore

extension StoreBenchReport {
    /// The report as text: a line on the run, a table of operations, the notes.
    /// - Complexity: O(rows · histogram buckets).
    public func text() -> String {
        let threads = configuration.threads
        let how = configuration.durationSeconds.map { "each operation for \(ReportText.fixed($0, 1)) s" } ?? "each query once"
        var lines = [
            "cairn bench --db \(store): \(ReportText.grouped(features)) features, \(threads) thread\(threads == 1 ? "" : "s"), "
                + "\(how), \(configuration.model == .wgs84 ? "WGS84 geodesic" : "spherical") distances",
            "  queries: \(querySource); latencies from a histogram (3 significant digits); qps is all threads over wall time",
            "",
        ]
        var table = [["operation", "queries", "results"] + Self.percentiles.map(\.text) + ["max µs", "qps"]]
        for row in rows {
            table.append([row.operation, ReportText.grouped(row.queries), ReportText.fixed(row.meanResults, 1)]
                + Self.percentiles.map { ReportText.fixed(row.latency.microseconds(atPercentile: $0.percentile), 2) }
                + [ReportText.fixed(row.latency.maximumMicroseconds, 1), ReportText.grouped(Int(row.queriesPerSecond.rounded()))])
        }
        lines.append(contentsOf: ReportText.columns(table, rightAligned: Set(1..<table[0].count)))
        if !notes.isEmpty { lines.append("") }
        for note in notes { lines.append("note: " + note) }
        return lines.joined(separator: "\n")
    }
}
