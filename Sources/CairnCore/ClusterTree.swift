/// A packed R-tree over the entries of a `ClusterHierarchy` whose nodes also bound the zooms at which their entries
/// show, so a query at one zoom skips subtrees of other zooms.
///
/// Entries are laid out in runs of equal (creation zoom, lowest zoom shown), runs ordered by creation zoom then
/// lowest zoom, each run in Morton order and padded to whole leaves. Every leaf therefore holds entries that show at
/// exactly the same zooms, so a query reads no entry of another zoom and needs no per-entry zoom test. The canonical
/// order the edits work with (grouped by creation zoom, Morton order within a group, ties by entry) is kept
/// implicitly and rebuilt by `items`.
struct ClusterTree: Sendable {
    static let nodeSize = 16
    /// A slot that pads a run to a whole leaf.
    static let padding = UInt32.max
    /// Zooms (creation and lowest shown) are below this bound: `ClusterOptions.zoomLimit` + 2 at most.
    private static let zoomBound = 32

    /// A run of entries created at one zoom and first shown at one zoom.
    struct Run: Sendable {
        var creationZoom: UInt8
        var lowZoom: UInt8
        /// Its first slot (a multiple of `nodeSize`).
        var start: Int
        /// Its entries (the padding after them not counted).
        var count: Int
        /// Its nodes level by level: its leaves first, its root (a single node) last.
        var levels: [Range<Int>] = []
    }

    /// Entries in tree order, `padding` after the last entry of a run that does not fill its leaf.
    private(set) var slots: [UInt32] = []
    /// Each slot's position quantized within its leaf's box (65,536 cells per axis): x in the low 16 bits, y in
    /// the high 16 bits. A query decides most entries from the cells alone, reading memory in order.
    private var cells: [UInt32] = []
    /// The latitude of the entry in each slot before `latitudes.count`, the slots of the runs of clusters formed
    /// at `maxZoom` or below, as `WebMercator.coordinate` gives it: a query reads it in order instead of inverting
    /// the projection per cluster.
    private(set) var latitudes: [Double] = []
    /// The runs in slot order.
    private(set) var runs: [Run] = []
    /// The lowest zoom shown by each entry in canonical order: how the runs of one creation zoom interleave in it.
    private var canonicalLow: [UInt8] = []
    /// Node boxes, four numbers each (min x, min y, max x, max y), rounded outwards to `Float`: every leaf (leaf i
    /// holds slots 16i..<16i+16),
    /// then the upper levels of each run.
    private var boxes: [Float] = []

    init() {}

    var memoryBytes: Int {
        slots.capacity * 4 + cells.capacity * 4 + latitudes.capacity * 8 + canonicalLow.capacity + boxes.capacity * 4
            + runs.reduce(runs.capacity * MemoryLayout<Run>.stride) { $0 + $1.levels.capacity * MemoryLayout<Range<Int>>.stride }
    }

    /// Builds the tree over every entry that shows at some zoom.
    /// - Complexity: O(e) for e entries (a radix sort on 32-bit Morton keys).
    init(hierarchy h: ClusterHierarchy) {
        let total = h.entryCount
        var keys: [UInt32] = []
        var order: [UInt32] = []
        keys.reserveCapacity(total)
        order.reserveCapacity(total)
        for e in 0..<total where h.lowZoom[e] <= h.topZoom[e] {
            keys.append(Self.key(x: h.x(e), y: h.y(e)))
            order.append(UInt32(e))
        }
        // Canonical order: Morton order within groups of equal creation zoom (a stable pass over the sorted entries).
        let spatial = Self.radixSort(keys: keys, values: order)
        var groupStart = [Int](repeating: 0, count: 258)
        for e in spatial { groupStart[Int(h.topZoom[Int(e)]) + 1] += 1 }
        for i in 1..<groupStart.count { groupStart[i] += groupStart[i - 1] }
        var canonical = spatial
        for e in spatial {
            let g = Int(h.topZoom[Int(e)])
            canonical[groupStart[g]] = e
            groupStart[g] += 1
        }
        layOut(canonical: canonical, hierarchy: h)
    }

