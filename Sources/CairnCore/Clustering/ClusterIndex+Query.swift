import Foundation

/// A clustering entry placed in a map tile, in tile pixels (0...extent, beyond it for the buffer around the tile).
public struct ClusterTileFeature: Hashable, Sendable {
    /// The cluster or point.
    public let node: ClusterNode
    /// Pixels from the tile's west edge.
    public let tileX: Int
    /// Pixels from the tile's north edge.
    public let tileY: Int
    /// The exact position before rounding, in tile widths from the tile's west edge (0...1 is the tile; negative
    /// or past 1 in the buffer): a vector tile scales it to its own extent, so it rounds once, not twice.
    public let tileFractionX: Double
    /// The exact position before rounding, in tile heights from the tile's north edge (downward).
    public let tileFractionY: Double

    /// An entry at `tileX`, `tileY` pixels, exactly at `tileFractionX`, `tileFractionY` tile widths.
    /// - Complexity: O(1).
    public init(node: ClusterNode, tileX: Int, tileY: Int, tileFractionX: Double, tileFractionY: Double) {
        self.node = node
        self.tileX = tileX
        self.tileY = tileY
        self.tileFractionX = tileFractionX
        self.tileFractionY = tileFractionY
    }
}

extension ClusterIndex {
    /// The clusters and single points shown at `zoom` inside `box` (a box across the antimeridian works). The same
    /// set for the same points and options, edited or rebuilt; the order is spatial but otherwise unspecified: up to
    /// `blockLevelLimit`, cell by cell of the level's block grid (rows from the north, west to east), within a cell
    /// in the tree's order; above it, the tree's order (by the zoom at which entries formed and the zooms from which
    /// they show, then spatially; entries changed by edits since the last build last). Zooms below `minZoom` read
    /// `minZoom`; zooms above `maxZoom` show single points (groups of identical points stay clusters).
    /// - Complexity: O(log e + k) for k results among e entries (up to `blockLevelLimit`, O(c + k) for c grid
    ///   cells met, after an O(e) build of the level's grid at its first query).
    public func clusters(in box: BoundingBox, zoom: Int) -> [ClusterNode] {
        var result: [ClusterNode] = []
        result.reserveCapacity(64)
        forEachCluster(in: box, zoom: zoom) { result.append($0) }
        return result
    }

    /// Calls `body` with each cluster or point `clusters(in:zoom:)` returns, without building an array of nodes.
    /// - Complexity: O(log e + k) for k results among e entries (see `clusters(in:zoom:)`).
    public func forEachCluster(in box: BoundingBox, zoom: Int, _ body: (ClusterNode) -> Void) {
        forEachEntry(in: box, zoom: zoom) { _, node in body(node) }
    }

    /// How many entries (points and clusters) the hierarchy holds: every entry number `forEachEntry` gives is below it.
    /// - Complexity: O(1).
    public var entryCount: Int { hierarchy.entryCount }

    /// Calls `body` with each cluster or point `clusters(in:zoom:)` returns, in the same order, and its entry number:
    /// a dense number in `0..<entryCount` naming the entry within this index value (a point's is its input
    /// position), so that a caller can keep data per entry in an array rather than a table keyed by id. An edit
    /// gives another index value, whose numbers mean other entries.
    /// - Complexity: O(log e + k) for k results among e entries (see `clusters(in:zoom:)`).
    public func forEachEntry(in box: BoundingBox, zoom: Int, _ body: (_ entry: Int, _ node: ClusterNode) -> Void) {
        forEachPart(in: box, zoom: zoom, block: { forEachEntry(in: $0, body) }, entry: body)
    }

