import Histogram

/// Query latencies of a run of any length in constant memory: an HdrHistogram (G. Tene's High Dynamic Range
/// histogram, hdrhistogram-swift) of nanoseconds with 3 significant digits, so every percentile is within
/// 0.1 % of the exact sample, from 1 ns to 10 s (and more: it grows when a longer sample comes), in about 200 KB.
public struct LatencyHistogram: Sendable {
    private var histogram: Histogram<UInt64>

    /// An empty histogram.
    /// - Complexity: O(buckets), about 25,000 counters.
    public init() {
        histogram = Histogram(lowestDiscernibleValue: 1, highestTrackableValue: 10_000_000_000, numberOfSignificantValueDigits: .three)
        // A query slower than 10 s (a huge box on a huge store) is still counted, not dropped.
        histogram.autoResize = true
    }

    /// Counts one sample.
    /// - Complexity: O(1).
    @inline(__always)
    public mutating func record(nanoseconds: UInt64) {
        histogram.record(max(1, nanoseconds))
    }

    /// Adds every sample of `other` (another thread's).
    /// - Complexity: O(buckets).
    public mutating func add(_ other: LatencyHistogram) {
        histogram.add(other.histogram)
    }

    /// The number of samples.
    /// - Complexity: O(1).
    public var count: Int { Int(histogram.totalCount) }

    /// The latency at `percentile` (0...100) in microseconds: the smallest recorded value (to 3 significant
    /// digits) with at least that share of the samples at or below it; 0 when empty.
    /// - Complexity: O(buckets).
    public func microseconds(atPercentile percentile: Double) -> Double {
        count == 0 ? 0 : Double(histogram.valueAtPercentile(percentile)) / 1_000
    }

    /// The largest sample, microseconds (0 when empty).
    /// - Complexity: O(1).
    public var maximumMicroseconds: Double { count == 0 ? 0 : Double(histogram.maxRecorded) / 1_000 }

    /// The mean sample, microseconds (0 when empty).
    /// - Complexity: O(buckets).
    public var meanMicroseconds: Double { count == 0 ? 0 : histogram.mean / 1_000 }
}
