extension PointIndex {
    /// Rebuilds an index from its two buffers as saved in a snapshot, after checking everything queries rely on.
    ///
    /// - Throws: the first problem found, as a sentence: buffer lengths, items not a permutation of `0..<count`,
    ///   a coordinate that is not finite or out of range, or a split that does not bound its halves.
    /// - Complexity: O(n log n).
    init(validatingIds ids: ContiguousArray<UInt32>, coordinates: ContiguousArray<Double>, bucketSize: Int) throws(PointIndexLayoutError) {
        guard bucketSize >= 2 else { throw PointIndexLayoutError("bucket size \(bucketSize) is below 2") }
        guard coordinates.count == 2 * ids.count else {
            throw PointIndexLayoutError("\(coordinates.count) coordinates for \(ids.count) items (expected \(2 * ids.count))")
        }
        var seen = [Bool](repeating: false, count: ids.count)
        for p in ids.indices {
            let item = Int(ids[p])
            guard item < ids.count else { throw PointIndexLayoutError("item \(item) at position \(p) is not below the count \(ids.count)") }
            guard !seen[item] else { throw PointIndexLayoutError("item \(item) appears twice") }
            seen[item] = true
            let longitude = coordinates[2 * p + Axis.longitude], latitude = coordinates[2 * p + Axis.latitude]
            // Written as closed ranges so NaN fails too.
            guard (-180.0...180.0).contains(longitude), (-90.0...90.0).contains(latitude) else {
                throw PointIndexLayoutError("point \(p) has longitude \(longitude), latitude \(latitude): not WGS84 degrees")
            }
        }
        if let problem = PointIndex.orderProblem(coordinates, count: ids.count, bucketSize: bucketSize) {
            throw PointIndexLayoutError(problem)
        }
        self.ids = IndexBuffer(ids)
        self.coordinates = IndexBuffer(coordinates)
        self.bucketSize = bucketSize
    }

    /// The first split that does not bound its halves on its axis, described, or nil when the k-d order holds.
    private static func orderProblem(_ coordinates: ContiguousArray<Double>, count: Int, bucketSize: Int) -> String? {
        coordinates.withUnsafeBufferPointer { c in
            // An explicit stack: a crafted count cannot recurse deeply anyway (depth is log2 n), but this keeps it flat.
            var stack: [(lo: Int, hi: Int, axis: Int)] = [(0, count, Axis.longitude)]
            while let (lo, hi, axis) = stack.popLast() {
                if hi - lo <= bucketSize { continue }
                let middle = (lo + hi) >> 1
                let split = c[2 * middle + axis]
                for p in lo..<middle where !(c[2 * p + axis] <= split) {
                    return "position \(p) lies above the split at position \(middle)"
                }
                for p in (middle + 1)..<hi where !(c[2 * p + axis] >= split) {
                    return "position \(p) lies below the split at position \(middle)"
                }
                stack.append((lo, middle, 1 - axis))
                stack.append((middle + 1, hi, 1 - axis))
            }
            return nil
        }
    }
}

/// Why saved point-index buffers were refused.
struct PointIndexLayoutError: Error {
    let detail: String
    init(_ detail: String) { self.detail = detail }
}
