#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A monotonic clock reading in nanoseconds, for timing one query.
/// - Complexity: O(1) (a vDSO call on Linux, about 20 ns).
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var time = timespec()
    // clock_gettime returns 0 on success, -1 with errno set; CLOCK_MONOTONIC cannot fail on Linux or macOS.
    _ = clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
}
