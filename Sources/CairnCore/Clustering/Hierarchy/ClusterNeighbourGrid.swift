/// Fixed-radius neighbour search over a set of positions while building a `ClusterIndex`.
///
/// A uniform grid of `side × side` cells over the unit square, every cell at least `radius + slack` wide (the slack
/// covers float32 rounding), so every entry that may take or be taken by a point lies in the 3×3 block around it; columns wrap across the antimeridian (x = 0 meets
/// x = 1). Nothing is hashed: the positions are sorted by cell (row-major, slots ascending within a cell) into
/// copies read in cell order, and one linear sweep records, per sorted position, where the block's cells start in the
/// rows above and below, so a scan reads three short runs of the sorted arrays.
struct ClusterNeighbourGrid {
    /// One slot's copy in cell order.
    struct Point {
        var x: Double
        var y: Double
        /// The slot (its index in the caller's order).
        var slot: Int32
        var weight: UInt32
        var entry: UInt32
    }

    /// Cells per side.
    let side: Int
    /// log2(side): a key's row is `key >> shift`, its column `key & (side - 1)` (no division).
    private let shift: UInt64
    /// The radius with room for rounding: how far from a point its block's neighbouring cells need to be read.
    private let reach: Double
    /// Cell keys (`row * side + column`) in cell order.
    private var keys: [UInt64]
    /// The slots in cell order, ascending within a cell (copies, so scans read memory in order).
    private(set) var points: [Point]
    /// Per sorted position: the first position whose key is at least (row - 1, first column of the block), and
    /// the same for row + 1.
    private var upStart: [Int32]
    private var downStart: [Int32]
    /// Pairs of entries sharing a cell: how crowded the cells are (each entry scanning its block visits at least
    /// twice this many entries in all).
    private(set) var sameCellPairs: Int

    /// Cells per side for a radius: the largest power of two whose cells are at least `radius` wide.
    static func side(forRadius radius: Double) -> Int {
        var side = 1
        while side < 1 << 30, Double(side * 2) * radius <= 1 { side *= 2 }
        return side
    }

    /// Sorts the entries of a level into cells for neighbours within `radius` of a position within `slack` of
    /// theirs (the rounding of `ClusterPrecision`).
    /// - Complexity: O(m) for m entries (two counting or a few radix passes).
    init(level: ClusterLevel, radius: Double, slack: Double) {
        self.init(count: level.count, side: Self.side(forRadius: radius + slack), radius: radius, slack: slack) { i in
            let item = level.items[i]
            return Point(x: item.x, y: item.y, slot: Int32(i), weight: item.weight, entry: item.entry)
        }
    }

    /// Sorts slots `0..<count` into `side × side` cells (a power of two at most 2^30, cells at least
    /// `radius + slack` wide, when built for a level); a block scan reaches `radius + slack` around a position.
    /// - Complexity: O(m) for m slots.
    init(count n: Int, side: Int, radius: Double, slack: Double = 0, _ point: (Int) -> Point) {
        self.side = side
        shift = UInt64(side.trailingZeroBitCount)
        reach = radius + slack + 1e-12
        let sideD = Double(side)
        let shift = self.shift
        var unsorted: [Point] = []
        let unsortedKeys: [UInt64] = Self.filled(n) { keys in
            unsorted = [Point](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0..<n {
                    let pt = point(i)
                    buffer.initializeElement(at: i, to: pt)
                    let cx = min(Int(pt.x * sideD), side - 1)
                    let cy = min(Int(pt.y * sideD), side - 1)
                    keys[i] = UInt64(cy) << shift | UInt64(cx)
                }
                initialized = n
            }
        }
        let order: [Int32]
        if side <= 2 * n {
            // Two counting passes cost O(n + side): worth it only when the rows are not much sparser than the slots.
            (keys, order) = Self.countingSort(unsortedKeys, side: side, shift: shift)
        } else {
            var bits = 0
            while bits < 64, (UInt64(side) * UInt64(side) - 1) >> UInt64(bits) != 0 { bits += 1 }
            // Slots ascend within a key (the sort is stable); 11-bit digits.
            var sortedKeys = unsortedKeys
            var slots = (0 ..< Int32(n)).map { $0 }
            RadixSort.sort(keys: &sortedKeys, values: &slots, bits: bits, digitBits: 11)
            (keys, order) = (sortedKeys, slots)
        }
        // Unchecked gather: `order` is a permutation of 0..<n.
        points = unsorted.withUnsafeBufferPointer { unsorted in
            order.withUnsafeBufferPointer { order in
                [Point](unsafeUninitializedCapacity: n) { buffer, initialized in
                    for i in 0..<n { buffer.initializeElement(at: i, to: unsorted[Int(order[i])]) }
                    initialized = n
                }
            }
        }
        (upStart, downStart, sameCellPairs) = keys.withUnsafeBufferPointer { Self.blockStarts($0, side: side, shift: shift) }
    }

