/// Fixed-radius neighbour search over one transient level while building a `ClusterIndex`.
///
/// A uniform grid of `side × side` cells over the unit square, `side = floor(1 / radius)`, so every neighbour within
/// `radius` lies in the 3×3 block of cells around a point; columns wrap across the antimeridian (x = 0 meets x = 1).
/// Nothing is hashed: the level's entries are radix-sorted by cell (row-major), and one linear sweep records, per
/// entry, where the rows above and below start and whether the entry has any neighbour at all. Entries without one
/// (most of them at high zooms) then cost the greedy pass nothing, and the others scan short runs of the sorted
/// arrays, with good locality.
struct ClusterNeighbourGrid {
    /// Cells per side.
    let side: Int
    private let radiusSquared: Double
    /// Slots in cell order (row-major), ascending within a cell.
    private var order: [Int32]
    /// Cell keys (`row * side + column`) in cell order.
    private var keys: [UInt64]
    /// Positions, weights and entries in cell order (copies, so scans read memory in order).
    private(set) var sx: [Double]
    private(set) var sy: [Double]
    private(set) var sw: [UInt32]
    private(set) var sentry: [UInt32]
    /// Sorted position of each slot.
    private(set) var position: [Int32]
    /// Per sorted position: the first position whose key is at least (row - 1, first column of the block), and
    /// the same for row + 1.
    private var upStart: [Int32]
    private var downStart: [Int32]
    /// Per slot: whether some other entry lies within the radius.
    private(set) var hasNeighbour: [Bool]

    /// Cells per side for a radius: the largest power of two whose cells are at least `radius` wide, so the
    /// grids of successive zooms (radius doubling) nest: each cell is four cells of the zoom above.
    static func side(forRadius radius: Double) -> Int {
        var side = 1
        while side < 1 << 30, Double(side * 2) * radius <= 1 { side *= 2 }
        return side
    }