    /// Builds the tree over `orderedItems`, entries already in canonical order (grouped by creation zoom, Morton
    /// order within a group, ties by entry).
    /// - Complexity: O(e) for e items.
    init(hierarchy h: ClusterHierarchy, orderedItems: [UInt32]) {
        layOut(canonical: orderedItems, hierarchy: h)
    }

    /// The entries in canonical order: grouped by creation zoom, Morton order within a group, ties by entry.
    /// - Complexity: O(e) for e entries.
    var items: [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(canonicalLow.count)
        // Within one creation zoom, canonical position p holds the next entry of the run of lowest zoom canonicalLow[p].
        var cursor = [Int](repeating: 0, count: Self.zoomBound)
        var p = 0
        var r = 0
        while r < runs.count {
            let zoom = runs[r].creationZoom
            var blockCount = 0
            while r < runs.count, runs[r].creationZoom == zoom {
                cursor[Int(runs[r].lowZoom)] = runs[r].start
                blockCount += runs[r].count
                r += 1
            }
            for _ in 0..<blockCount {
                let low = Int(canonicalLow[p])
                result.append(slots[cursor[low]])
                cursor[low] += 1
                p += 1
            }
        }
        return result
    }

    /// Slots taken by a run of `count` entries: whole leaves.
    @inline(__always)
    static func padded(_ count: Int) -> Int { (count + nodeSize - 1) / nodeSize * nodeSize }

    /// The Morton key of a unit-square position, as the tree orders entries.
    @inline(__always)
    static func key(x: Double, y: Double) -> UInt32 {
        let qx = UInt32(min(65535, max(0, x * 65536)))
        let qy = UInt32(min(65535, max(0, y * 65536)))
        return interleave(qx) | interleave(qy) << 1
    }

    /// Splits the canonical order into padded runs (a stable counting sort on (creation zoom, lowest zoom)) and
    /// builds the nodes.
    private mutating func layOut(canonical: [UInt32], hierarchy h: ClusterHierarchy) {
        let bound = Self.zoomBound
        canonicalLow = canonical.map { h.lowZoom[Int($0)] }
        var counts = [Int](repeating: 0, count: bound * bound)
        for (p, e) in canonical.enumerated() { counts[Int(h.topZoom[Int(e)]) * bound + Int(canonicalLow[p])] += 1 }
        var next = [Int](repeating: 0, count: bound * bound)
        var total = 0
        for b in counts.indices where counts[b] > 0 {
            runs.append(Run(creationZoom: UInt8(b / bound), lowZoom: UInt8(b % bound), start: total, count: counts[b]))
            next[b] = total
            total += Self.padded(counts[b])
        }
        slots = [UInt32](repeating: Self.padding, count: total)
        for (p, e) in canonical.enumerated() {
            let b = Int(h.topZoom[Int(e)]) * bound + Int(canonicalLow[p])
            slots[next[b]] = e
            next[b] += 1
        }
        buildNodes(hierarchy: h)
    }

