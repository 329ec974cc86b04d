/// One operation of `cairn bench --db`, all threads together.
public struct StoreBenchRow: Sendable {
    /// The operation's name (`nearest-20`, or `nearest` for a queries file's).
    public let operation: String
    /// Distinct queries of the operation.
    public let distinctQueries: Int
    /// Timed queries run, all threads together (more than `distinctQueries` with a duration).
    public let queries: Int
    /// Results returned by the timed queries, all threads together.
    public let results: Int
    /// Every timed query's latency.
    public let latency: LatencyHistogram
    /// Wall time from the threads' start to the last one's end, seconds.
    public let wallSeconds: Double

    /// Queries per second over all threads: timed queries over wall time (warm-up excluded from both).
    /// - Complexity: O(1).
    public var queriesPerSecond: Double { wallSeconds > 0 ? Double(queries) / wallSeconds : 0 }

    /// Mean results per query.
    /// - Complexity: O(1).
    public var meanResults: Double { queries > 0 ? Double(results) / Double(queries) : 0 }
}