    /// Sorts the level's entries into cells from scratch.
    init(level: ClusterLevel, radius: Double) {
        let n = level.count
        let side = Self.side(forRadius: radius)
        let sideD = Double(side)
        var unsortedKeys = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            let cx = min(Int(level.x[i] * sideD), side - 1)
            let cy = min(Int(level.y[i] * sideD), side - 1)
            unsortedKeys[i] = UInt64(cy) * UInt64(side) + UInt64(cx)
        }
        let keys: [UInt64], order: [Int32]
        if side <= 2 * n {
            // Two counting passes cost O(n + side): worth it only when the rows are not much sparser than the entries.
            (keys, order) = Self.countingSort(unsortedKeys, side: side)
        } else {
            var bits = 0
            while bits < 64, (UInt64(side) * UInt64(side) - 1) >> UInt64(bits) != 0 { bits += 1 }
            (keys, order) = Self.radixSort(unsortedKeys, bits: bits)
        }
        self.init(side: side, radius: radius, keys: keys, order: order,
                  sx: order.map { level.x[Int($0)] }, sy: order.map { level.y[Int($0)] },
                  sw: order.map { level.weight[Int($0)] }, sentry: order.map { level.entry[Int($0)] })
    }

    /// The grid of the next zoom down, derived from this zoom's without sorting again: each pair of rows merges
    /// into one row of cells twice as large, entries gone are dropped, and the few new ones (sorted) are merged in.
    /// `slotMap` gives each slot of the previous level its slot in `level`, or -1 when it was absorbed; slots of
    /// `level` that no previous slot maps to are new.
    static func derived(from previous: ClusterNeighbourGrid, level: ClusterLevel, radius: Double, slotMap: [Int32]) -> ClusterNeighbourGrid {
        let side = Self.side(forRadius: radius)
        guard previous.side == 2 * side else { return ClusterNeighbourGrid(level: level, radius: radius) }
        let n = level.count
        let oldSide = UInt64(previous.side)
        let side64 = UInt64(side)
        var keys = [UInt64](repeating: 0, count: n), order = [Int32](repeating: 0, count: n)
        var sx = [Double](repeating: 0, count: n), sy = [Double](repeating: 0, count: n)
        var sw = [UInt32](repeating: 0, count: n), sentry = [UInt32](repeating: 0, count: n)
        // New entries, sorted by cell.
        var carried = [Bool](repeating: false, count: n)
        for t in slotMap where t >= 0 { carried[Int(t)] = true }
        let sideD = Double(side)
        var fresh: [(key: UInt64, slot: Int32)] = []
        for t in 0..<n where !carried[t] {
            let cx = min(Int(level.x[t] * sideD), side - 1)
            let cy = min(Int(level.y[t] * sideD), side - 1)
            fresh.append((UInt64(cy) * side64 + UInt64(cx), Int32(t)))
        }
        fresh.sort { ($0.key, $0.slot) < ($1.key, $1.slot) }
        fresh.append((.max, -1)) // sentinel
        var f = 0, w = 0
        // Merge the previous level's rows pairwise (2R and 2R + 1 make row R), by coarse key.
        let old = previous.keys
        let shift = UInt64(previous.side.trailingZeroBitCount)
        let mask = oldSide - 1
        let m = old.count
        var a = 0
        while a < m {
            let fineRow = old[a] >> shift
            var aEnd = a
            while aEnd < m, old[aEnd] >> shift == fineRow { aEnd += 1 }
            var b = aEnd, bEnd = aEnd
            if fineRow & 1 == 0 {
                while bEnd < m, old[bEnd] >> shift == fineRow + 1 { bEnd += 1 }
            }
            let rowBase = (fineRow >> 1) * side64
            while a < aEnd || b < bEnd {
                let keyA = a < aEnd ? rowBase + ((old[a] & mask) >> 1) : .max
                let keyB = b < bEnd ? rowBase + ((old[b] & mask) >> 1) : .max
                let p: Int, key: UInt64
                if keyA <= keyB { p = a; key = keyA; a += 1 } else { p = b; key = keyB; b += 1 }
                let t = slotMap[Int(previous.order[p])]
                if t < 0 { continue }
                while fresh[f].key <= key {
                    let s = Int(fresh[f].slot)
                    keys[w] = fresh[f].key; order[w] = fresh[f].slot
                    sx[w] = level.x[s]; sy[w] = level.y[s]; sw[w] = level.weight[s]; sentry[w] = level.entry[s]
                    w += 1; f += 1
                }
                keys[w] = key; order[w] = t
                sx[w] = previous.sx[p]; sy[w] = previous.sy[p]; sw[w] = previous.sw[p]; sentry[w] = previous.sentry[p]
                w += 1
            }
            a = bEnd
        }
        while f < fresh.count - 1 {
            let s = Int(fresh[f].slot)
            keys[w] = fresh[f].key; order[w] = fresh[f].slot
            sx[w] = level.x[s]; sy[w] = level.y[s]; sw[w] = level.weight[s]; sentry[w] = level.entry[s]
            w += 1; f += 1
        }
        return ClusterNeighbourGrid(side: side, radius: radius, keys: keys, order: order, sx: sx, sy: sy, sw: sw, sentry: sentry)
    }

    private init(side: Int, radius: Double, keys: [UInt64], order: [Int32], sx: [Double], sy: [Double], sw: [UInt32], sentry: [UInt32]) {
        let n = keys.count
        self.side = side
        radiusSquared = radius * radius
        self.keys = keys
        self.order = order
        self.sx = sx
        self.sy = sy
        self.sw = sw
        self.sentry = sentry
        position = [Int32](repeating: 0, count: n)
        for p in 0..<n { position[Int(order[p])] = Int32(p) }
        upStart = [Int32](repeating: 0, count: n)
        downStart = [Int32](repeating: 0, count: n)
        hasNeighbour = [Bool](repeating: false, count: n)
        // Monotone pointers to the block's first cell in the rows above and below.
        var up = 0, down = 0
        for p in 0..<n {
            let (row, column) = (Int(keys[p] / UInt64(side)), Int(keys[p] % UInt64(side)))
            let first = side <= 3 ? 0 : max(column - 1, 0)
            if row > 0 {
                let target = UInt64(row - 1) * UInt64(side) + UInt64(first)
                while up < n, keys[up] < target { up += 1 }
            }
            let target = UInt64(row + 1) * UInt64(side) + UInt64(first)
            while down < n, keys[down] < target { down += 1 }
            upStart[p] = Int32(row > 0 ? up : n)
            downStart[p] = Int32(row + 1 < side ? down : n)
        }
        var found = [Bool](repeating: false, count: n)
        for p in 0..<n {
            found[p] = anyCandidate(at: p) { q in
                q != p && Self.distanceSquared(sx[p], sy[p], sx[q], sy[q]) <= radiusSquared
            }
        }
        for p in 0..<n { hasNeighbour[Int(order[p])] = found[p] }
    }

    @inline(__always)
    static func distanceSquared(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        var dx = abs(x1 - x2)
        if dx > 0.5 { dx = 1 - dx }
        let dy = y1 - y2
        return dx * dx + dy * dy
    }

    /// Calls `body` with the slot and sorted position of every entry within the radius of `slot`
    /// (itself excluded), in no particular order.
    @inline(__always)
    func forEachNeighbour(of slot: Int, _ body: (_ slot: Int, _ position: Int) -> Void) {
        let p = Int(position[slot])
        let px = sx[p], py = sy[p], r2 = radiusSquared
        _ = anyCandidate(at: p) { q in
            if q != p, Self.distanceSquared(px, py, sx[q], sy[q]) <= r2 { body(Int(order[q]), q) }
            return false
        }
    }

    /// Visits the sorted positions of every entry in the 3×3 block around position `p` until `visit` returns true.
    @inline(__always)
    private func anyCandidate(at p: Int, _ visit: (Int) -> Bool) -> Bool {
        let n = keys.count
        let side64 = UInt64(side)
        let row = keys[p] / side64, column = Int(keys[p] % side64)
        let (first, last) = side <= 3 ? (0, side - 1) : (max(column - 1, 0), min(column + 1, side - 1))
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
        if row > 0 {
            let high = (row - 1) * side64 + UInt64(last)
            q = Int(upStart[p])
            while q < n, keys[q] <= high {
                if visit(q) { return true }
                q += 1
            }
        }
        if row + 1 < side64 {
            let high = (row + 1) * side64 + UInt64(last)
            q = Int(downStart[p])
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

    private func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Keys sorted with their slots (stable), by two counting passes: columns, then rows.
    private static func countingSort(_ keys: [UInt64], side: Int) -> ([UInt64], [Int32]) {
        let n = keys.count
        let side64 = UInt64(side)
        var byColumn = [Int32](repeating: 0, count: n)
        var counts = [Int32](repeating: 0, count: side + 1)
        for key in keys { counts[Int(key % side64) + 1] += 1 }
        for i in 1...side { counts[i] += counts[i - 1] }
        for i in 0..<n {
            let c = Int(keys[i] % side64)
            byColumn[Int(counts[c])] = Int32(i)
            counts[c] += 1
        }
        for i in 0...side { counts[i] = 0 }
        for key in keys { counts[Int(key / side64) + 1] += 1 }
        for i in 1...side { counts[i] += counts[i - 1] }
        var order = [Int32](repeating: 0, count: n)
        var sorted = [UInt64](repeating: 0, count: n)
        for slot in byColumn {
            let key = keys[Int(slot)]
            let r = Int(key / side64)
            let to = Int(counts[r])
            order[to] = slot
            sorted[to] = key
            counts[r] += 1
        }
        return (sorted, order)
    }

    /// Keys sorted with their slots (stable, so slots ascend within a key), by 11-bit least-significant-digit passes.
    private static func radixSort(_ keys: [UInt64], bits: Int) -> ([UInt64], [Int32]) {
        let n = keys.count
        var k = keys, k2 = keys
        var v = (0..<Int32(n)).map { $0 }, v2 = v
        var shift: UInt64 = 0
        let digit = 11
        while shift < UInt64(bits) {
            var counts = [Int](repeating: 0, count: (1 << digit) + 1)
            let mask = UInt64((1 << digit) - 1)
            for key in k { counts[Int((key >> shift) & mask) + 1] += 1 }
            if counts[1...].contains(n) { shift += UInt64(digit); continue } // one bucket: already in order
            for i in 1..<counts.count { counts[i] += counts[i - 1] }
            for i in 0..<n {
                let b = Int((k[i] >> shift) & mask)
                let to = counts[b]
                k2[to] = k[i]
                v2[to] = v[i]
                counts[b] = to + 1
            }
            swap(&k, &k2)
            swap(&v, &v2)
            shift += UInt64(digit)
        }
        return (k, v)
    }
}
