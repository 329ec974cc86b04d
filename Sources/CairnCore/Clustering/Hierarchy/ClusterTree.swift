/// A packed R-tree over the entries of a `ClusterHierarchy` whose nodes also bound the zooms at which their entries
/// show, so a query at one zoom skips subtrees of other zooms.
///
/// Entries are laid out in runs of one creation zoom and one band of lowest zooms shown, runs ordered by creation
/// zoom then band, each run in Morton order with its own tree, padded to whole leaves. A band is a single lowest
/// zoom unless the entries that a viewport at the band's first zoom would read in vain stay few, so a query at a
/// zoom where clusters are dense reads almost no entry of another zoom, while a query at a deep zoom descends few
/// runs. The canonical order the edits work with (grouped by creation zoom, Morton order within a group, ties by
/// entry) is kept implicitly and rebuilt by `items`.
struct ClusterTree: Sendable {
    static let nodeSize = 16
    /// A slot that pads a run to a whole leaf.
    static let padding = UInt32.max
    /// Zooms (creation and lowest shown) are below this bound: `ClusterOptions.zoomLimit` + 2 at most.
    private static let zoomBound = 32

    /// Entries a run may hold that a typical viewport (1024×768 pixels of 256-pixel tiles) at the run's lowest
    /// zoom reads without showing them.
    private static let wasteLimit = 128.0

    /// A run of entries created at one zoom and first shown at zooms of one band.
    struct Run: Sendable {
        var creationZoom: UInt8
        /// The band's lowest zoom: the lowest zoom at which any entry of the run shows.
        var lowZoom: UInt8
        /// Whether its entries first show at several zooms; then `slotLow` holds each one's lowest zoom, the run's
        /// first slot at `lowOffset`.
        var mixed = false
        var lowOffset = 0
        /// Its first slot (a multiple of `nodeSize`).
        var start: Int
        /// Its entries (the padding after them not counted).
        var count: Int
        /// Where its levels start in `levels` (its leaves first, its root last) and how many it has.
        var firstLevel = 0
        var levelCount = 0
    }

    /// Entries in tree order, `padding` after the last entry of a run that does not fill its leaf.
    private(set) var slots: [UInt32] = []
    /// The position of the entry in each slot from `latitudes.count` on (the points' runs), quantized within its
    /// leaf's box (`cellsPerAxis` cells per axis): x in the low 8 bits, y in the high 8 bits. A query decides most
    /// entries from the cells alone, reading memory in order.
    private var cells: [UInt16] = []
    /// The coordinate of the entry in each slot before `latitudes.count`, the slots of the runs of clusters formed
    /// at `maxZoom` or below, as `WebMercator.coordinate` gives it: a query decides and builds clusters from them,
    /// read in order, instead of reading scattered positions and inverting the projection per cluster.
    private(set) var latitudes: [Double] = []
    /// The longitudes that go with `latitudes`.
    private(set) var longitudes: [Double] = []
    /// The node range of each level of each run (see `Run.firstLevel`).
    private var levels: [Range<Int>] = []
    /// The runs in slot order.
    private(set) var runs: [Run] = []
    /// The band (its lowest zoom) of each entry in canonical order: how the runs of one creation zoom interleave
    /// in it.
    private var canonicalBand: [UInt8] = []
    /// The lowest zoom shown by the entry in each slot of the runs of several zooms, run after run.
    private var slotLow: [UInt8] = []
    /// The lowest zoom shown by any entry below each node.
    private var nodeLow: [UInt8] = []
    /// Node boxes, four numbers each (min x, min y, max x, max y), rounded outwards to `Float`: every leaf first
    /// (leaf i holds slots 16i..<16i+16), then the upper levels of each run.
    private var boxes: [Float] = []

    /// An entry changed or added by edits since the nodes were built, with its current position and zooms.
    struct OverlayEntry: Sendable {
        var entry: UInt32
        var x: Double, y: Double
        var lowZoom: UInt8, topZoom: UInt8
        /// Its coordinate as `WebMercator.coordinate` gives it (clusters only; a point's is the input's).
        var latitude: Double, longitude: Double
    }