    /// Leaf boxes over `slots`, then each run's own levels up to its root, and the cached positions of the runs
    /// of clusters.
    private mutating func buildNodes(hierarchy h: ClusterHierarchy) {
        let leafCount = slots.count / Self.nodeSize
        boxes = []
        boxes.reserveCapacity(4 * (leafCount + leafCount / (Self.nodeSize - 1) + 2 * runs.count))
        for start in stride(from: 0, to: slots.count, by: Self.nodeSize) {
            var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            for i in start..<start + Self.nodeSize {
                if slots[i] == Self.padding { break }
                let e = Int(slots[i])
                let x = h.x(e), y = h.y(e)
                b = (min(b.0, x), min(b.1, y), max(b.2, x), max(b.3, y))
            }
            appendBox(b)
        }
        cells = [UInt32](repeating: 0, count: slots.count)
        for leaf in 0..<leafCount {
            let (x0, y0, x1, y1) = box(leaf)
            let sx = Self.cellScale(x0, x1), sy = Self.cellScale(y0, y1)
            for i in leaf * Self.nodeSize..<(leaf + 1) * Self.nodeSize {
                if slots[i] == Self.padding { break }
                let e = Int(slots[i])
                cells[i] = Self.cell(h.x(e) - x0, scale: sx) | Self.cell(h.y(e) - y0, scale: sy) << 16
            }
        }
        // Runs of clusters come first (their creation zoom is below the points'); identical points grouped at the
        // points' zoom are rare and left out.
        let pointZoom = h.leafCount > 0 ? h.topZoom[0] : UInt8.max
        let cachedEnd = runs.last(where: { $0.creationZoom < pointZoom }).map { $0.start + Self.padded($0.count) } ?? 0
        latitudes = [Double](repeating: 0, count: cachedEnd)
        for i in 0..<cachedEnd where slots[i] != Self.padding {
            let e = Int(slots[i])
            latitudes[i] = WebMercator.coordinate(x: h.x(e), y: h.y(e)).latitude
        }
        var node = leafCount
        for r in runs.indices {
            let firstLeaf = runs[r].start / Self.nodeSize
            var level = firstLeaf..<(firstLeaf + (runs[r].count + Self.nodeSize - 1) / Self.nodeSize)
            var levels = [level]
            while level.count > 1 {
                let begin = node
                for start in stride(from: level.lowerBound, to: level.upperBound, by: Self.nodeSize) {
                    var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                    for c in start..<min(start + Self.nodeSize, level.upperBound) {
                        let child = box(c)
                        b = (min(b.0, child.0), min(b.1, child.1), max(b.2, child.2), max(b.3, child.3))
                    }
                    appendBox(b)
                    node += 1
                }
                level = begin..<node
                levels.append(level)
            }
            runs[r].levels = levels
        }
    }

    /// The box of node `n` (min x, min y, max x, max y).
    @inline(__always)
    private func box(_ n: Int) -> (Double, Double, Double, Double) {
        (Double(boxes[4 * n]), Double(boxes[4 * n + 1]), Double(boxes[4 * n + 2]), Double(boxes[4 * n + 3]))
    }

