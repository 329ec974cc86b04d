#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Latency percentiles and throughput of one operation on one engine, from one timed sample per query.
struct LatencyStats: Hashable, Sendable {
    /// Number of timed queries.
    let count: Int
    /// Median latency, microseconds.
    let p50Microseconds: Double
    /// 95th percentile latency, microseconds.
    let p95Microseconds: Double
    /// 99th percentile latency, microseconds.
    let p99Microseconds: Double
    /// Mean latency, microseconds.
    let meanMicroseconds: Double
    /// Queries per second on one core: the number of queries over the sum of their latencies.
    let queriesPerSecond: Double

    /// Summarises samples given in nanoseconds (nearest-rank percentiles).
    /// - Complexity: O(n log n) for n samples.
    init(nanoseconds samples: [UInt64]) {
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
    init(singleMicroseconds value: Double) {
        count = 1
        p50Microseconds = value
        p95Microseconds = value
        p99Microseconds = value
        meanMicroseconds = value
        queriesPerSecond = value > 0 ? 1e6 / value : 0
    }
}

/// A monotonic clock reading in nanoseconds, for timing one query.
/// - Complexity: O(1) (a vDSO call on Linux, about 20 ns).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    // clock_gettime returns 0 on success, -1 with errno set; CLOCK_MONOTONIC cannot fail on Linux or macOS.
    _ = clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
