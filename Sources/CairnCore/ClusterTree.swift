/// A packed R-tree over the entries of a `ClusterHierarchy` (grouped by the zoom at which they were created, in
/// Morton order within a group, 16 per node) whose nodes also bound the zooms at which their entries show, so a
/// query at one zoom skips subtrees of other zooms.
struct ClusterTree: Sendable {
    static let nodeSize = 16

    /// Entries in tree order.
    private(set) var items: [UInt32] = []
    /// The zooms each item shows at, in tree order (so most items of other zooms are skipped without reading
    /// the entry table).
    private var itemLow: [UInt8] = []
    private var itemTop: [UInt8] = []
    /// Node boxes, four numbers each (min x, min y, max x, max y), level by level from the leaves up.
    private var boxes: [Double] = []
    /// Lowest zoom shown by any entry below each node.
    private var zoomLow: [UInt8] = []
    /// Highest zoom shown by any entry below each node.
    private var zoomTop: [UInt8] = []
    /// Where each level's nodes start; the last level holds the root.
    private var levelStart: [Int] = []

    init() {}

    var memoryBytes: Int {
        items.capacity * 4 + itemLow.capacity + itemTop.capacity + boxes.capacity * 8 + zoomLow.capacity + zoomTop.capacity
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
        // Morton order within groups of equal creation zoom: a query at zoom z skips the groups created below z,
        // and the points (created at maxZoom + 1) form one group, so deep zooms read one spatial tree.
        let spatial = Self.radixSort(keys: keys, values: order)
        var groupStart = [Int](repeating: 0, count: 258)
        for e in spatial { groupStart[Int(h.topZoom[Int(e)]) + 1] += 1 }
        for i in 1..<groupStart.count { groupStart[i] += groupStart[i - 1] }
        items = spatial
        for e in spatial {
            let g = Int(h.topZoom[Int(e)])
            items[groupStart[g]] = e
            groupStart[g] += 1
        }
        buildNodes(hierarchy: h)
    }

    /// Builds the tree over `items`, entries already in tree order (grouped by creation zoom, Morton order within
    /// a group, ties by entry).
    /// - Complexity: O(e) for e items.
    init(hierarchy h: ClusterHierarchy, orderedItems: [UInt32]) {
        items = orderedItems
        buildNodes(hierarchy: h)
    }

    /// The Morton key of a unit-square position, as the tree orders entries.
    @inline(__always)
    static func key(x: Double, y: Double) -> UInt32 {
        let qx = UInt32(min(65535, max(0, x * 65536)))
        let qy = UInt32(min(65535, max(0, y * 65536)))
        return interleave(qx) | interleave(qy) << 1
    }

    /// Zoom bounds and boxes of the nodes over `items`.
    private mutating func buildNodes(hierarchy h: ClusterHierarchy) {
        itemLow = items.map { h.lowZoom[Int($0)] }
        itemTop = items.map { h.topZoom[Int($0)] }
        // Leaf-level nodes over items, then levels up to a single root.
        var count = items.count
        levelStart = [0]
        var node = 0
        for start in stride(from: 0, to: count, by: Self.nodeSize) {
            var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
            var lo = UInt8.max, top = UInt8(0)
            for i in start..<min(start + Self.nodeSize, count) {
                let e = Int(items[i])
                b = (min(b.0, h.x(e)), min(b.1, h.y(e)), max(b.2, h.x(e)), max(b.3, h.y(e)))
                lo = min(lo, h.lowZoom[e])
                top = max(top, h.topZoom[e])
            }
            boxes.append(b.0); boxes.append(b.1); boxes.append(b.2); boxes.append(b.3)
            zoomLow.append(lo)
            zoomTop.append(top)
            node += 1
        }
        count = node
        var levelBegin = 0
        while count > 1 {
            levelStart.append(node)
            for start in stride(from: levelBegin, to: levelBegin + count, by: Self.nodeSize) {
                var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                var lo = UInt8.max, top = UInt8(0)
                for c in start..<min(start + Self.nodeSize, levelBegin + count) {
                    b = (min(b.0, boxes[4 * c]), min(b.1, boxes[4 * c + 1]), max(b.2, boxes[4 * c + 2]), max(b.3, boxes[4 * c + 3]))
                    lo = min(lo, zoomLow[c])
                    top = max(top, zoomTop[c])
                }
                boxes.append(b.0); boxes.append(b.1); boxes.append(b.2); boxes.append(b.3)
                zoomLow.append(lo)
                zoomTop.append(top)
                node += 1
            }
            levelBegin = levelStart[levelStart.count - 1]
            count = node - levelBegin
        }
    }

    /// Calls `body` with every entry showing at `zoom` whose position is in one of the x ranges and in [y0, y1].
    /// Allocates one small stack.
    /// - Complexity: O(log e + k) for k entries found, when entries of other zooms are spatially sparse.
    func search(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, hierarchy h: ClusterHierarchy, _ body: (Int) -> Void) {
        guard !items.isEmpty else { return }
        let z = UInt8(zoom)
        // An explicit stack of (level, node); depth * nodeSize bounds it.
        var pending = [(level: Int, node: Int)]()
        pending.reserveCapacity(levelStart.count * Self.nodeSize)
        let top = levelStart.count - 1
        @inline(__always) func passes(_ n: Int) -> Bool {
            zoomLow[n] <= z && zoomTop[n] >= z && boxes[4 * n + 1] <= y1 && boxes[4 * n + 3] >= y0
                && ranges.overlaps(boxes[4 * n], boxes[4 * n + 2])
        }
        if passes(levelStart[top]) { pending.append((top, levelStart[top])) }
        while let (level, n) = pending.popLast() {
            if level == 0 {
                let first = (n - levelStart[0]) * Self.nodeSize
                for i in first..<min(first + Self.nodeSize, items.count) {
                    if itemLow[i] > z || itemTop[i] < z { continue }
                    let e = Int(items[i])
                    let py = h.y(e)
                    if py < y0 || py > y1 || !ranges.contains(h.x(e)) { continue }
                    body(e)
                }
            } else {
                // Children are contiguous: test them here, push only those that pass.
                let childLevelStart = levelStart[level - 1]
                let childLevelEnd = levelStart[level]
                let first = childLevelStart + (n - levelStart[level]) * Self.nodeSize
                for c in stride(from: min(first + Self.nodeSize, childLevelEnd) - 1, through: first, by: -1) where passes(c) {
                    pending.append((level - 1, c))
                }
            }
        }
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