    /// Appends a node box, rounded outwards so that it still holds everything below it.
    private mutating func appendBox(_ b: (Double, Double, Double, Double)) {
        @inline(__always) func down(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) > v ? f.nextDown : f
        }
        @inline(__always) func up(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) < v ? f.nextUp : f
        }
        boxes.append(down(b.0)); boxes.append(down(b.1)); boxes.append(up(b.2)); boxes.append(up(b.3))
    }

    /// Calls `body` with each run showing at `zoom` and the first slot of each of its leaves whose box meets the
    /// x ranges and [y0, y1]. Allocates one small stack.
    /// - Complexity: O(r log e + l) for r runs and l leaves visited.
    @inline(__always)
    func forEachLeaf(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, _ body: (Run, Int) -> Void) {
        guard zoom >= 0, zoom < Self.zoomBound else { return }
        let z = UInt8(zoom)
        @inline(__always) func passes(_ n: Int) -> Bool {
            let b = box(n)
            return b.1 <= y1 && b.3 >= y0 && ranges.overlaps(b.0, b.2)
        }
        // An explicit stack of (level, node); depth * nodeSize bounds it.
        var pending: [(level: Int, node: Int)] = []
        for run in runs where run.lowZoom <= z && run.creationZoom >= z {
            let levels = run.levels
            let top = levels.count - 1
            guard top >= 0, passes(levels[top].lowerBound) else { continue }
            pending.append((top, levels[top].lowerBound))
            while let (level, n) = pending.popLast() {
                if level == 0 {
                    body(run, n * Self.nodeSize)
                    continue
                }
                // Children are contiguous: test them here, push only those that pass.
                let children = levels[level - 1]
                let first = children.lowerBound + (n - levels[level].lowerBound) * Self.nodeSize
                for c in stride(from: min(first + Self.nodeSize, children.upperBound) - 1, through: first, by: -1) where passes(c) {
                    pending.append((level - 1, c))
                }
            }
        }
    }

    /// Calls `body` with the slot and entry of every entry showing at `zoom` whose position is in one of the x
    /// ranges and in [y0, y1]. Positions are read from the slots' cells; only an entry whose cell straddles the
    /// query's edge reads its exact position from the hierarchy.
    /// - Complexity: O(r log e + k) for r runs and k entries found.
    @inline(__always)
    func forEachEntry(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, hierarchy h: ClusterHierarchy,
                      _ body: (_ slot: Int, _ entry: Int) -> Void) {
        forEachLeaf(x: ranges, y0: y0, y1: y1, zoom: zoom) { _, first in
            let leaf = first / Self.nodeSize
            let b = box(leaf)
            let lo = (b.0, b.1), hi = (b.2, b.3)
            let tx: CellTest
            if (lo.0 >= ranges.a0 && hi.0 <= ranges.a1) || (lo.0 >= ranges.b0 && hi.0 <= ranges.b1) {
                tx = .all
            } else {
                let overlapsA = hi.0 >= ranges.a0 && lo.0 <= ranges.a1, overlapsB = hi.0 >= ranges.b0 && lo.0 <= ranges.b1
                tx = overlapsA && overlapsB ? .exact
                    : (overlapsA ? CellTest(lo.0, hi.0, ranges.a0, ranges.a1) : CellTest(lo.0, hi.0, ranges.b0, ranges.b1))
            }
            let ty = lo.1 >= y0 && hi.1 <= y1 ? CellTest.all : CellTest(lo.1, hi.1, y0, y1)
            // A leaf's entries all show at the zooms of its run: no per-entry zoom test.
            for i in first..<first + Self.nodeSize {
                let slot = slots[i]
                if slot == Self.padding { break }
                let cell = cells[i]
                let qx = Int32(cell & 0xFFFF), qy = Int32(cell >> 16)
                if tx.excludes(qx) || ty.excludes(qy) { continue }
                let e = Int(slot)
                if !tx.includes(qx) || !ty.includes(qy) {
                    let py = h.y(e)
                    if py < y0 || py > y1 || !ranges.contains(h.x(e)) { continue }
                }
                body(i, e)
            }
        }
    }

    /// Calls `body` with every entry showing at `zoom` whose position is in one of the x ranges and in [y0, y1].
    /// - Complexity: O(r log e + k) for r runs and k entries found.
    func search(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, hierarchy h: ClusterHierarchy, _ body: (Int) -> Void) {
        forEachEntry(x: ranges, y0: y0, y1: y1, zoom: zoom, hierarchy: h) { _, e in body(e) }
    }

    /// The 16-bit cell of offset `d` from a leaf box's low edge, `scale` cells per unit.
    @inline(__always)
    private static func cell(_ d: Double, scale: Double) -> UInt32 {
        UInt32(min(65535, max(0, d * scale)))
    }

    /// Cells per unit across a leaf box from `lo` to `hi` (0 when the box is flat on that axis).
    @inline(__always)
    static func cellScale(_ lo: Double, _ hi: Double) -> Double {
        let s = 65536 / (hi - lo)
        return hi > lo && s.isFinite ? s : 0
    }

    private static func interleave(_ v: UInt32) -> UInt32 {
        var x = v & 0xFFFF
        x = (x | (x << 8)) & 0x00FF_00FF
        x = (x | (x << 4)) & 0x0F0F_0F0F
        x = (x | (x << 2)) & 0x3333_3333
        x = (x | (x << 1)) & 0x5555_5555
        return x
    }

    /// Values ordered by key (stable), by four 8-bit passes.
    private static func radixSort(keys: [UInt32], values: [UInt32]) -> [UInt32] {
        var k = keys, v = values
        var k2 = keys, v2 = values
        for pass in 0..<4 {
            let shift = UInt32(pass * 8)
            var counts = [Int](repeating: 0, count: 257)
            for key in k { counts[Int((key >> shift) & 0xFF) + 1] += 1 }
            for i in 1..<257 { counts[i] += counts[i - 1] }
            for i in k.indices {
                let b = Int((k[i] >> shift) & 0xFF)
                k2[counts[b]] = k[i]
                v2[counts[b]] = v[i]
                counts[b] += 1
            }
            swap(&k, &k2)
            swap(&v, &v2)
        }
        return v
    }
}