    /// The entries changed or added by edits since the nodes were built, read linearly by every search after the
    /// nodes (whose copies of these entries are stale and skipped).
    private(set) var overlay: [OverlayEntry] = []
    /// Where each entry of `overlay` is in it.
    private var overlayPosition: [UInt32: Int] = [:]
    /// The places in `overlay` ordered by y (ties by place), with their y: a search reads only the overlay entries
    /// within its y range, found by binary search, instead of the whole overlay (edits grow it to thousands of
    /// entries, and an edit's plan searches it hundreds of times).
    private var overlayByY: [(y: Double, place: Int32)] = []
    /// Per leaf, a bit per slot (`nodeSize` 16: one `UInt16`) whose entry was changed or deleted since the build:
    /// searches skip those slots, testing a bit where a set of slots cost a hash per slot of the leaf. Empty while
    /// no slot is stale.
    private var staleMasks: [UInt16] = []
    /// The stale slots.
    private var staleCount = 0
    /// The most entries `overlay` may hold before the tree is rebuilt (see `ClusterHierarchy.moveInPlace`).
    var overlayLimit = 64

    init() {}

    var memoryBytes: Int {
        slots.capacity * 4 + cells.capacity * 2 + latitudes.capacity * 8 + longitudes.capacity * 8 + canonicalBand.capacity
            + slotLow.capacity + nodeLow.capacity + boxes.capacity * 4 + runs.capacity * MemoryLayout<Run>.stride + levels.capacity * MemoryLayout<Range<Int>>.stride
            + overlay.capacity * MemoryLayout<OverlayEntry>.stride + overlayPosition.capacity * 16
            + overlayByY.capacity * 16
            + staleMasks.capacity * 2
    }

    /// Whether edits changed or deleted entries since the nodes were built: `canonicalItems()` is then stale.
    var isEdited: Bool { !overlay.isEmpty || staleCount > 0 }

    /// Whether the overlay outgrew `overlayLimit` (or the stale slots twice that): time to rebuild.
    var overlayIsFull: Bool { overlay.count > overlayLimit || staleCount / 2 > overlayLimit }

    /// Moves `entries`, about to change, from the nodes to the overlay. Call with the hierarchy as it is before the
    /// change (the entries' slots are found from their positions and zooms at the build); then call `refresh`.
    /// Returns false when an entry that shows is not where it should be in the nodes (the caller then rebuilds).
    /// - Complexity: O(c (r + log e + v)) for c entries, r runs and v entries in the overlay.
    mutating func detach(_ entries: [Int], hierarchy h: ClusterHierarchy) -> Bool {
        for e in entries where overlayPosition[UInt32(e)] == nil {
            if h.lowZoom[e] <= h.topZoom[e] {
                guard let slot = baseSlot(of: e, hierarchy: h) else { return false }
                markStale(slot)
            }
            overlayPosition[UInt32(e)] = overlay.count
            indexOverlay(y: 0, place: overlay.count)
            overlay.append(OverlayEntry(entry: UInt32(e), x: 0, y: 0, lowZoom: 1, topZoom: 0, latitude: 0, longitude: 0))
        }
        return true
    }

    /// Marks `slot` stale (`staleMasks`).
    /// - Complexity: O(1), O(l) for the first of the l leaves.
    private mutating func markStale(_ slot: Int) {
        if staleMasks.isEmpty { staleMasks = [UInt16](repeating: 0, count: slots.count / Self.nodeSize) }
        let bit = UInt16(1) << UInt16(slot % Self.nodeSize)
        if staleMasks[slot / Self.nodeSize] & bit == 0 { staleCount += 1 }
        staleMasks[slot / Self.nodeSize] |= bit
    }

    /// Whether `slot` is stale.
    @inline(__always)
    private func isStale(_ slot: Int) -> Bool {
        !staleMasks.isEmpty && staleMasks[slot / Self.nodeSize] & (UInt16(1) << UInt16(slot % Self.nodeSize)) != 0
    }

    /// Copies the current positions and zooms of `entries` (all detached) into the overlay.
    /// - Complexity: O(c v) for c entries and v in the overlay (moves within `overlayByY`, of 16 bytes each).
    mutating func refresh(_ entries: [Int], hierarchy h: ClusterHierarchy) {
        for e in entries {
            guard let k = overlayPosition[UInt32(e)] else { continue }
            let x = h.x(e), y = h.y(e)
            var o = OverlayEntry(entry: UInt32(e), x: x, y: y, lowZoom: h.lowZoom[e], topZoom: h.topZoom[e], latitude: 0, longitude: 0)
            if h.isIdenticalGroup(e) {
                (o.latitude, o.longitude) = (.nan, .nan) // its points' own coordinate: see `cachedCoordinate`
            } else if e >= h.leafCount {
                let c = WebMercator.coordinate(x: x, y: y)
                (o.latitude, o.longitude) = (c.latitude, c.longitude)
            }
            unindexOverlay(y: overlay[k].y, place: k)
            indexOverlay(y: o.y, place: k)
            overlay[k] = o
        }
    }

