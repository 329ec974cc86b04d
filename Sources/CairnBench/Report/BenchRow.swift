/// One operation measured on one engine.
public struct BenchRow: Sendable {
    /// The dataset's name.
    public let dataset: String
    /// The operation's name (`build`, `box-100`, …).
    public let operation: String
    /// The engine's name.
    public let engine: String
    /// Latency and throughput (for `build`, one sample: the build time).
    public let stats: LatencyStats
    /// Mean number of results per query (0 for `build`).
    public let meanResults: Double
    /// For `build`: the C heap kept by the engine, bytes per point (nil where it cannot be measured).
    public let bytesPerPoint: Double?
    /// For `build`: what the engine's own accounting reports, bytes per point (Cairn's `memoryBytes`,
    /// SQLite's `sqlite3_memory_used`), when it has one.
    public let reportedBytesPerPoint: Double?
    /// Whether every query's answer matched the reference engine's.
    public let verified: Bool

    /// Whether this is a build row.
    /// - Complexity: O(1).
    public var isBuild: Bool { operation == "build" }
}
