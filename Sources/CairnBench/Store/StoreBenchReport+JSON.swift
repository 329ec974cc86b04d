import CairnIO

extension StoreBenchReport {
    /// The report as one JSON object: `store`, `features`, `threads`, `duration_s` (null when each query ran
    /// once), `model`, `queries_from`, `rejected_lines`, `notes`, and `operations`, an array with per operation
    /// `op`, `distinct_queries`, `queries`, `results`, `mean_results`, `p50_us`, `p95_us`, `p99_us`, `p999_us`,
    /// `max_us`, `mean_us`, `wall_s` and `qps` (all threads over wall time).
    /// - Complexity: O(rows · histogram buckets).
    public func json() -> String {
        let number = BenchReport.jsonNumber
        let operations = rows.map { row -> String in
            var fields: [(String, String)] = [
                ("op", TextEscaping.jsonString(row.operation)), ("distinct_queries", "\(row.distinctQueries)"),
                ("queries", "\(row.queries)"), ("results", "\(row.results)"), ("mean_results", number(row.meanResults)),
            ]
            fields += Self.percentiles.map { ($0.json, number(row.latency.microseconds(atPercentile: $0.percentile))) }
            fields += [("max_us", number(row.latency.maximumMicroseconds)), ("mean_us", number(row.latency.meanMicroseconds)),
                       ("wall_s", number(row.wallSeconds)), ("qps", number(row.queriesPerSecond))]
            return "    {" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
        }
        let header: [(String, String)] = [
            ("store", TextEscaping.jsonString(store)), ("features", "\(features)"), ("threads", "\(configuration.threads)"),
            ("duration_s", configuration.durationSeconds.map(number) ?? "null"),
            ("model", TextEscaping.jsonString(configuration.model.rawValue)),
            ("queries_from", TextEscaping.jsonString(querySource)), ("rejected_lines", "\(rejectedLines)"),
            ("notes", "[" + notes.map(TextEscaping.jsonString).joined(separator: ", ") + "]"),
        ]
        return "{\n" + header.map { "  \"\($0.0)\": \($0.1),\n" }.joined()
            + "  \"operations\": [\n" + operations.joined(separator: ",\n") + "\n  ]\n}"
    }
}