    /// What `forEachEntry(in:zoom:_:)` gives, in the same order, with each run of entries that is a whole cell of
    /// the level's block grid (up to `blockLevelLimit`) given once as a `ClusterBlock` to `block`, the others one
    /// by one to `entry`: a writer keeps a block's bytes and copies them whole into the answers that cover it.
    /// - Complexity: O(c + k) for c grid cells met and k entries in the cells the box cuts, plus the blocks; above
    ///   `blockLevelLimit`, O(log e + k) for k results.
    public func forEachPart(in box: BoundingBox, zoom: Int, block: (ClusterBlock) -> Void,
                            entry body: (_ entry: Int, _ node: ClusterNode) -> Void) {
        let y0 = WebMercator.y(latitude: box.north), y1 = WebMercator.y(latitude: box.south)
        let ranges = UnitXRanges(box), level = level(forZoom: zoom)
        if let grid = blockGrid(level: level), grid.canWalk(ranges) {
            grid.walk(x: ranges, y0: y0, y1: y1, whole: { cell, positions in
                block(ClusterBlock(level: level, cell: cell, cellCount: grid.cellCount, grid: grid, positions: positions))
            }, single: { i in
                let e = Int(grid.entries[i])
                body(e, node(atSlot: Int(grid.slots[i]), entry: e))
            })
            return
        }
        // Slots first, nodes after: the nodes' scattered reads overlap.
        var found: [UInt32] = []
        found.reserveCapacity(64)
        hierarchy.tree.forEachEntry(x: ranges, y0: y0, y1: y1, zoom: level, hierarchy: hierarchy) { s, _ in
            found.append(UInt32(truncatingIfNeeded: s))
        }
        for s in found {
            let e = hierarchy.tree.entry(atSlot: Int(s))
            body(e, node(atSlot: Int(s), entry: e))
        }
    }

    /// Calls `body` with each entry of `block` (which a query of this index value gave) and its node, in order.
    /// - Complexity: O(k) for the block's k entries.
    public func forEachEntry(in block: ClusterBlock, _ body: (_ entry: Int, _ node: ClusterNode) -> Void) {
        let grid = block.grid
        for i in block.positions {
            let e = Int(grid.entries[i])
            body(e, node(atSlot: Int(grid.slots[i]), entry: e))
        }
    }

    /// The node of the entry in tree slot `s`, its coordinate read from the tree's cache when it has one.
    @inline(__always)
    private func node(atSlot s: Int) -> ClusterNode {
        node(atSlot: s, entry: hierarchy.tree.entry(atSlot: s))
    }

    /// The node of entry `e`, which tree slot `s` holds.
    @inline(__always)
    private func node(atSlot s: Int, entry e: Int) -> ClusterNode {
        let h = hierarchy
        if e < h.leafCount {
            return ClusterNode(content: .point(e), coordinate: points.coordinates[e], pointCount: 1)
        }
        guard let coordinate = h.tree.cachedCoordinate(atSlot: s) else { return node(ofEntry: e) }
        return ClusterNode(content: .cluster(h.id(ofEntry: e)), coordinate: coordinate, pointCount: Int(h.weight(e)))
    }

    /// The entries a cluster splits into one zoom above its own, in that level's order.
    /// - Throws: `ClusterError.unknownCluster` for an id this index does not hold.
    /// - Complexity: O(log c + k) for k children.
    public func children(of id: ClusterID) throws(ClusterError) -> [ClusterNode] {
        let e = try entry(of: id)
        return hierarchy.childEntries(of: e).map { node(ofEntry: Int($0)) }
    }

    /// The input points a cluster holds (positions in the input), depth first in children order,
    /// skipping `offset` and returning at most `limit` (supercluster's `getLeaves`).
    /// - Throws: `ClusterError.unknownCluster` for an id this index does not hold.
    /// - Complexity: O(log c + offset + limit) plus the clusters walked.
    public func leaves(of id: ClusterID, limit: Int = 10, offset: Int = 0) throws(ClusterError) -> [Int] {
        let e = try entry(of: id)
        var result: [Int] = []
        guard limit > 0 else { return result }
        result.reserveCapacity(min(limit, Int(hierarchy.weight(e))))
        var skip = max(0, offset)
        var stack: [Int] = [e]
        let h = hierarchy
        while let top = stack.popLast() {
            if top < h.leafCount {
                if skip > 0 { skip -= 1; continue }
                result.append(top)
                if result.count == limit { break }
                continue
            }
            if skip >= Int(h.weight(top)) {
                skip -= Int(h.weight(top))
                continue
            }
            for child in h.childEntries(of: top).reversed() { stack.append(Int(child)) }
        }
        return result
    }

    /// The zoom at which a cluster splits into several entries, or `.identicalPoints` when it holds points at
    /// identical coordinates only (it then never splits: list its leaves instead).
    /// - Throws: `ClusterError.unknownCluster` for an id this index does not hold.
    /// - Complexity: O(log c) plus the single-child chain walked.
    public func expansionZoom(of id: ClusterID) throws(ClusterError) -> ClusterExpansion {
        var e = try entry(of: id)
        let h = hierarchy
        while true {
            if h.isIdenticalGroup(e) { return .identicalPoints }
            let kids = h.childEntries(of: e)
            if kids.count != 1 || Int(kids[kids.startIndex]) < h.leafCount { return .zoom(Int(h.topZoom[e]) + 1) }
            e = Int(kids[kids.startIndex])
        }
    }

