/// A static packed R-tree of boxes in longitude and latitude: which shape parts' extents meet a box or a point.
///
/// Built once over every part of every shape (a polygon of a MultiPolygon, a line, a point of a MultiPoint), each
/// with its own extent: GeoJSON splits a shape that crosses the antimeridian into parts on either side, so every
/// part's box is ordinary (west ≤ east) and a split country costs two small boxes, not one as wide as the map.
/// Queries that cross the antimeridian are split into their longitude ranges by the caller.
///
/// Layout (as mourner's flatbush): the leaves sorted by the Hilbert value of their centre, then each level of
/// parents, `nodeSize` children per parent, all boxes in one flat buffer (west, south, east, north per node), so
/// a node's children are found by arithmetic and the index is four doubles and one item per part plus about 7 %.
/// The walk reads a second copy of the boxes, as `Float` grouped by parent (`childBoxes`, 16 bytes a node more):
/// one parent's 16 children are tested by four SIMD comparisons over 256 bytes, and only the leaves it lets
/// through are tested on their doubles.
/// Results are items (what the caller attached to each box, a feature position), possibly repeated when several
/// parts of one item meet the query.
public struct ShapeExtentIndex: Sendable {
    /// Children per parent: 16, flatbush's default; the tree is shallow (three levels for 4,096 parts).
    static let nodeSize = 16
    /// Per node, west, south, east, north: the leaves first (sorted), then each level of parents.
    let boxes: ContiguousArray<Double>
    /// The item of each leaf, in leaf order.
    let items: ContiguousArray<UInt32>
    /// The position in the builder's `entries` of each leaf, in leaf order: lets a caller lay out per-part data in
    /// leaf order (`FeatureShapeIndex`'s rings), so a query reads it by leaf number.
    let entryOfLeaf: ContiguousArray<UInt32>
    /// Where each level starts, in nodes: `levelStarts[0] == 0` (the leaves); the last entry is the node count.
    let levelStarts: [Int]
    /// The walk's copy of each parent's children's boxes, as `Float` in columns (`childBoxes(boxes:levelStarts:)`).
    let childBoxes: ContiguousArray<Float>

    /// One box to index: its item and its edges in degrees (west ≤ east).
    public struct Entry: Sendable {
        /// What a query returns for this box (a feature position).
        public var item: Int
        /// The box's edges in degrees, west ≤ east, south ≤ north.
        public var west, south, east, north: Double

        /// An entry for `item` with the given edges.
        /// - Complexity: O(1).
        public init(item: Int, west: Double, south: Double, east: Double, north: Double) {
            (self.item, self.west, self.south, self.east, self.north) = (item, west, south, east, north)
        }
    }

    /// Builds the tree over `entries`.
    /// - Complexity: O(n log n).
    public init(_ entries: [Entry]) {
        precondition(entries.count < Int(UInt32.max), "ShapeExtentIndex holds fewer than \(UInt32.max) boxes")
        // Ties in the Hilbert value are broken by input order, so a build is deterministic: the value above the
        // entry's position in one integer, sorted as integers (no comparison closure).
        var keyed = entries.indices.map { UInt64(ShapeExtentIndex.hilbertValue(entries[$0])) << 32 | UInt64($0) }
        keyed.sort()
        var boxes = ContiguousArray<Double>()
        boxes.reserveCapacity(4 * (entries.count + entries.count / (ShapeExtentIndex.nodeSize - 1) + 1))
        var items = ContiguousArray<UInt32>()
        items.reserveCapacity(entries.count)
        var entryOfLeaf = ContiguousArray<UInt32>()
        entryOfLeaf.reserveCapacity(entries.count)
        for key in keyed {
            let position = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
            let entry = entries[position]
            boxes.append(entry.west)
            boxes.append(entry.south)
            boxes.append(entry.east)
            boxes.append(entry.north)
            items.append(UInt32(truncatingIfNeeded: entry.item))
            entryOfLeaf.append(UInt32(truncatingIfNeeded: position))
        }
        var levelStarts = [0]
        var levelStart = 0, levelEnd = entries.count
        while levelEnd - levelStart > 1 {
            levelStarts.append(levelEnd)
            for first in stride(from: levelStart, to: levelEnd, by: ShapeExtentIndex.nodeSize) {
                var (west, south, east, north) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                for child in first..<min(first + ShapeExtentIndex.nodeSize, levelEnd) {
                    west = min(west, boxes[4 * child])
                    south = min(south, boxes[4 * child + 1])
                    east = max(east, boxes[4 * child + 2])
                    north = max(north, boxes[4 * child + 3])
                }
                boxes.append(contentsOf: [west, south, east, north])
            }
            (levelStart, levelEnd) = (levelEnd, boxes.count / 4)
        }
        levelStarts.append(levelEnd)
        self.boxes = boxes
        self.items = items
        self.entryOfLeaf = entryOfLeaf
        self.levelStarts = levelStarts
        childBoxes = ShapeExtentIndex.childBoxes(boxes: boxes, levelStarts: levelStarts)
    }