/// At most two closed ranges of unit-square x (two when a box crosses the antimeridian).
struct UnitXRanges {
    var a0: Double, a1: Double
    var b0: Double, b1: Double

    /// The x ranges of a longitude box; x = 0 stands for both -180 and 180.
    init(_ box: BoundingBox) {
        if box.west == -180, box.east == 180 {
            (a0, a1, b0, b1) = (0, 1, 1, 0)
            return
        }
        let w = WebMercator.x(longitude: box.west), e = WebMercator.x(longitude: box.east)
        if box.crossesAntimeridian {
            (a0, a1, b0, b1) = (w, 1, 0, e)
        } else if e >= 1 {
            // East edge on 180: x = 0 is the same meridian.
            (a0, a1, b0, b1) = (w, 1, 0, 0)
        } else {
            (a0, a1, b0, b1) = (w, e, 1, 0)
        }
    }

    init(_ a0: Double, _ a1: Double, _ b0: Double = 1, _ b1: Double = 0) {
        (self.a0, self.a1, self.b0, self.b1) = (a0, a1, b0, b1)
    }

    @inline(__always)
    func contains(_ x: Double) -> Bool { (x >= a0 && x <= a1) || (x >= b0 && x <= b1) }

    @inline(__always)
    func overlaps(_ lo: Double, _ hi: Double) -> Bool { (hi >= a0 && lo <= a1) || (hi >= b0 && lo <= b1) }
}

/// Which cells of one axis of a leaf lie surely inside a query's closed range, surely outside it, or neither (the
/// entry's exact position decides). Thresholds keep a cell of margin on each side, far above rounding error.
struct CellTest {
    private var inLo: Int32, inHi: Int32, outLo: Int32, outHi: Int32

    /// Every cell inside.
    static let all = CellTest(inLo: 0, inHi: 65535, outLo: -1, outHi: 65536)
    /// No cell decided: read every exact position.
    static let exact = CellTest(inLo: 1, inHi: 0, outLo: -1, outHi: 65536)

    private init(inLo: Int32, inHi: Int32, outLo: Int32, outHi: Int32) {
        (self.inLo, self.inHi, self.outLo, self.outHi) = (inLo, inHi, outLo, outHi)
    }

    /// The test for range [a0, a1] on a leaf spanning [lo, hi] on this axis.
    init(_ lo: Double, _ hi: Double, _ a0: Double, _ a1: Double) {
        let scale = ClusterTree.cellScale(lo, hi)
        guard scale > 0 else {
            self = .exact
            return
        }
        @inline(__always) func clamp(_ v: Double) -> Int32 { Int32(min(65538, max(-2, v))) }
        let t0 = (a0 - lo) * scale, t1 = (a1 - lo) * scale
        self.init(inLo: clamp(t0.rounded(.up) + 1), inHi: clamp(t1.rounded(.down) - 2),
                  outLo: clamp(t0.rounded(.down) - 2), outHi: clamp(t1.rounded(.up) + 1))
    }

    @inline(__always)
    func includes(_ q: Int32) -> Bool { q >= inLo && q <= inHi }

    @inline(__always)
    func excludes(_ q: Int32) -> Bool { q <= outLo || q >= outHi }
}
