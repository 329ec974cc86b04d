import Foundation
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

/// Bytes the C heap holds for the process right now, from glibc's `malloc_info` report: memory the arenas
/// took from the system, less their free chunks, plus mmapped blocks. Nil where glibc is not the allocator.
/// Differences around a build give the memory an engine keeps (Swift allocates through malloc too).
/// - Complexity: O(number of malloc arenas and bins).
func heapBytesInUse() -> Int? {
    #if canImport(Glibc)
    // malloc_info(options, stream) writes an XML report and returns 0 (-1 on error). It is declared in
    // <malloc.h>, which the Glibc module does not import, so it is looked up by name; mallinfo2 returns its
    // struct by value, which a looked-up symbol cannot be called for from Swift.
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(nil, "malloc_info") else { return nil }
    let mallocInfo = unsafeBitCast(symbol, to: MallocInfo.self)
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    // open_memstream returns a stream writing into a malloc'ed buffer (ours to free after fclose), or NULL.
    guard let stream = open_memstream(&buffer, &size) else { return nil }
    let status = mallocInfo(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard status == 0, let buffer else { return nil }
    var report = String(cString: buffer)[...]
    // The process-wide totals follow the last per-arena <heap> section.
    if let lastHeap = report.range(of: "</heap>", options: .backwards) { report = report[lastHeap.upperBound...] }
    func value(_ element: String, _ type: String) -> Int {
        guard let start = report.range(of: "<\(element) type=\"\(type)\"") else { return 0 }
        let rest = report[start.upperBound...]
        guard let sizeStart = rest.range(of: "size=\""),
              let sizeEnd = rest[sizeStart.upperBound...].firstIndex(of: "\"") else { return 0 }
        return Int(rest[sizeStart.upperBound..<sizeEnd]) ?? 0
    }
    return value("system", "current") - value("total", "fast") - value("total", "rest") + value("total", "mmap")
    #else
    return nil
    #endif
}
