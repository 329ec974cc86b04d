extension PointIndex {
    /// Checks the k-d order (every split item bounds its two halves on the node's axis), that the items are
    /// a permutation of `0..<count`, and that every coordinate is in range. Traps on a violation.
    /// Does nothing in release builds.
    /// - Complexity: O(n log n).
    func _checkInvariants() {
        #if DEBUG
        precondition(coordinates.count == 2 * ids.count, "coordinate buffer length")
        var seen = [Bool](repeating: false, count: ids.count)
        for p in ids.indices {
            let item = Int(ids[p])
            precondition(item < ids.count && !seen[item], "items are not a permutation")
            seen[item] = true
            let longitude = coordinates[2 * p + Axis.longitude], latitude = coordinates[2 * p + Axis.latitude]
            precondition((-180...180).contains(longitude) && (-90...90).contains(latitude), "coordinate out of range")
        }
        func check(lo: Int, hi: Int, axis: Int) {
            if hi - lo <= bucketSize { return }
            let middle = (lo + hi) >> 1
            let split = coordinates[2 * middle + axis]
            for p in lo..<middle { precondition(coordinates[2 * p + axis] <= split, "left half above its split") }
            for p in (middle + 1)..<hi { precondition(coordinates[2 * p + axis] >= split, "right half below its split") }
            check(lo: lo, hi: middle, axis: 1 - axis)
            check(lo: middle + 1, hi: hi, axis: 1 - axis)
        }
        check(lo: 0, hi: ids.count, axis: Axis.longitude)
        #endif
    }
}
