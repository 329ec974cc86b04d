import CairnCore

/// What one `cairn bench --db` run measured, with what it ran on.
public struct StoreBenchReport: Sendable {
    /// The store's path as given.
    public let store: String
    /// Features in the store's index.
    public let features: Int
    /// Where the queries came from: `drawn from the store (seed 42)` or `FILE`.
    public let querySource: String
    /// How the run was made.
    public let configuration: StoreBenchConfiguration
    /// One row per operation, in run order.
    public let rows: [StoreBenchRow]
    /// Sentences about what could not be run (an operation skipped) or was refused (bad lines of a queries file).
    public let notes: [String]
    /// Lines of the queries file that were refused (0 for drawn queries).
    public let rejectedLines: Int

    /// Gathers a run's parts.
    /// - Complexity: O(1).
    public init(store: String, features: Int, querySource: String, configuration: StoreBenchConfiguration,
                rows: [StoreBenchRow], notes: [String], rejectedLines: Int) {
        self.store = store
        self.features = features
        self.querySource = querySource
        self.configuration = configuration
        self.rows = rows
        self.notes = notes
        self.rejectedLines = rejectedLines
    }

    /// The percentiles every report gives, with their names in text and JSON.
    static let percentiles: [(percentile: Double, text: String, json: String)] = [
        (50, "p50 µs", "p50_us"), (95, "p95 µs", "p95_us"), (99, "p99 µs", "p99_us"), (99.9, "p99.9 µs", "p999_us"),
    ]
}