    /// Where (y, place) is, or goes, in `overlayByY`.
    /// - Complexity: O(log v) for v entries in the overlay.
    private func overlayIndex(y: Double, place: Int) -> Int {
        var lo = 0, hi = overlayByY.count
        let p = Int32(place)
        while lo < hi {
            let mid = (lo + hi) / 2
            let m = overlayByY[mid]
            if m.y < y || (m.y == y && m.place < p) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Adds place `place`, at `y`, to `overlayByY`.
    /// - Complexity: O(v) for v entries in the overlay (a move of the later ones).
    private mutating func indexOverlay(y: Double, place: Int) {
        overlayByY.insert((y, Int32(place)), at: overlayIndex(y: y, place: place))
    }

    /// Takes place `place`, at `y`, out of `overlayByY`.
    /// - Complexity: O(v) for v entries in the overlay.
    private mutating func unindexOverlay(y: Double, place: Int) {
        let i = overlayIndex(y: y, place: place)
        precondition(i < overlayByY.count && overlayByY[i].place == Int32(place), "overlay index out of step with the overlay")
        overlayByY.remove(at: i)
    }

    /// The first place in `overlayByY` whose y is not below `y` (with `inclusive` false: above `y`).
    /// - Complexity: O(log v).
    @inline(__always)
    private func overlayBound(_ y: Double, inclusive: Bool) -> Int {
        var lo = 0, hi = overlayByY.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if overlayByY[mid].y < y || (!inclusive && overlayByY[mid].y == y) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Takes `entries`, about to be deleted, out of the tree: searches skip their slots, and they leave the overlay.
    /// Call with the hierarchy as it is before the change. Returns false when an entry that shows is not where it
    /// should be in the nodes (the caller then rebuilds).
    /// - Complexity: O(c (r + log e + v)) for c entries, r runs and v entries in the overlay.
    mutating func drop(_ entries: [Int], hierarchy h: ClusterHierarchy) -> Bool {
        for e in entries {
            if let k = overlayPosition.removeValue(forKey: UInt32(e)) {
                // Its slot is stale already; the last overlay entry takes its place.
                unindexOverlay(y: overlay[k].y, place: k)
                let last = overlay.removeLast()
                if k < overlay.count {
                    unindexOverlay(y: last.y, place: overlay.count)
                    indexOverlay(y: last.y, place: k)
                    overlay[k] = last
                    overlayPosition[last.entry] = k
                }
            } else if h.lowZoom[e] <= h.topZoom[e] {
                guard let slot = baseSlot(of: e, hierarchy: h) else { return false }
                markStale(slot)
            }
        }
        return true
    }

    /// Renumbers the entries held (nodes and overlay) after the hierarchy's entries were renumbered by `splice`
    /// (deleted entries dropped first).
    /// - Complexity: O(e) for e slots.
    mutating func renumber(_ splice: ClusterSplice) {
        splice.renumber(&slots)
        guard !overlay.isEmpty else { return }
        overlayPosition.removeAll(keepingCapacity: true)
        for k in overlay.indices {
            let e = UInt32(splice.newRow(Int(overlay[k].entry)))
            overlay[k].entry = e
            overlayPosition[e] = k
        }
    }

    /// Renumbers the entries held (nodes and overlay) to `map[entry]` after a batch renumbered every entry of the
    /// hierarchy (`ClusterHierarchy.finishBatch`); a stale slot may take any number but `padding`.
    /// - Complexity: O(e) for e slots.
    mutating func renumber(entries map: [UInt32]) {
        map.withUnsafeBufferPointer { map in
            slots.withUnsafeMutableBufferPointer { p in
                for i in p.indices where p[i] != Self.padding { p[i] = map[Int(p[i])] }
            }
        }
        guard !overlay.isEmpty else { return }
        overlayPosition.removeAll(keepingCapacity: true)
        for k in overlay.indices {
            let e = map[Int(overlay[k].entry)]
            overlay[k].entry = e
            overlayPosition[e] = k
        }
    }

    /// Puts `entries`, new to the hierarchy, in the overlay with their positions and zooms; those that show at no
    /// zoom are left out.
    /// - Complexity: O(c v) for c entries and v in the overlay.
    mutating func attach(_ entries: [Int], hierarchy h: ClusterHierarchy) {
        var added: [Int] = []
        for e in entries where h.lowZoom[e] <= h.topZoom[e] && overlayPosition[UInt32(e)] == nil {
            overlayPosition[UInt32(e)] = overlay.count
            indexOverlay(y: 0, place: overlay.count)
            overlay.append(OverlayEntry(entry: UInt32(e), x: 0, y: 0, lowZoom: 1, topZoom: 0, latitude: 0, longitude: 0))
            added.append(e)
        }
        refresh(added, hierarchy: h)
    }

    /// The slot holding entry `e` in the nodes, found by a search at its position and creation zoom.
    /// - Complexity: O(r log e) for r runs.
    private func baseSlot(of e: Int, hierarchy h: ClusterHierarchy) -> Int? {
        let x = h.x(e), y = h.y(e)
        var found: Int?
        forEachLeaf(x: UnitXRanges(x, x), y0: y, y1: y, zoom: Int(h.topZoom[e])) { first, _ in
            guard found == nil else { return }
            for i in first..<first + Self.nodeSize where slots[i] == UInt32(e) && !isStale(i) { found = i }
        }
        return found
    }

    /// The entry in slot `s` as searches number slots: those of the nodes, then those of the overlay.
    @inline(__always)
    func entry(atSlot s: Int) -> Int {
        s < slots.count ? Int(slots[s]) : Int(overlay[s - slots.count].entry)
    }

    /// The cached coordinate of the cluster in slot `s`, nil when the slot caches none (points, identical-point groups).
    @inline(__always)
    func cachedCoordinate(atSlot s: Int) -> Coordinate? {
        if s < latitudes.count { return Coordinate(uncheckedLatitude: latitudes[s], longitude: longitudes[s]) }
        guard s >= slots.count else { return nil }
        let o = overlay[s - slots.count]
        return o.latitude.isNaN ? nil : Coordinate(uncheckedLatitude: o.latitude, longitude: o.longitude)
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
        // Four 8-bit passes: fewer buckets than the 11-bit digits, which this one sort of the build does not repay.
        RadixSort.sort(keys: &keys, values: &order, bits: 32, digitBits: 8)
        let spatial = order
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

    /// The entries of the nodes in canonical order: grouped by creation zoom, Morton order within a group, ties by
    /// entry. Stale once `isEdited`. Rebuilt on every call: take it once, never index it in a loop.
    /// - Complexity: O(e) for e entries.
    func canonicalItems() -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(canonicalBand.count)
        // Within one creation zoom, canonical position p holds the next entry of the run of band canonicalBand[p].
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
                let low = Int(canonicalBand[p])
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

    /// Splits the canonical order into padded runs (a stable counting sort on (creation zoom, band)) and builds
    /// the nodes.
    private mutating func layOut(canonical: [UInt32], hierarchy h: ClusterHierarchy) {
        let bound = Self.zoomBound
        var counts = [Int](repeating: 0, count: bound * bound)
        // (creation zoom, lowest zoom) of each entry in canonical order, read once.
        let zooms = canonical.map { e in UInt16(h.topZoom[Int(e)]) * UInt16(bound) + UInt16(h.lowZoom[Int(e)]) }
        for z in zooms { counts[Int(z)] += 1 }
        // Bands: within a creation zoom, a lowest zoom joins the band before it while the entries shown only from a
        // higher zoom, times the share of the world a viewport covers at the band's first zoom, stay within the limit.
        var band = [UInt8](repeating: 0, count: bound * bound)
        var mixed = [Bool](repeating: false, count: bound * bound)
        for t in 0..<bound {
            var first = -1
            var wasted = 0.0
            for l in 0..<bound where counts[t * bound + l] > 0 {
                if first >= 0 {
                    let w = wasted + Double(counts[t * bound + l]) * min(1, 12 / Double(1 << (2 * min(first, 30))))
                    if w <= Self.wasteLimit {
                        wasted = w
                        band[t * bound + l] = UInt8(first)
                        mixed[t * bound + first] = true
                        continue
                    }
                }
                first = l
                wasted = 0
                band[t * bound + l] = UInt8(l)
            }
        }
        var bandCounts = [Int](repeating: 0, count: bound * bound)
        for b in counts.indices { bandCounts[b / bound * bound + Int(band[b])] += counts[b] }
        var next = [Int](repeating: 0, count: bound * bound)
        var lowBase = [Int](repeating: 0, count: bound * bound)
        var total = 0, mixedTotal = 0
        for b in bandCounts.indices where bandCounts[b] > 0 {
            runs.append(Run(creationZoom: UInt8(b / bound), lowZoom: UInt8(b % bound), mixed: mixed[b], lowOffset: mixedTotal,
                            start: total, count: bandCounts[b]))
            next[b] = total
            lowBase[b] = mixedTotal - total
            total += Self.padded(bandCounts[b])
            if mixed[b] { mixedTotal += Self.padded(bandCounts[b]) }
        }
        slots = [UInt32](repeating: Self.padding, count: total)
        slotLow = [UInt8](repeating: UInt8.max, count: mixedTotal)
        canonicalBand = [UInt8](repeating: 0, count: canonical.count)
        for (p, e) in canonical.enumerated() {
            let z = Int(zooms[p])
            let b = z / bound * bound + Int(band[z])
            canonicalBand[p] = band[z]
            slots[next[b]] = e
            if mixed[b] { slotLow[lowBase[b] + next[b]] = UInt8(z % bound) }
            next[b] += 1
        }
        buildNodes(hierarchy: h)
        overlayLimit = min(4096, max(64, canonical.count / 64))
    }

    /// Leaf boxes over `slots`, then each run's own levels up to its root, and the cached positions of the runs
    /// of clusters.
    private mutating func buildNodes(hierarchy h: ClusterHierarchy) {
        let leafCount = slots.count / Self.nodeSize
        let nodeEstimate = leafCount + leafCount / (Self.nodeSize - 1) + 2 * runs.count
        // Runs of clusters come first (their creation zoom is below the points'); identical points grouped at the
        // points' zoom are rare and left out.
        let pointZoom = h.leafCount > 0 ? h.topZoom[0] : UInt8.max
        let cachedEnd = runs.last(where: { $0.creationZoom < pointZoom }).map { $0.start + Self.padded($0.count) } ?? 0
        latitudes = [Double](repeating: 0, count: cachedEnd)
        longitudes = [Double](repeating: 0, count: cachedEnd)
        cells = [UInt16](repeating: 0, count: slots.count - cachedEnd)
        // Leaves first, at their places; the upper levels are appended after them.
        boxes = [Float](repeating: 0, count: 4 * leafCount)
        boxes.reserveCapacity(4 * nodeEstimate)
        nodeLow = [UInt8](repeating: UInt8.max, count: leafCount)
        nodeLow.reserveCapacity(nodeEstimate)
        slots.withUnsafeBufferPointer { slots in
            boxes.withUnsafeMutableBufferPointer { boxes in
                nodeLow.withUnsafeMutableBufferPointer { nodeLow in
                    latitudes.withUnsafeMutableBufferPointer { latitudes in
                        longitudes.withUnsafeMutableBufferPointer { longitudes in
                            cells.withUnsafeMutableBufferPointer { cells in
                                let job = LeafJob(slots: slots, hierarchy: h, cachedEnd: cachedEnd, boxes: boxes, nodeLow: nodeLow,
                                                  latitudes: latitudes, longitudes: longitudes, cells: cells)
                                // A leaf writes its own box, lowest zoom, coordinates and cells only: the halves write
                                // disjoint memory, so the nodes are the one loop's whatever the timing.
                                guard leafCount >= Self.parallelLeafCount else { return job.run(0..<leafCount) }
                                let half = leafCount / 2
                                _ = forkJoin({ job.run(0..<half) }, { job.run(half..<leafCount) })
                            }
                        }
                    }
                }
            }
        }
        var node = leafCount
        for r in runs.indices {
            let firstLeaf = runs[r].start / Self.nodeSize
            var level = firstLeaf..<(firstLeaf + (runs[r].count + Self.nodeSize - 1) / Self.nodeSize)
            runs[r].firstLevel = levels.count
            levels.append(level)
            while level.count > 1 {
                let begin = node
                for start in stride(from: level.lowerBound, to: level.upperBound, by: Self.nodeSize) {
                    var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                    var low = UInt8.max
                    for c in start..<min(start + Self.nodeSize, level.upperBound) {
                        let child = box(c)
                        b = (min(b.0, child.0), min(b.1, child.1), max(b.2, child.2), max(b.3, child.3))
                        low = min(low, nodeLow[c])
                    }
                    appendBox(b)
                    nodeLow.append(low)
                    node += 1
                }
                level = begin..<node
                levels.append(level)
            }
            runs[r].levelCount = levels.count - runs[r].firstLevel
        }
    }

    /// Leaves from which `buildNodes` builds them on two threads: below it the hand-off costs more than half the
    /// loop.
    static let parallelLeafCount = 2_048

    /// The leaves of `buildNodes` over a range of leaves: each one's box, lowest zoom, and its entries' cached
    /// coordinates (runs of clusters) or cells (runs of points), from the entries' positions and lowest zooms,
    /// gathered first in a tight loop (they are scattered in the hierarchy, and independent reads overlap).
    private struct LeafJob: @unchecked Sendable {
        let slots: UnsafeBufferPointer<UInt32>
        let hierarchy: ClusterHierarchy
        let cachedEnd: Int
        let boxes: UnsafeMutableBufferPointer<Float>
        let nodeLow: UnsafeMutableBufferPointer<UInt8>
        let latitudes: UnsafeMutableBufferPointer<Double>
        let longitudes: UnsafeMutableBufferPointer<Double>
        let cells: UnsafeMutableBufferPointer<UInt16>

        func run(_ leaves: Range<Int>) {
            let h = hierarchy
            let base = leaves.lowerBound * ClusterTree.nodeSize, end = leaves.upperBound * ClusterTree.nodeSize
            var px = [Double](repeating: 0, count: end - base), py = px
            var pl = [UInt8](repeating: UInt8.max, count: end - base)
            for i in base..<end where slots[i] != ClusterTree.padding {
                let e = Int(slots[i])
                px[i - base] = h.x(e)
                py[i - base] = h.y(e)
                pl[i - base] = h.lowZoom[e]
            }
            for leaf in leaves {
                let first = leaf * ClusterTree.nodeSize
                var b = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                var low = UInt8.max
                var end = first
                while end < first + ClusterTree.nodeSize, slots[end] != ClusterTree.padding {
                    let k = end - base
                    b = (min(b.0, px[k]), min(b.1, py[k]), max(b.2, px[k]), max(b.3, py[k]))
                    low = min(low, pl[k])
                    end += 1
                }
                let r = ClusterTree.roundedOutwards(b)
                (boxes[4 * leaf], boxes[4 * leaf + 1], boxes[4 * leaf + 2], boxes[4 * leaf + 3]) = r
                nodeLow[leaf] = low
                if first < cachedEnd {
                    for i in first..<end {
                        let c = WebMercator.coordinate(x: px[i - base], y: py[i - base])
                        latitudes[i] = c.latitude
                        longitudes[i] = c.longitude
                    }
                } else {
                    // Cells of the rounded box, as queries read it.
                    let (x0, y0, x1, y1) = (Double(r.0), Double(r.1), Double(r.2), Double(r.3))
                    let sx = ClusterTree.cellScale(x0, x1), sy = ClusterTree.cellScale(y0, y1)
                    for i in first..<end {
                        cells[i - cachedEnd] = ClusterTree.cell(px[i - base] - x0, scale: sx) | ClusterTree.cell(py[i - base] - y0, scale: sy) << 8
                    }
                }
            }
        }
    }

    /// The box of node `n` (min x, min y, max x, max y).
    @inline(__always)
    private func box(_ n: Int) -> (Double, Double, Double, Double) {
        (Double(boxes[4 * n]), Double(boxes[4 * n + 1]), Double(boxes[4 * n + 2]), Double(boxes[4 * n + 3]))
    }

    /// Appends a node box, rounded outwards so that it still holds everything below it.
    private mutating func appendBox(_ b: (Double, Double, Double, Double)) {
        let r = Self.roundedOutwards(b)
        boxes.append(r.0); boxes.append(r.1); boxes.append(r.2); boxes.append(r.3)
    }

    /// A box (min x, min y, max x, max y) rounded outwards to `Float`, so that it still holds everything it held.
    @inline(__always)
    private static func roundedOutwards(_ b: (Double, Double, Double, Double)) -> (Float, Float, Float, Float) {
        @inline(__always) func down(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) > v ? f.nextDown : f
        }
        @inline(__always) func up(_ v: Double) -> Float {
            let f = Float(v)
            return Double(f) < v ? f.nextUp : f
        }
        return (down(b.0), down(b.1), up(b.2), up(b.3))
    }

    /// Calls `body` with the first slot of each leaf of a run showing at `zoom` whose box meets the
    /// x ranges and [y0, y1]. Allocates one small stack.
    /// - Complexity: O(r log e + l) for r runs and l leaves visited.
    @inline(__always)
    func forEachLeaf(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, _ body: (_ first: Int, _ lowBase: Int?) -> Void) {
        guard zoom >= 0, zoom < Self.zoomBound else { return }
        let z = UInt8(zoom)
        // Nodes of a run of one band all show at `zoom`: only a run of several reads their lowest zooms.
        @inline(__always) func passes(_ n: Int, mixed: Bool) -> Bool {
            let b = box(n)
            return b.1 <= y1 && b.3 >= y0 && ranges.overlaps(b.0, b.2) && (!mixed || nodeLow[n] <= z)
        }
        // An explicit stack of (level, node); depth * nodeSize bounds it.
        var pending: [(level: Int, node: Int)] = []
        for run in runs where run.lowZoom <= z && run.creationZoom >= z {
            let base = run.firstLevel
            let top = run.levelCount - 1
            guard top >= 0, passes(levels[base + top].lowerBound, mixed: run.mixed) else { continue }
            pending.append((top, levels[base + top].lowerBound))
            while let (level, n) = pending.popLast() {
                if level == 0 {
                    body(n * Self.nodeSize, run.mixed ? run.lowOffset - run.start : nil)
                    continue
                }
                // Children are contiguous: test them here, push only those that pass.
                let children = levels[base + level - 1]
                let first = children.lowerBound + (n - levels[base + level].lowerBound) * Self.nodeSize
                for c in stride(from: min(first + Self.nodeSize, children.upperBound) - 1, through: first, by: -1) where passes(c, mixed: run.mixed) {
                    pending.append((level - 1, c))
                }
            }
        }
    }

    /// Calls `body` with the slot and entry of every entry showing at `zoom` whose position is in one of the x
    /// ranges and in [y0, y1]: first those of the nodes, in tree order, then those of the overlay (slots from
    /// `slots.count` on; see `entry(atSlot:)`). Positions are read from the slots' cells; only an entry whose cell
    /// straddles the query's edge reads its exact position from the hierarchy.
    /// - Complexity: O(r log e + k + log v + w) for r runs, k entries found, v entries in the overlay and w of
    ///   them within the y range.
    @inline(__always)
    func forEachEntry(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, hierarchy h: ClusterHierarchy,
                      _ body: (_ slot: Int, _ entry: Int) -> Void) {
        let z = UInt8(truncatingIfNeeded: zoom)
        let cached = latitudes.count
        let longitudeTest = DegreeTest(longitudes: ranges)
        let latitudeTest = DegreeTest(latitudesFromY: y0, y1)
        forEachLeaf(x: ranges, y0: y0, y1: y1, zoom: zoom) { first, lowBase in
            let stale = staleMasks.isEmpty ? 0 : staleMasks[first / Self.nodeSize]
            let b = box(first / Self.nodeSize)
            let allX = (b.0 >= ranges.a0 && b.2 <= ranges.a1) || (b.0 >= ranges.b0 && b.2 <= ranges.b1)
            let allY = b.1 >= y0 && b.3 <= y1
            @inline(__always) func exactlyInside(_ e: Int) -> Bool {
                let py = h.y(e)
                return py >= y0 && py <= y1 && ranges.contains(h.x(e))
            }
            if first < cached {
                // Clusters: decided by their cached coordinates, read in order.
                scanLeaf(first: first, lowBase: lowBase, stale: stale, zoom: z, allX ? DegreeTest.all : longitudeTest,
                         allY ? DegreeTest.all : latitudeTest, position: { (longitudes[$0], latitudes[$0]) },
                         exactlyInside: exactlyInside, body)
                return
            }
            let tx: CellTest
            if allX {
                tx = .all
            } else {
                let overlapsA = b.2 >= ranges.a0 && b.0 <= ranges.a1, overlapsB = b.2 >= ranges.b0 && b.0 <= ranges.b1
                tx = overlapsA && overlapsB ? .exact
                    : (overlapsA ? CellTest(b.0, b.2, ranges.a0, ranges.a1) : CellTest(b.0, b.2, ranges.b0, ranges.b1))
            }
            let ty = allY ? CellTest.all : CellTest(b.1, b.3, y0, y1)
            scanLeaf(first: first, lowBase: lowBase, stale: stale, zoom: z, tx, ty, position: { i in
                let cell = cells[i - cached]
                return (Int32(cell & 0xFF), Int32(cell >> 8))
            }, exactlyInside: exactlyInside, body)
        }
        guard zoom >= 0, zoom < Self.zoomBound, !overlay.isEmpty else { return }
        @inline(__always) func shows(_ o: OverlayEntry) -> Bool {
            o.lowZoom <= z && o.topZoom >= z && o.y >= y0 && o.y <= y1 && ranges.contains(o.x)
        }
        let first = overlayBound(y0, inclusive: true), end = overlayBound(y1, inclusive: false)
        guard first < end else { return }
        if end - first == overlay.count {
            for (k, o) in overlay.enumerated() where shows(o) { body(slots.count + k, Int(o.entry)) }
            return
        }
        // The few within the y range, reported in overlay order as a whole scan reports them.
        var found: [Int] = []
        for i in first..<end where shows(overlay[Int(overlayByY[i].place)]) { found.append(Int(overlayByY[i].place)) }
        found.sort()
        for k in found { body(slots.count + k, Int(overlay[k].entry)) }
    }

    /// Calls `body` with the slot and entry of each entry of the leaf from slot `first` that shows at `zoom` and
    /// that the axis tests place inside (or, when they cannot tell, `exactlyInside` does), skipping the slots whose
    /// bit is set in `stale` (the leaf's `staleMasks`).
    @inline(__always)
    private func scanLeaf<Test: AxisTest>(first: Int, lowBase: Int?, stale: UInt16, zoom z: UInt8, _ tx: Test, _ ty: Test,
                                          position: (Int) -> (Test.Value, Test.Value), exactlyInside: (Int) -> Bool,
                                          _ body: (_ slot: Int, _ entry: Int) -> Void) {
        // The entries of a run of one band show at the same zooms: a per-entry zoom test only in runs of several.
        for i in first..<first + Self.nodeSize {
            let slot = slots[i]
            if slot == Self.padding { break }
            if let lowBase, slotLow[lowBase + i] > z { continue }
            if stale != 0, stale & (UInt16(1) << UInt16(i - first)) != 0 { continue }
            let (px, py) = position(i)
            if tx.excludes(px) || ty.excludes(py) { continue }
            let e = Int(slot)
            if !tx.includes(px) || !ty.includes(py), !exactlyInside(e) { continue }
            body(i, e)
        }
    }

    /// Calls `body` with every entry showing at `zoom` whose position is in one of the x ranges and in [y0, y1].
    /// - Complexity: O(r log e + k) for r runs and k entries found.
    func search(x ranges: UnitXRanges, y0: Double, y1: Double, zoom: Int, hierarchy h: ClusterHierarchy, _ body: (Int) -> Void) {
        forEachEntry(x: ranges, y0: y0, y1: y1, zoom: zoom, hierarchy: h) { _, e in body(e) }
    }

    /// Cells per axis of a leaf box.
    static let cellsPerAxis = 256

    /// The cell of offset `d` from a leaf box's low edge, `scale` cells per unit.
    @inline(__always)
    private static func cell(_ d: Double, scale: Double) -> UInt16 {
        UInt16(min(Double(cellsPerAxis - 1), max(0, d * scale)))
    }

    /// Cells per unit across a leaf box from `lo` to `hi` (0 when the box is flat on that axis).
    @inline(__always)
    static func cellScale(_ lo: Double, _ hi: Double) -> Double {
        let s = Double(cellsPerAxis) / (hi - lo)
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
}