    /// Per sorted position, the first position of its block's cells in the row above and in the row below (`n` for
    /// none), by monotone pointers; and the pairs of positions sharing a cell.
    /// - Complexity: O(n).
    private static func blockStarts(_ keys: UnsafeBufferPointer<UInt64>, side: Int, shift: UInt64) -> ([Int32], [Int32], Int) {
        let n = keys.count
        var downStart: [Int32] = []
        var pairs = 0
        let upStart: [Int32] = filled(n) { upStart in
            downStart = filled(n) { downStart in
                var up = 0, down = 0, cellStart = 0
                let side64 = UInt64(side), mask = side64 - 1
                for p in 0..<n {
                    if p > 0, keys[p] == keys[p - 1] {
                        // The same cell: the same starts (they depend on the key alone).
                        upStart[p] = upStart[p - 1]
                        downStart[p] = downStart[p - 1]
                        pairs += p - cellStart
                        continue
                    }
                    cellStart = p
                    let (row, column) = (keys[p] >> shift, Int(keys[p] & mask))
                    let first = UInt64(side <= 3 ? 0 : max(column - 1, 0))
                    if row > 0 {
                        let target = (row - 1) * side64 + first
                        while up < n, keys[up] < target { up += 1 }
                    }
                    let target = (row + 1) * side64 + first
                    while down < n, keys[down] < target { down += 1 }
                    upStart[p] = Int32(row > 0 ? up : n)
                    downStart[p] = Int32(row + 1 < side64 ? down : n)
                }
            }
        }
        return (upStart, downStart, pairs)
    }

    var count: Int { keys.count }

    /// The distance between two unit-square x, the shorter way round the antimeridian. Equal to
    /// `dx > 0.5 ? 1 - dx : dx` for dx in [0, 1] (rounding is monotone, so 1 - dx >= dx exactly when dx <= 0.5),
    /// and branch-free.
    /// - Complexity: O(1).
    @inline(__always)
    static func wrappedDistance(_ x1: Double, _ x2: Double) -> Double {
        let across = abs(x1 - x2)
        return min(across, 1 - across)
    }

    /// The squared distance between two unit-square positions, x the shorter way round the antimeridian.
    /// - Complexity: O(1).
    @inline(__always)
    static func distanceSquared(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        let dx = wrappedDistance(x1, x2)
        let dy = y1 - y2
        return dx * dx + dy * dy
    }

    /// Visits the sorted positions of every entry in the 3×3 block around position `p` (itself included) until
    /// `visit` returns true; returns whether it did. Cells of the block that the radius around p does not reach
    /// are skipped (on grids of more than three cells per side).
    @inline(__always)
    func forEachInBlock(around p: Int, _ visit: (Int) -> Bool) -> Bool {
        // The scans below read keys unchecked: every index is tested against 0..<n first.
        keys.withUnsafeBufferPointer { keys in scanBlock(around: p, keys: keys, visit) }
    }

