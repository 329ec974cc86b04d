#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PointIndex {
    /// One point while building: both coordinates and the item move together, so a swap is one 24-byte move.
    struct BuildEntry {
        var longitude: Double
        var latitude: Double
        var item: UInt32
    }

    /// Reads the input, arranges it in k-d order and returns the two flat buffers.
    static func build(
        _ input: some Sequence<Coordinate>,
        bucketSize: Int
    ) -> (ids: IndexBuffer<UInt32>, coordinates: IndexBuffer<Double>) {
        var entries = ContiguousArray<BuildEntry>()
        let copied: Void? = input.withContiguousStorageIfAvailable { buffer in
            // Fast path for arrays: no generic iteration per element.
            precondition(buffer.count <= Int(UInt32.max), "PointIndex holds at most \(UInt32.max) points")
            entries = ContiguousArray(unsafeUninitializedCapacity: buffer.count) { target, initialized in
                for i in buffer.indices {
                    target.initializeElement(at: i, to: BuildEntry(
                        longitude: buffer[i].longitude, latitude: buffer[i].latitude, item: UInt32(truncatingIfNeeded: i)))
                }
                initialized = buffer.count
            }
        }
        if copied == nil {
            entries.reserveCapacity(input.underestimatedCount)
            for coordinate in input {
                precondition(entries.count < Int(UInt32.max), "PointIndex holds at most \(UInt32.max) points")
                entries.append(BuildEntry(longitude: coordinate.longitude, latitude: coordinate.latitude,
                                          item: UInt32(truncatingIfNeeded: entries.count)))
            }
        }
        entries.withUnsafeMutableBufferPointer { buffer in
            arrange(buffer, lo: 0, hi: buffer.count, axis: Axis.longitude, bucketSize: bucketSize)
        }
        // Written straight into the index's own buffers: no array to copy afterwards.
        var coordinates = IndexBuffer<Double>([])
        let ids = entries.withUnsafeBufferPointer { source in
            IndexBuffer<UInt32>(count: source.count) { idBuffer in
                coordinates = IndexBuffer<Double>(count: 2 * source.count) { coordinateBuffer in
                    for p in source.indices {
                        idBuffer.initializeElement(at: p, to: source[p].item)
                        coordinateBuffer.initializeElement(at: 2 * p + Axis.longitude, to: source[p].longitude)
                        coordinateBuffer.initializeElement(at: 2 * p + Axis.latitude, to: source[p].latitude)
                    }
                }
            }
        }
        return (ids, coordinates)
    }

    /// Puts `[lo, hi)` in k-d order: the middle item is the median on `axis`, then both halves recursively
    /// on the other axis, down to buckets.
    private static func arrange(_ buffer: UnsafeMutableBufferPointer<BuildEntry>, lo: Int, hi: Int, axis: Int, bucketSize: Int) {
        if hi - lo <= bucketSize { return }
        let middle = (lo + hi) >> 1
        if axis == Axis.longitude {
            select(buffer, k: middle, left: lo, right: hi - 1, key: LongitudeKey.self)
        } else {
            select(buffer, k: middle, left: lo, right: hi - 1, key: LatitudeKey.self)
        }
        arrange(buffer, lo: lo, hi: middle, axis: 1 - axis, bucketSize: bucketSize)
        arrange(buffer, lo: middle + 1, hi: hi, axis: 1 - axis, bucketSize: bucketSize)
    }
}

/// The coordinate a split compares (a type parameter so each axis gets its own specialised loop).
protocol SplitKey {
    static func key(_ entry: PointIndex.BuildEntry) -> Double
}

enum LongitudeKey: SplitKey {
    @inline(__always) static func key(_ entry: PointIndex.BuildEntry) -> Double { entry.longitude }
}

enum LatitudeKey: SplitKey {
    @inline(__always) static func key(_ entry: PointIndex.BuildEntry) -> Double { entry.latitude }
}

/// Floyd and Rivest's SELECT (Algorithm 489, CACM 1975): rearranges `buffer[left...right]` so that position
/// `k` holds the value it would hold if sorted, everything before it is at most that value and everything
/// after it at least. Recursing on a small sample first brings the expected comparisons close to n + min(k, n - k).
private func select<K: SplitKey>(
    _ buffer: UnsafeMutableBufferPointer<PointIndex.BuildEntry>,
    k: Int,
    left initialLeft: Int,
    right initialRight: Int,
    key: K.Type
) {
    var left = initialLeft
    var right = initialRight
    while right > left {
        if right - left > 600 {
            // Narrow to a sample window expected to contain the k-th value, and select within it first.
            let n = Double(right - left + 1)
            let i = Double(k - left + 1)
            let z = log(n)
            let s = 0.5 * exp(2 * z / 3)
            let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i - n / 2 < 0 ? -1 : 1)
            let sampleLeft = max(left, Int((Double(k) - i * s / n + sd).rounded(.down)))
            let sampleRight = min(right, Int((Double(k) + (n - i) * s / n + sd).rounded(.down)))
            select(buffer, k: k, left: sampleLeft, right: sampleRight, key: key)
        }
        // Partition around t = the value now at k (Hoare-style, stopping on equal values so duplicates split evenly).
        let t = K.key(buffer[k])
        var i = left
        var j = right
        buffer.swapAt(left, k)
        if K.key(buffer[right]) > t { buffer.swapAt(left, right) }
        while i < j {
            buffer.swapAt(i, j)
            i += 1
            j -= 1
            while K.key(buffer[i]) < t { i += 1 }
            while K.key(buffer[j]) > t { j -= 1 }
        }
        if K.key(buffer[left]) == t {
            buffer.swapAt(left, j)
        } else {
            j += 1
            buffer.swapAt(j, right)
        }
        if j <= k { left = j + 1 }
        if k <= j { right = j - 1 }
    }
}
