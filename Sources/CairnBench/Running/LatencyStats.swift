/// Latency percentiles and throughput of one operation on one engine, from one timed sample per query.
public struct LatencyStats: Hashable, Sendable {
    /// Number of timed queries.
    public let count: Int
    /// Median latency, microseconds.
    public let p50Microseconds: Double
    /// 95th percentile latency, microseconds.
    public let p95Microseconds: Double
    /// 99th percentile latency, microseconds.
    public let p99Microseconds: Double
    /// Mean latency, microseconds.
    public let meanMicroseconds: Double
    /// Queries per second on one core: the number of queries over the sum of their latencies.
    public let queriesPerSecond: Double

    /// Summarises samples given in nanoseconds (nearest-rank percentiles).
    /// - Complexity: O(n log n) for n samples.
    public init(nanoseconds samples: [UInt64]) {
        let sorted = samples.sorted()
        count = sorted.count
        func percentile(_ p: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            // Nearest rank: the smallest sample with at least p of the samples at or below it.
            let rank = Int((p * Double(sorted.count)).rounded(.up))
            return Double(sorted[min(max(rank, 1), sorted.count) - 1]) / 1_000
        }
        p50Microseconds = percentile(0.50)
        p95Microseconds = percentile(0.95)
        p99Microseconds = percentile(0.99)
        let totalNanoseconds = sorted.reduce(0.0) { $0 + Double($1) }
        meanMicroseconds = sorted.isEmpty ? 0 : totalNanoseconds / Double(sorted.count) / 1_000
        queriesPerSecond = totalNanoseconds > 0 ? Double(sorted.count) / (totalNanoseconds / 1e9) : 0
    }

    /// Stats of a single measurement (a build), microseconds.
    /// - Complexity: O(1).
    public init(singleMicroseconds value: Double) {
        count = 1
        p50Microseconds = value
        p95Microseconds = value
        p99Microseconds = value
        meanMicroseconds = value
        queriesPerSecond = value > 0 ? 1e6 / value : 0
    }
}