    @inline(__always)
    private func scanBlock(around p: Int, keys: UnsafeBufferPointer<UInt64>, _ visit: (Int) -> Bool) -> Bool {
        let n = keys.count
        let side64 = UInt64(side)
        let row = keys[p] >> shift, column = Int(keys[p] & (side64 - 1))
        // The neighbouring columns and rows the radius reaches into (cell edges are exact: `side` is a power of two).
        var first = 0, last = side - 1, above = row > 0, below = row + 1 < side64
        if side > 3 {
            let x = points[p].x, y = points[p].y, cell = 1 / Double(side)
            first = column > 0 && x - reach < Double(column) * cell ? column - 1 : column
            last = column + 1 < side && x + reach >= Double(column + 1) * cell ? column + 1 : column
            above = above && y - reach < Double(row) * cell
            below = below && y + reach >= Double(row + 1) * cell
        }
        // This row: around p.
        let rowLow = row * side64 + UInt64(first), rowHigh = row * side64 + UInt64(last)
        var q = p
        while q >= 0, keys[q] >= rowLow {
            if visit(q) { return true }
            q -= 1
        }
        q = p + 1
        while q < n, keys[q] <= rowHigh {
            if visit(q) { return true }
            q += 1
        }
        // Rows above and below, from their recorded starts.
        if above {
            let low = (row - 1) * side64 + UInt64(first), high = (row - 1) * side64 + UInt64(last)
            q = Int(upStart[p])
            while q < n, keys[q] < low { q += 1 }
            while q < n, keys[q] <= high {
                if visit(q) { return true }
                q += 1
            }
        }
        if below {
            let low = (row + 1) * side64 + UInt64(first), high = (row + 1) * side64 + UInt64(last)
            q = Int(downStart[p])
            while q < n, keys[q] < low { q += 1 }
            while q < n, keys[q] <= high {
                if visit(q) { return true }
                q += 1
            }
        }
        // Across the antimeridian: the column on the other edge, in the three rows.
        if side > 3, column == 0 || column == side - 1 {
            let other = UInt64(column == 0 ? side - 1 : 0)
            for r in (row == 0 ? 0 : row - 1)...min(row + 1, side64 - 1) {
                let k = r * side64 + other
                q = lowerBound(k)
                while q < n, keys[q] == k {
                    if visit(q) { return true }
                    q += 1
                }
            }
        }
        return false
    }

    /// Two bands of rows whose blocks do not reach each other's: the sorted positions of the rows before the middle
    /// position's row less one, and of the rows after it; the two rows between are in neither. A block reaches one
    /// row up and down (the antimeridian's columns too), so a scan from one band reads its own rows and the rows
    /// between only. Nil when the grid has too few rows for two bands.
    /// - Complexity: O(log m) for m positions.
    func rowBands() -> (low: Range<Int>, high: Range<Int>)? {
        let n = keys.count
        guard n > 0 else { return nil }
        let side64 = UInt64(side)
        let row = keys[n / 2] >> shift
        guard row >= 2, row + 3 <= side64 else { return nil }
        let a = lowerBound((row - 1) * side64), b = lowerBound((row + 1) * side64)
        return (0..<a, b..<n)
    }

    private func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// An array of `n` plain values, every one of which `fill` (or the caller, before reading any) writes: the
    /// memory is not zeroed first.
    /// - Complexity: O(1) besides `fill`.
    private static func filled<T: BitwiseCopyable>(_ n: Int, _ fill: (UnsafeMutableBufferPointer<T>) -> Void) -> [T] {
        [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            fill(buffer)
            initialized = n
        }
    }

    /// Keys sorted with their slots (stable), by two counting passes: columns, then rows.
    private static func countingSort(_ keys: [UInt64], side: Int, shift: UInt64) -> ([UInt64], [Int32]) {
        let n = keys.count
        let mask = UInt64(side) - 1
        var byColumn: [Int32] = filled(n) { _ in }
        var order: [Int32] = filled(n) { _ in }
        var sorted: [UInt64] = filled(n) { _ in }
        // Both histograms in one read of the keys; every column and row is below `side` (unchecked access).
        var columnStart = [Int32](repeating: 0, count: side + 1)
        var rowStart = [Int32](repeating: 0, count: side + 1)
        keys.withUnsafeBufferPointer { keys in
            columnStart.withUnsafeMutableBufferPointer { columnStart in
                rowStart.withUnsafeMutableBufferPointer { rowStart in
                    for key in keys {
                        columnStart[Int(key & mask) + 1] += 1
                        rowStart[Int(key >> shift) + 1] += 1
                    }
                    for i in 1...side {
                        columnStart[i] += columnStart[i - 1]
                        rowStart[i] += rowStart[i - 1]
                    }
                    byColumn.withUnsafeMutableBufferPointer { byColumn in
                        for i in 0..<n {
                            let c = Int(keys[i] & mask)
                            byColumn[Int(columnStart[c])] = Int32(i)
                            columnStart[c] += 1
                        }
                        order.withUnsafeMutableBufferPointer { order in
                            sorted.withUnsafeMutableBufferPointer { sorted in
                                for slot in byColumn {
                                    let key = keys[Int(slot)]
                                    let r = Int(key >> shift)
                                    let to = Int(rowStart[r])
                                    order[to] = slot
                                    sorted[to] = key
                                    rowStart[r] += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        return (sorted, order)
    }
}
