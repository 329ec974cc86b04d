import Foundation

/// The order in which supercluster's neighbour search (a KDBush of the level, node size 64, Float32 coordinates)
/// returns a level's entries, as a rank per entry.
///
/// KDBush sorts its items into a k-d tree in place: the middle item of a range splits it on x, then on y, and so on,
/// chosen by Floyd–Rivest selection; ranges of at most 64 items stay as they come. `within` walks that tree depth
/// first with a stack: a range's middle item first, then its right half, then its left half, a small range in index
/// order. Whatever a query matches therefore comes out in one fixed order per level, the walk's, so sorting a group's
/// neighbours by their rank gives the order supercluster passes them on in when the group stays below `minPoints`.
///
/// Reference: V. Agafonkin, kdbush (https://github.com/mourner/kdbush); R. W. Floyd and R. L. Rivest, "Algorithm 489:
/// the algorithm SELECT", Communications of the ACM 18(3), 1975.
enum ClusterKDOrder {
    /// Items per leaf range, as supercluster builds its trees.
    static let nodeSize = 64

    /// The walk's rank of each item (by its index in the level's order), from positions as the tree holds them
    /// (rounded to Float for supercluster's Float32 trees), x and y of each item in turn; sorts `positions` in place.
    /// - Complexity: O(n log n) expected for n items (Floyd–Rivest selection).
    static func ranks(positions coordinates: inout [Double]) -> [UInt32] {
        let n = coordinates.count / 2
        var ids = (0..<n).map { Int32($0) }
        var rank = [UInt32](repeating: 0, count: n)
        guard n > 0 else { return rank }
        ids.withUnsafeMutableBufferPointer { ids in
            coordinates.withUnsafeMutableBufferPointer { coordinates in
                sort(ids, coordinates, left: 0, right: n - 1, axis: 0)
            }
        }
        // The depth-first walk: middle, right half, left half.
        var next: UInt32 = 0
        var stack: [(left: Int, right: Int)] = [(0, n - 1)]
        while let (left, right) = stack.popLast() {
            if right - left <= nodeSize {
                for i in left...right {
                    rank[Int(ids[i])] = next
                    next += 1
                }
                continue
            }
            let m = (left + right) >> 1
            rank[Int(ids[m])] = next
            next += 1
            stack.append((left, m - 1))
            stack.append((m + 1, right))
        }
        return rank
    }

    /// Sorts `left...right` into a k-d tree on `axis` (0: x, 1: y), alternating below.
    private static func sort(_ ids: UnsafeMutableBufferPointer<Int32>, _ c: UnsafeMutableBufferPointer<Double>,
                             left: Int, right: Int, axis: Int) {
        guard right - left > nodeSize else { return }
        let m = (left + right) >> 1
        select(ids, c, k: m, left: left, right: right, axis: axis)
        sort(ids, c, left: left, right: m - 1, axis: 1 - axis)
        sort(ids, c, left: m + 1, right: right, axis: 1 - axis)
    }

    /// Rearranges `left...right` so that the item at `k` is the one a sort on `axis` puts there, smaller ones before
    /// it and larger ones after (Floyd–Rivest: a recursive sample narrows the range first on large ranges).
    private static func select(_ ids: UnsafeMutableBufferPointer<Int32>, _ c: UnsafeMutableBufferPointer<Double>,
                               k: Int, left l: Int, right r: Int, axis: Int) {
        var left = l, right = r
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1), m = Double(k - left + 1)
                let z = log(n)
                let s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (m - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - m * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - m) * s / n + sd).rounded(.down)))
                select(ids, c, k: k, left: newLeft, right: newRight, axis: axis)
            }
            let t = c[2 * k + axis]
            var i = left, j = right
            swapItems(ids, c, left, k)
            if c[2 * right + axis] > t { swapItems(ids, c, left, right) }
            while i < j {
                swapItems(ids, c, i, j)
                i += 1
                j -= 1
                while c[2 * i + axis] < t { i += 1 }
                while c[2 * j + axis] > t { j -= 1 }
            }
            if c[2 * left + axis] == t {
                swapItems(ids, c, left, j)
            } else {
                j += 1
                swapItems(ids, c, j, right)
            }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private static func swapItems(_ ids: UnsafeMutableBufferPointer<Int32>, _ c: UnsafeMutableBufferPointer<Double>, _ i: Int, _ j: Int) {
        ids.swapAt(i, j)
        c.swapAt(2 * i, 2 * j)
        c.swapAt(2 * i + 1, 2 * j + 1)
    }
}