    /// The number of boxes indexed.
    /// - Complexity: O(1).
    public var count: Int { items.count }

    /// Appends to `results` the items of the boxes that meet the box from `west` to `east` (west ≤ east) and
    /// `south` to `north`, edges inclusive, in no particular order (an item once per part that meets it); returns
    /// the query's counters (`results`: the items this search appended, not those `results` held before).
    /// - Complexity: O(log n + k) node visits for k boxes found, on typical data.
    @discardableResult
    public func search(west: Double, south: Double, east: Double, north: Double, into results: inout [Int]) -> QueryStats {
        var stats = QueryStats()
        guard !items.isEmpty else { return stats }
        let start = results.count
        items.withUnsafeBufferPointer { items in
            forEachLeaf(west: west, south: south, east: east, north: north, stats: &stats) { results.append(Int(items[$0])) }
        }
        // A second range's search appends to the first's results: counting them all again counted those twice.
        stats.results = results.count - start
        return stats
    }

    /// Calls `body` with the number (leaf order, `0..<count`) of each leaf whose box meets the box from `west` to
    /// `east` (west ≤ east) and `south` to `north`, edges inclusive, in no particular order; counts the nodes
    /// opened and the leaves found in `stats`.
    /// - Complexity: O(log n + k) node visits for k boxes found, on typical data.
    @inline(__always)
    func forEachLeaf(west: Double, south: Double, east: Double, north: Double, stats: inout QueryStats,
                     _ body: (Int) -> Void) {
        guard !items.isEmpty else { return }
        let top = levelStarts.count - 2
        guard top > 0 else {
            // One leaf, the root: tested alone.
            stats.nodesVisited += 1
            guard boxes[0] <= east, boxes[2] >= west, boxes[1] <= north, boxes[3] >= south else { return }
            stats.candidates += 1
            body(0)
            return
        }
        // The query rounded as the children's `Float` boxes are (to nearest: see `childBoxes`).
        let floatWest = SIMD16(repeating: Float(west)), floatSouth = SIMD16(repeating: Float(south))
        let floatEast = SIMD16(repeating: Float(east)), floatNorth = SIMD16(repeating: Float(north))
        // Nodes still to open, each packed with its level (node << 8 | level) into one word: a depth-first walk
        // keeps the stack at most levels × nodeSize, so it lives on the machine stack (8 bytes an entry stays
        // under the standard library's 1,024-byte limit up to 8 levels; pairs of Int spilled to the heap at 6).
        let capacity = levelStarts.count * ShapeExtentIndex.nodeSize
        withUnsafeTemporaryAllocation(of: Int.self, capacity: capacity) { stack in
            var depth = 1
            stack[0] = levelStarts[top] << 8 | top
            boxes.withUnsafeBufferPointer { boxes in
                childBoxes.withUnsafeBufferPointer { childBoxes in
                    levelStarts.withUnsafeBufferPointer { levelStarts in
                        // A parent's columns are non-empty (every parent has a child), so the base is never nil.
                        let columns = childBoxes.baseAddress.unsafelyUnwrapped, firstParent = levelStarts[1]
                        while depth > 0 {
                            depth -= 1
                            let node = stack[depth] >> 8, level = stack[depth] & 0xFF
                            stats.nodesVisited += 1
                            let childStart = levelStarts[level - 1] + (node - levelStarts[level]) * ShapeExtentIndex.nodeSize
                            var meeting = ShapeExtentIndex.meetingChildren(
                                columns + (node - firstParent) * ShapeExtentIndex.childBoxStride,
                                west: floatWest, south: floatSouth, east: floatEast, north: floatNorth)
                            // Ascending, as the loop over every child went: the leaves come in the same order.
                            while meeting != 0 {
                                let child = childStart + meeting.trailingZeroBitCount
                                meeting &= meeting &- 1
                                if level == 1 {
                                    // Leaves are decided on their doubles here, without a stack entry each.
                                    let b = 4 * child
                                    guard boxes[b] <= east, boxes[b + 2] >= west, boxes[b + 1] <= north, boxes[b + 3] >= south else { continue }
                                    stats.candidates += 1
                                    body(child)
                                } else {
                                    precondition(depth < capacity, "ShapeExtentIndex: the walk's stack holds levels × nodeSize")
                                    stack[depth] = child << 8 | (level - 1)
                                    depth += 1
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Calls `body` with the leaves whose box meets `box` (edges inclusive; across the antimeridian when west >
    /// east, 180 and -180 one meridian, as `BoundingBox.longitudeRanges` splits it), each as `item << 32 | leaf`,
    /// in no order, a leaf twice when both ranges meet it. Gathered on the machine stack up to 64 (a point meets
    /// few boxes), on the heap beyond. Counts as `search` does over both ranges: `results` gets every leaf found,
    /// once per range that meets it.
    /// - Complexity: O(log n + k) node visits for k boxes found, on typical data.
    func withLeaves<Result>(meeting box: BoundingBox, stats: inout QueryStats,
                            _ body: (UnsafeMutableBufferPointer<UInt64>) -> Result) -> Result {
        let ranges = box.longitudeRanges
        let inlineCapacity = 64
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: inlineCapacity) { inline in
            // The keys in a struct the closures change in place: a local function capturing `count` and the spill
            // array boxed both on the heap (two allocations and exclusivity checks a query).
            var keys = LeafKeys(inline: inline)
            items.withUnsafeBufferPointer { items in
                forEachLeaf(west: ranges.first.lowerBound, south: box.south, east: ranges.first.upperBound, north: box.north,
                            stats: &stats) { keys.append(UInt64(items[$0]) << 32 | UInt64($0)) }
                if ranges.hasSecond {
                    forEachLeaf(west: ranges.second.lower, south: box.south, east: ranges.second.upper, north: box.north,
                                stats: &stats) { keys.append(UInt64(items[$0]) << 32 | UInt64($0)) }
                }
            }
            // `count` holds both ranges' leaves: added once (adding it after each range counted the first twice).
            stats.results += keys.count
            if keys.count <= inline.count { return body(UnsafeMutableBufferPointer(rebasing: inline[0..<keys.count])) }
            return keys.spilled.withUnsafeMutableBufferPointer { body($0) }
        }
    }

    /// The keys `withLeaves` gathers: in `inline` (on the machine stack) up to its size, then all on the heap.
    private struct LeafKeys {
        /// The first keys.
        let inline: UnsafeMutableBufferPointer<UInt64>
        /// The number of keys gathered.
        var count = 0
        /// Every key, once there are more than `inline` holds; empty until then.
        var spilled: [UInt64] = []

        /// Adds `key`.
        /// - Complexity: O(1) amortized.
        @inline(__always)
        mutating func append(_ key: UInt64) {
            if count < inline.count {
                inline[count] = key
            } else {
                if spilled.isEmpty { spilled.append(contentsOf: inline) }
                spilled.append(key)
            }
            count += 1
        }
    }

    /// The Hilbert value of an entry's centre on a 65,536 × 65,536 grid over the world.
    /// - Complexity: O(1).
    static func hilbertValue(_ entry: Entry) -> UInt32 {
        let x = UInt32(max(0, min(65_535, ((entry.west + entry.east) / 2 + 180) / 360 * 65_535)))
        let y = UInt32(max(0, min(65_535, ((entry.south + entry.north) / 2 + 90) / 180 * 65_535)))
        return hilbert(x, y)
    }

    /// The distance of (x, y) along the Hilbert curve of order 16 (the classic rotate-and-reflect walk).
    /// - Complexity: O(16).
    static func hilbert(_ x: UInt32, _ y: UInt32) -> UInt32 {
        var (x, y) = (x, y)
        var distance: UInt32 = 0
        var side: UInt32 = 1 << 15
        while side > 0 {
            let rx: UInt32 = (x & side) > 0 ? 1 : 0
            let ry: UInt32 = (y & side) > 0 ? 1 : 0
            distance &+= side &* side &* ((3 &* rx) ^ ry)
            if ry == 0 {
                if rx == 1 {
                    x = 65_535 &- x
                    y = 65_535 &- y
                }
                swap(&x, &y)
            }
            side >>= 1
        }
        return distance
    }
}
