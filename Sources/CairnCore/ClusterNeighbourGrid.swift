/// A uniform grid over the unit square for fixed-radius neighbour searches while building one zoom level.
///
/// Cells are `1 / side` wide with `side = floor(1 / radius)`, so every neighbour within `radius` lies in the 3×3
/// block of cells around a point; columns wrap across the antimeridian (x = 0 and x = 1 meet). Cells are stored
/// compressed: slots grouped per cell, ascending within a cell. When the grid has few cells they are addressed
/// directly; otherwise an open-addressing hash maps a cell key to its group.
struct ClusterNeighbourGrid {
    /// Cells per side.
    let side: Int
    /// Start of each cell's group in `slots` (one more entry than there are cells).
    private var cellStart: [Int32]
    /// Slots grouped by cell.
    private var slots: [Int32]
    /// Hash keys (cell keys, `UInt64.max` when empty); empty when cells are addressed directly.
    private var hashKeys: [UInt64]
    /// Group number per hash slot.
    private var hashCells: [Int32]
    private let hashShift: UInt64

    private static let emptyKey = UInt64.max

    init(x: [Double], y: [Double], radius: Double) {
        let n = x.count
        let perSide = 1 / radius
        side = perSide >= Double(1 << 30) ? 1 << 30 : max(1, Int(perSide))
        let side = self.side
        let sideD = Double(side)
        @inline(__always) func key(_ i: Int) -> UInt64 {
            let cx = min(Int(x[i] * sideD), side - 1)
            let cy = min(Int(y[i] * sideD), side - 1)
            return UInt64(cy) * UInt64(side) + UInt64(cx)
        }
        var cellOf = [Int32](repeating: 0, count: n)
        var counts: [Int32]
        if side * side <= max(4 * n, 1 << 12) {
            hashKeys = []
            hashCells = []
            hashShift = 0
            counts = [Int32](repeating: 0, count: side * side + 1)
            for i in 0..<n {
                let k = Int(key(i))
                cellOf[i] = Int32(k)
                counts[k] += 1
            }
        } else {
            var bits: UInt64 = 4
            while (1 << bits) < 2 * n { bits += 1 }
            hashShift = 64 - bits
            hashKeys = [UInt64](repeating: Self.emptyKey, count: 1 << bits)
            hashCells = [Int32](repeating: -1, count: 1 << bits)
            counts = []
            counts.reserveCapacity(n + 1)
            let mask = (1 << Int(bits)) - 1
            for i in 0..<n {
                let k = key(i)
                var h = Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> hashShift)
                while true {
                    let stored = hashKeys[h]
                    if stored == k {
                        let c = hashCells[h]
                        cellOf[i] = c
                        counts[Int(c)] += 1
                        break
                    }
                    if stored == Self.emptyKey {
                        hashKeys[h] = k
                        let c = Int32(counts.count)
                        hashCells[h] = c
                        cellOf[i] = c
                        counts.append(1)
                        break
                    }
                    h = (h + 1) & mask
                }
            }
            counts.append(0)
        }
        // Exclusive prefix sums, then a stable scatter (slots ascend within each cell).
        var total: Int32 = 0
        for c in counts.indices {
            let k = counts[c]
            counts[c] = total
            total += k
        }
        slots = [Int32](repeating: 0, count: n)
        var fill = counts
        for i in 0..<n {
            let c = Int(cellOf[i])
            slots[Int(fill[c])] = Int32(i)
            fill[c] += 1
        }
        cellStart = counts
    }

    /// The group number of cell (cx, cy), or nil when it is empty.
    @inline(__always)
    private func cell(_ cx: Int, _ cy: Int) -> Int? {
        let k = UInt64(cy) * UInt64(side) + UInt64(cx)
        if hashKeys.isEmpty { return Int(k) }
        let mask = hashKeys.count - 1
        var h = Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> hashShift)
        while true {
            let stored = hashKeys[h]
            if stored == k { return Int(hashCells[h]) }
            if stored == Self.emptyKey { return nil }
            h = (h + 1) & mask
        }
    }

    /// Calls `body` with every slot in the 3×3 cells around (x, y) (each slot once, in no particular order).
    @inline(__always)
    func forEachCandidate(x: Double, y: Double, _ body: (Int) -> Void) {
        let sideD = Double(side)
        let cx = min(Int(x * sideD), side - 1)
        let cy = min(Int(y * sideD), side - 1)
        let y0 = max(0, cy - 1), y1 = min(side - 1, cy + 1)
        // Distinct columns around cx, wrapping; fewer than three when the grid is narrower.
        var columns = (cx, cx, cx)
        var columnCount = 1
        if side == 2 {
            columns.1 = 1 - cx
            columnCount = 2
        } else if side >= 3 {
            columns.1 = cx == 0 ? side - 1 : cx - 1
            columns.2 = cx == side - 1 ? 0 : cx + 1
            columnCount = 3
        }
        for row in y0...y1 {
            for n in 0..<columnCount {
                let column = n == 0 ? columns.0 : (n == 1 ? columns.1 : columns.2)
                guard let c = cell(column, row) else { continue }
                var s = Int(cellStart[c])
                let end = Int(cellStart[c + 1])
                while s < end {
                    body(Int(slots[s]))
                    s += 1
                }
            }
        }
    }
}
