import CairnIO

extension BenchReport {
    /// The report as a JSON array with one object per dataset, operation and engine:
    /// `op`, `engine`, `p50_us`, `p95_us`, `p99_us`, `qps`, plus `dataset`, `points`, `queries`,
    /// `mean_results`, `verified`, `cairn_speedup` (this engine's p50 over Cairn's), and for `build`:
    /// `build_ms`, `bytes_per_point`, `reported_bytes_per_point`. For `build`, the latencies are the build
    /// time and `qps` is builds per second.
    /// - Complexity: O(rows).
    public func json() -> String {
        let counts = Dictionary(datasets.map { ($0.name, $0.points) }, uniquingKeysWith: { first, _ in first })
        let objects = rows.map { row -> String in
            var fields: [(String, String)] = [
                ("dataset", TextEscaping.jsonString(row.dataset)), ("points", "\(counts[row.dataset] ?? 0)"),
                ("op", TextEscaping.jsonString(row.operation)), ("engine", TextEscaping.jsonString(row.engine)),
                ("p50_us", Self.jsonNumber(row.stats.p50Microseconds)), ("p95_us", Self.jsonNumber(row.stats.p95Microseconds)),
                ("p99_us", Self.jsonNumber(row.stats.p99Microseconds)), ("qps", Self.jsonNumber(row.stats.queriesPerSecond)),
                ("queries", "\(row.stats.count)"), ("mean_results", Self.jsonNumber(row.meanResults)),
                ("verified", row.verified ? "true" : "false"),
                ("cairn_speedup", cairnSpeedup(over: row).map(Self.jsonNumber) ?? "null"),
            ]
            if row.isBuild {
                fields.append(("build_ms", Self.jsonNumber(row.stats.p50Microseconds / 1_000)))
                fields.append(("bytes_per_point", row.bytesPerPoint.map(Self.jsonNumber) ?? "null"))
                fields.append(("reported_bytes_per_point", row.reportedBytesPerPoint.map(Self.jsonNumber) ?? "null"))
            }
            return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        return "[\n  " + objects.joined(separator: ",\n  ") + "\n]"
    }

    /// A JSON number rounded to 3 decimals (0 for non-finite values, which JSON cannot carry).
    /// - Complexity: O(1).
    static func jsonNumber(_ value: Double) -> String {
        TextEscaping.jsonNumber(value.isFinite ? (value * 1_000).rounded() / 1_000 : 0)
    }
}