    /// The aggregates of a cluster or point.
    /// - Complexity: O(a + c) for a numeric attributes and c categories.
    public func aggregates(of node: ClusterNode) throws(ClusterError) -> ClusterAggregates {
        try aggregates(of: node.content)
    }

    /// The aggregates of a point (by input position) or a cluster (by id), e.g. a grid cluster's member.
    /// - Throws: `ClusterError.pointOutOfRange` or `.unknownCluster`.
    /// - Complexity: O(a + c) for a numeric attributes and c categories.
    public func aggregates(of content: ClusterNode.Content) throws(ClusterError) -> ClusterAggregates {
        let e: Int
        switch content {
        case .point(let i):
            guard i >= 0, i < count else { throw .pointOutOfRange(i, count: count) }
            e = i
        case .cluster(let id): e = try entry(of: id)
        }
        return hierarchy.aggregates.aggregates(ofEntry: e, weight: Int(hierarchy.weight(e)), leafCount: hierarchy.leafCount,
                                               options: options, names: points.categoryNames)
    }

    /// The entries of map tile (z, x, y) with their positions in tile pixels, including those within the cluster
    /// radius outside the tile (so symbols at tile edges are drawn whole), as supercluster's `getTile` does.
    /// - Complexity: O(log e + k) for k entries.
    public func tile(z: Int, x: Int, y: Int) -> [ClusterTileFeature] {
        guard z >= 0, z <= 30 else { return [] }
        let z2 = Double(1 << z)
        guard x >= 0, y >= 0, Double(x) < z2, Double(y) < z2 else { return [] }
        let p = options.radiusPixels / options.extent
        let top = (Double(y) - p) / z2, bottom = (Double(y) + 1 + p) / z2
        let zoom = level(forZoom: z)
        var result: [ClusterTileFeature] = []
        func add(_ ranges: UnitXRanges, xOffset: Double) {
            hierarchy.tree.forEachEntry(x: ranges, y0: top, y1: bottom, zoom: zoom, hierarchy: hierarchy) { s, e in
                // A point is drawn at its exact projection (as supercluster draws it), a cluster at its centroid.
                let p = e < hierarchy.leafCount ? ClusterPoints.position(of: points.coordinates[e], precision: .float64)
                    : ClusterPosition(x: hierarchy.x(e), y: hierarchy.y(e))
                // Exact: z2 is a power of two and the offsets whole, so a neighbour's fraction differs by exactly 1.
                let fx = p.x * z2 - xOffset, fy = p.y * z2 - Double(y)
                let tx = floor(options.extent * fx + 0.5)
                let ty = floor(options.extent * fy + 0.5)
                result.append(ClusterTileFeature(node: node(atSlot: s), tileX: Int(tx), tileY: Int(ty),
                                                 tileFractionX: fx, tileFractionY: fy))
            }
        }
        add(UnitXRanges((Double(x) - p) / z2, (Double(x) + 1 + p) / z2), xOffset: Double(x))
        if x == 0 { add(UnitXRanges(1 - p / z2, 1), xOffset: z2) }
        if Double(x) == z2 - 1 { add(UnitXRanges(0, p / z2), xOffset: -1) }
        return result
    }

    func entry(of id: ClusterID) throws(ClusterError) -> Int {
        guard let e = hierarchy.entry(of: id) else { throw .unknownCluster(id) }
        return e
    }

    func node(ofEntry e: Int) -> ClusterNode {
        let h = hierarchy
        if e < h.leafCount {
            return ClusterNode(content: .point(e), coordinate: points.coordinates[e], pointCount: 1)
        }
        // A group of identical points sits at their coordinate, not at its (rounded) projection's inverse.
        let coordinate = h.isIdenticalGroup(e) ? points.coordinates[Int(h.childEntries(of: e).first ?? 0)]
            : WebMercator.coordinate(x: h.x(e), y: h.y(e))
        return ClusterNode(content: .cluster(h.id(ofEntry: e)), coordinate: coordinate, pointCount: Int(h.weight(e)))
    }
}
