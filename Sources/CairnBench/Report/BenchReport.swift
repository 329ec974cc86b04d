import CairnCore

/// Everything one run measured.
public struct BenchReport: Sendable {
    /// What the run measured.
    public let configuration: BenchConfiguration
    /// A line per engine saying what it is, with its library's version: `sqlite-rtree: SQLite 3.40.1 R*Tree…`.
    public let engineSummaries: [String]
    /// Each dataset's name and point count, in order.
    public let datasets: [(name: String, points: Int)]
    /// Per dataset, operation and engine, in that order.
    public let rows: [BenchRow]
    /// Every disagreement found (at most one per dataset, operation and engine).
    public let mismatches: [BenchMismatch]
    /// Wall time of the whole run, seconds.
    public let seconds: Double
}

extension BenchReport {
    /// The row of `engine` for `operation` on `dataset`.
    /// - Complexity: O(rows).
    public func row(_ dataset: String, _ operation: String, _ engine: String) -> BenchRow? {
        rows.first { $0.dataset == dataset && $0.operation == operation && $0.engine == engine }
    }

    /// How many times faster Cairn is than `row`'s engine on the same dataset and operation (p50, or
    /// build time), when Cairn ran it.
    /// - Complexity: O(rows).
    public func cairnSpeedup(over row: BenchRow) -> Double? {
        guard let cairn = self.row(row.dataset, row.operation, BenchEngineName.cairn.rawValue),
              cairn.stats.p50Microseconds > 0 else { return nil }
        return row.stats.p50Microseconds / cairn.stats.p50Microseconds
    }
}
