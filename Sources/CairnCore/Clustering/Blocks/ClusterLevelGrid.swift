/// The entries one level of a hierarchy shows, bucketed by the cells of a fixed grid over the unit square (row by
/// row, west to east), so that a viewport at a low zoom reads the cells it covers whole instead of searching the
/// tree, and a writer can keep each cell's bytes as one block.
///
/// Within a cell, entries keep the order of the tree's whole-world search at that level (the order a box search
/// gives them too: a search only prunes that walk). Positions are the hierarchy's (`ClusterHierarchy.x`, `.y`), the
/// ones the tree's exact test reads, so a cell's membership and the box tests give the tree's set exactly.
final class ClusterLevelGrid: Sendable {
    /// Cells per side: 2^(level+1), 128-pixel cells of 256-pixel tiles (a zoom-5 viewport of 1024×768 pixels
    /// covers about 35 whole cells of about 8 entries each, and 28 edge cells it filters).
    let side: Int
    /// Per cell (row-major), where its entries start in `slots`; one more at the end.
    private let cellStart: [UInt32]
    /// The tree slot of each entry, cell by cell.
    let slots: [UInt32]
    /// The entry number of each, in the same order.
    let entries: [UInt32]
    /// Unit-square positions, for the cells a box only partly covers.
    private let xs: [Double], ys: [Double]
    /// False when some entry lies outside the unit square (no cell holds it exactly): queries use the tree.
    let isUsable: Bool

    /// Buckets the entries of `level` (`tree.forEachEntry` over the whole world) into cells.
    /// - Complexity: O(k + c) for k entries at the level and c cells.
    init(hierarchy h: ClusterHierarchy, level: Int) {
        let side = 1 << (level + 1)
        self.side = side
        var foundSlots: [UInt32] = [], foundEntries: [UInt32] = [], foundCells: [Int32] = []
        var usable = true
        let world = UnitXRanges(BoundingBox.world)
        let y0 = WebMercator.y(latitude: BoundingBox.world.north), y1 = WebMercator.y(latitude: BoundingBox.world.south)
        let scale = Double(side)
        h.tree.forEachEntry(x: world, y0: y0, y1: y1, zoom: level, hierarchy: h) { s, e in
            let x = h.x(e), y = h.y(e)
            guard x >= 0, x <= 1, y >= 0, y <= 1 else { usable = false; return }
            let cx = min(side - 1, Int(x * scale)), cy = min(side - 1, Int(y * scale))
            foundSlots.append(UInt32(truncatingIfNeeded: s))
            foundEntries.append(UInt32(truncatingIfNeeded: e))
            foundCells.append(Int32(cy * side + cx))
        }
        isUsable = usable
        // A stable counting sort by cell keeps the search's order within each cell.
        var start = [UInt32](repeating: 0, count: side * side + 1)
        for c in foundCells { start[Int(c) + 1] += 1 }
        for c in 0..<(side * side) { start[c + 1] += start[c] }
        var next = start
        let n = foundSlots.count
        var sortedSlots = [UInt32](repeating: 0, count: n), sortedEntries = [UInt32](repeating: 0, count: n)
        var sortedX = [Double](repeating: 0, count: n), sortedY = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let c = Int(foundCells[i])
            let at = Int(next[c])
            next[c] += 1
            sortedSlots[at] = foundSlots[i]
            sortedEntries[at] = foundEntries[i]
            let e = Int(foundEntries[i])
            sortedX[at] = h.x(e)
            sortedY[at] = h.y(e)
        }
        cellStart = start
        slots = sortedSlots
        entries = sortedEntries
        xs = sortedX
        ys = sortedY
    }

    /// Cells in the grid.
    var cellCount: Int { side * side }

    /// Bytes held by the grid's arrays.
    var memoryBytes: Int { cellStart.count * 4 + slots.count * 8 + xs.count * 16 }

    /// Whether `walk` can answer for these x ranges: not when both ranges meet (an entry could be in both, which
    /// the tree reports once); the tree answers those.
    func canWalk(_ ranges: UnitXRanges) -> Bool {
        isUsable && !(ranges.b0 <= ranges.b1 && ranges.a0 <= ranges.a1 && ranges.b0 <= ranges.a1 && ranges.a0 <= ranges.b1)
    }

    /// Calls `whole` with each non-empty cell lying wholly inside the x ranges and [y0, y1] (its number and its
    /// positions in `slots`), and `single` with the position of each entry inside them in the cells the box cuts:
    /// row by row from the north, in a row the cells of the first x range then of the second, each west to east.
    /// - Complexity: O(c + k) for c cells met and k entries in the cut cells.
    @inline(__always)
    func walk(x ranges: UnitXRanges, y0: Double, y1: Double, whole: (_ cell: Int, _ positions: Range<Int>) -> Void,
              single: (_ position: Int) -> Void) {
        guard y0 <= y1, y1 >= 0, y0 <= 1 else { return }
        let scale = Double(side)
        @inline(__always) func cell(_ v: Double) -> Int { min(side - 1, Int(max(0, v) * scale)) }
        let cy0 = cell(y0), cy1 = cell(min(y1, 1))
        for cy in cy0...cy1 {
            let rowInside = Double(cy) / scale >= y0 && Double(cy + 1) / scale <= y1
            // The cells of one x range of this row, west to east.
            @inline(__always) func cells(_ lo: Double, _ hi: Double) {
                guard lo <= hi, hi >= 0, lo <= 1 else { return }
                for cx in cell(lo)...cell(min(hi, 1)) {
                    let c = cy * side + cx
                    let first = Int(cellStart[c]), end = Int(cellStart[c + 1])
                    if first == end { continue }
                    if rowInside, Double(cx) / scale >= lo, Double(cx + 1) / scale <= hi {
                        whole(c, first..<end)
                        continue
                    }
                    for i in first..<end where ys[i] >= y0 && ys[i] <= y1 && xs[i] >= lo && xs[i] <= hi {
                        single(i)
                    }
                }
            }
            cells(ranges.a0, ranges.a1)
            cells(ranges.b0, ranges.b1)
        }
    }
}
