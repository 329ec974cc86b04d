import Foundation

/// A map viewport: the box shown and its size on screen.
public struct Viewport: Hashable, Sendable {
    /// The area shown (west above east crosses the antimeridian).
    public let box: BoundingBox
    /// Width on screen, in pixels.
    public let widthPixels: Int
    /// Height on screen, in pixels.
    public let heightPixels: Int

    /// Creates a viewport.
    /// - Throws: `GridClusteringError.invalidSize` when a side is not in 1...`maxSidePixels`, `.emptyBox` when the
    ///   box has no width or no height in Web Mercator.
    /// - Complexity: O(1).
    public init(box: BoundingBox, widthPixels: Int, heightPixels: Int) throws(GridClusteringError) {
        guard (1...Self.maxSidePixels).contains(widthPixels), (1...Self.maxSidePixels).contains(heightPixels) else {
            throw .invalidSize(width: widthPixels, height: heightPixels)
        }
        self.box = box
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        let span = Self.span(of: box)
        guard span.width > 0, span.height > 0 else { throw .emptyBox(box) }
    }

    /// The viewport of `box` on a map at `zoom` of `tileSizePixels`-pixel tiles: the box's Web Mercator size at
    /// that scale, in whole pixels.
    /// - Throws: `GridClusteringError.invalidZoom` unless 0 <= zoom <= 30, `.invalidTileSize` unless the tile size is
    ///   positive and finite, `.emptyBox`, and `.invalidSize` when a side rounds outside 1...`maxSidePixels`.
    /// - Complexity: O(1).
    public init(box: BoundingBox, zoom: Double, tileSizePixels: Double = 256) throws(GridClusteringError) {
        try Self.checkScale(zoom: zoom, tileSizePixels: tileSizePixels)
        let span = Self.span(of: box), scale = pow(2, zoom) * tileSizePixels
        guard span.width > 0, span.height > 0 else { throw .emptyBox(box) }
        // Sides beyond any accepted size are reported capped, so the conversion cannot overflow.
        func pixels(_ v: Double) -> Int { Int(min((v * scale).rounded(), 1e12)) }
        try self.init(box: box, widthPixels: pixels(span.width), heightPixels: pixels(span.height))
    }

    /// Refuses a zoom outside 0...30 and a tile size that is not a positive finite number of pixels.
    private static func checkScale(zoom: Double, tileSizePixels: Double) throws(GridClusteringError) {
        guard zoom >= 0, zoom <= 30 else { throw .invalidZoom(zoom) }
        guard tileSizePixels > 0, tileSizePixels.isFinite else { throw .invalidTileSize(tileSizePixels) }
    }

    /// A box's width and height in Web Mercator (unit-square) units; the width runs east across the antimeridian.
    private static func span(of box: BoundingBox) -> (width: Double, height: Double) {
        let arc = WebMercator.xArc(of: box)
        return (arc.east - arc.west, WebMercator.y(latitude: box.south) - WebMercator.y(latitude: box.north))
    }

    /// The viewport of a map centred on `center` at `zoom`, `widthPixels` × `heightPixels` pixels of
    /// `tileSizePixels`-pixel tiles (256 for raster tiles, 512 for vector tiles): its box crosses the antimeridian
    /// when it reaches past it, stops at the Mercator limit, and spans every longitude when wider than the world.
    /// - Throws: `GridClusteringError.invalidZoom` unless 0 <= zoom <= 30, `.invalidTileSize` unless the tile size is
    ///   positive and finite, `.invalidSize` when a side is not in 1...`maxSidePixels`.
    /// - Complexity: O(1).
    public init(center: Coordinate, zoom: Double, widthPixels: Int, heightPixels: Int, tileSizePixels: Double = 256)
        throws(GridClusteringError) {
        try Self.checkScale(zoom: zoom, tileSizePixels: tileSizePixels)
        let scale = pow(2, zoom) * tileSizePixels
        let x = WebMercator.x(longitude: center.longitude), y = WebMercator.y(latitude: center.latitude)
        let halfWidth = Double(widthPixels) / 2 / scale, halfHeight = Double(heightPixels) / 2 / scale
        var west = WebMercator.longitude(x: x - halfWidth), east = WebMercator.longitude(x: x + halfWidth)
        if east - west >= 360 { (west, east) = (-180, 180) }
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        let north = WebMercator.latitude(y: max(0, y - halfHeight)), south = WebMercator.latitude(y: min(1, y + halfHeight))
        // Corners of valid Mercator positions are valid coordinates; the world is the safe fallback.
        let box = (try? BoundingBox(west: west, south: south, east: east, north: north)) ?? .world
        try self.init(box: box, widthPixels: widthPixels, heightPixels: heightPixels)
    }

    /// The largest viewport side accepted, in pixels (16K screens; it bounds the grid's memory).
    public static let maxSidePixels = 16_384

    /// Web Mercator x of the west edge.
    var west: Double { WebMercator.x(longitude: box.west) }

    /// Screen pixels per unit of Web Mercator x.
    var pixelsPerUnit: Double { Double(widthPixels) / Self.span(of: box).width } // positive: the box has a width

    /// Screen pixels per unit of Web Mercator y.
    var pixelsPerUnitY: Double { Double(heightPixels) / Self.span(of: box).height } // positive: the box has a height
}

/// How grid clustering groups points on screen.
public struct GridClusterOptions: Hashable, Sendable {
    /// Cell width and height, in screen pixels.
    public var cellSizePixels: Double
    /// Whether a second pass merges clusters whose circles (one cell across) overlap.
    public var mergeOverlapping: Bool

    /// Creates options (KingPin's defaults: 60-pixel cells, no merge pass).
    /// - Throws: `GridClusteringError.invalidCellSize` unless the size is a finite number of pixels, at least 1.
    /// - Complexity: O(1).
    public init(cellSizePixels: Double = 60, mergeOverlapping: Bool = false) throws(GridClusteringError) {
        guard cellSizePixels.isFinite, cellSizePixels >= 1 else { throw .invalidCellSize(cellSizePixels) }
        self.cellSizePixels = cellSizePixels
        self.mergeOverlapping = mergeOverlapping
    }

    /// 60-pixel cells, no merge pass.
    public static let standard = GridClusterOptions(unchecked: ())
    private init(unchecked: Void) {
        cellSizePixels = 60
        mergeOverlapping = false
    }
}

/// One group of a grid clustering.
public struct GridCluster: Hashable, Sendable {
    /// The weighted mean of its points in Web Mercator.
    public let coordinate: Coordinate
    /// Where it sits on screen, in pixels from the viewport's west edge.
    public let pixelX: Double
    /// Where it sits on screen, in pixels from the viewport's north edge.
    public let pixelY: Double
    /// Points held.
    public let pointCount: Int
    /// What it groups: input points (by input position), or hierarchy clusters each placed whole (by id).
    public let members: [ClusterNode.Content]
}

/// Why grid clustering was refused.
public enum GridClusteringError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A viewport side is not a positive number of pixels.
    case invalidSize(width: Int, height: Int)
    /// The viewport's box has no width or no height on the map.
    case emptyBox(BoundingBox)
    /// The zoom is not a finite number in 0...30.
    case invalidZoom(Double)
    /// The tile size is not a positive finite number of pixels.
    case invalidTileSize(Double)
    /// The cell size is not a positive finite number of pixels.
    case invalidCellSize(Double)

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): "viewport sides must be 1 to \(Viewport.maxSidePixels) pixels, got \(w)x\(h)"
        case .emptyBox(let box): "a viewport's box must have a width and a height on the map (beyond ±85.05° is the map's edge), got \(box)"
        case .invalidZoom(let z): "zoom must be a number from 0 to 30, got \(z)"
        case .invalidTileSize(let s): "tile size must be a positive number of pixels, got \(s)"
        case .invalidCellSize(let s): "cell size must be at least 1 pixel, got \(s)"
        }
    }
}

/// Per-viewport grid clustering (as in the KingPin library): the viewport is cut into square cells of
/// `cellSizePixels`; each non-empty cell gives one cluster at the weighted mean of its points (in Web Mercator),
/// and an optional second pass merges, in cell order, each cluster into the first kept one whose circle it overlaps
/// (centres closer than one cell). Points on the viewport's edges are inside.
public struct GridClustering {
    private let options: GridClusterOptions
    private let west: Double, north: Double, scaleX: Double, scaleY: Double
    private let widthPixels: Double, heightPixels: Double
    /// Cells per unit of Web Mercator x and y, and the viewport's size in cells (for `placement`).
    private let cellsPerUnitX: Double, cellsPerUnitY: Double, widthCells: Double, heightCells: Double
    /// Whether x west of the box's west edge counts past 1 (the box crosses the antimeridian or ends on 180).
    private let unwrapsEast: Bool
    private let columns: Int, rows: Int
    /// A non-empty cell: its number and the sums of its entries.
    private struct Slot {
        let cell: Int
        var sumX = 0.0, sumY = 0.0, weight = 0

        mutating func add(x: Double, y: Double, weight w: Int) {
            sumX += x * Double(w)
            sumY += y * Double(w)
            weight += w
        }
    }

    /// The non-empty cells in the order they got their first entry.
    private var slots: [Slot] = []
    /// Every entry added, in order, with its slot (one flat list: per-cell lists cost two uniqueness checks and a
    /// growth check per entry; `clusters()` groups these once).
    private var placed: [(slot: Int32, member: ClusterNode.Content)] = []
    /// The slot of each cell (-1: empty) when the grid has at most `denseCellLimit` cells; otherwise the slots of
    /// the non-empty cells only, so that a huge grid of tiny cells costs memory for its points, not its cells.
    private var denseSlots: [Int32]
    private var sparseSlots: [Int: Int] = [:]

    /// Grids with more cells than this keep only their non-empty cells.
    static let denseCellLimit = 1 << 16

    /// Starts an empty grid over `viewport`.
    /// - Complexity: O(c) for c cells, at most `denseCellLimit`.
    public init(viewport: Viewport, options: GridClusterOptions = .standard) {
        self.options = options
        west = viewport.west
        north = WebMercator.y(latitude: viewport.box.north)
        scaleX = viewport.pixelsPerUnit
        scaleY = viewport.pixelsPerUnitY
        widthPixels = Double(viewport.widthPixels)
        heightPixels = Double(viewport.heightPixels)
        cellsPerUnitX = scaleX / options.cellSizePixels
        cellsPerUnitY = scaleY / options.cellSizePixels
        widthCells = widthPixels / options.cellSizePixels
        heightCells = heightPixels / options.cellSizePixels
        unwrapsEast = viewport.box.crossesAntimeridian || viewport.box.east == 180
        columns = max(1, Int(widthCells.rounded(.up)))
        rows = max(1, Int(heightCells.rounded(.up)))
        denseSlots = columns * rows <= Self.denseCellLimit ? Array(repeating: -1, count: columns * rows) : []
    }

    /// Adds an input point (by its position in the caller's input); ignored when outside the viewport.
    /// - Complexity: O(1) amortised.
    public mutating func add(_ coordinate: Coordinate, index: Int) {
        let p = ClusterPoints.position(of: coordinate, precision: .float64)
        let x = unwrapped(p.x), y = p.y
        guard let cell = cell(pixelX: (x - west) * scaleX, pixelY: (y - north) * scaleY) else { return }
        add(x: x, y: y, weight: 1, member: .point(index), cell: cell)
    }

    /// Adds a weighted entry at Web Mercator (x unwrapped as `unwrapped` gives it, y) to `cell`.
    @inline(__always)
    mutating func add(x: Double, y: Double, weight w: Int, member: ClusterNode.Content, cell: Int) {
        let slot = slot(ofCell: cell)
        slots[slot].add(x: x, y: y, weight: w)
        placed.append((Int32(slot), member))
    }

    /// Web Mercator x in [0, 1) as the viewport reads it: past 1 east of the antimeridian when the box crosses it
    /// (or ends on 180).
    private func unwrapped(_ x: Double) -> Double {
        unwrapsEast && x < west ? x + 1 : x
    }

    /// The cell holding screen position (px, py), nil outside the viewport (its edges are inside).
    private func cell(pixelX px: Double, pixelY py: Double) -> Int? {
        guard px >= 0, px <= widthPixels, py >= 0, py <= heightPixels else { return nil }
        return row(py) * columns + column(px)
    }

    /// The column of screen x `px` in 0...width (the east edge belongs to the last column).
    @inline(__always)
    private func column(_ px: Double) -> Int { min(Int(px / options.cellSizePixels), columns - 1) }

    /// The row of screen y `py` in 0...height (the south edge belongs to the last row).
    @inline(__always)
    private func row(_ py: Double) -> Int { min(Int(py / options.cellSizePixels), rows - 1) }

    /// Where the points of an entry go, decided by `placement(x:y:reachX:reachY:)`.
    enum Placement {
        /// None is in the viewport.
        case outside
        /// All are in this cell (the entry's x unwrapped as the viewport reads it).
        case cell(Int, x: Double)
        /// They may fall in several cells, or near the antimeridian: place them one by one.
        case split
    }

    /// Decides, from the entry's position and how far its points may lie from it along each axis, whether they all
    /// fall in one cell, all outside the viewport, or neither. Cells are monotone in the screen position, and the
    /// screen position in x and y, so the corners of that box decide. They are compared in cells (multiplications,
    /// no division), with a margin of `cellMargin` that covers the rounding by which this differs from
    /// `cell(pixelX:pixelY:)`: whatever is near an edge within the margin is split, and so placed by the exact rule.
    /// - Complexity: O(1).
    @inline(__always)
    func placement(x: Double, y: Double, reachX: Double, reachY: Double) -> Placement {
        // Room for the rounding of the subtractions below.
        let rx = reachX * (1 + 1e-9) + 1e-15, ry = reachY * (1 + 1e-9) + 1e-15
        // Near the antimeridian the points' x may wrap; beyond a quarter turn a centroid may sum members shifted by
        // a whole turn (taken the shorter way round) that the box would count unshifted: place those point by point.
        guard x - rx >= 0, x + rx < 1, rx < 0.25 else { return .split }
        var unwrappedX = x
        if unwrapsEast, x - rx < west {
            guard x + rx < west else { return .split } // across the west edge of a box over the antimeridian
            unwrappedX += 1
        }
        let cx = (unwrappedX - west) * cellsPerUnitX, dx = rx * cellsPerUnitX + Self.cellMargin
        let cy = (y - north) * cellsPerUnitY, dy = ry * cellsPerUnitY + Self.cellMargin
        let u0 = cx - dx, u1 = cx + dx, v0 = cy - dy, v1 = cy + dy
        if u1 < 0 || u0 > widthCells || v1 < 0 || v0 > heightCells { return .outside }
        // Across the viewport's edge (or touching its east or south edge, whose points the last cell takes).
        guard u0 >= 0, u1 < widthCells, v0 >= 0, v1 < heightCells else { return .split }
        // Non-negative and below the viewport's size: truncation is the floor, and cannot overflow.
        let column = Int(u0), row = Int(v0)
        guard u1 < Double(column + 1), v1 < Double(row + 1) else { return .split }
        return .cell(row * columns + column, x: unwrappedX)
    }

    /// The margin of `placement`, in cells: far above the few units in the last place by which its arithmetic (a
    /// multiplication by cells per unit, the extent scaled apart) and the pixel rule's (a division of pixels by the
    /// cell size) differ, at most 16,384 cells a side.
    static let cellMargin = 1e-9

    /// Makes room for `count` more entries, growing geometrically.
    /// - Complexity: amortised O(count).
    mutating func reserveCapacity(_ count: Int) {
        let needed = placed.count + count
        if placed.capacity < needed { placed.reserveCapacity(max(needed, 2 * placed.capacity)) }
    }

    /// Cells held in memory: every cell of a small grid, only the non-empty ones of a large one.
    /// - Complexity: O(1).
    var cellsHeld: Int { denseSlots.isEmpty ? sparseSlots.count : denseSlots.count }

    /// The slot of `cell`, made when the cell gets its first entry.
    @inline(__always)
    private mutating func slot(ofCell cell: Int) -> Int {
        if !denseSlots.isEmpty, denseSlots[cell] >= 0 { return Int(denseSlots[cell]) }
        return newSlot(ofCell: cell)
    }

    /// The slot of a cell of a sparse grid, or of an empty cell (made now).
    private mutating func newSlot(ofCell cell: Int) -> Int {
        if denseSlots.isEmpty, let slot = sparseSlots[cell] { return slot }
        let slot = slots.count
        if denseSlots.isEmpty { sparseSlots[cell] = slot } else { denseSlots[cell] = Int32(slot) }
        slots.append(Slot(cell: cell))
        return slot
    }

    /// The clusters, in cell order (rows from the north, columns from the west), merged when the options say so.
    /// - Complexity: O(k log k + k²) for k non-empty cells (the merge pass compares with the clusters kept).
    public func clusters() -> [GridCluster] {
        let members = membersBySlot()
        var kept: [(x: Double, y: Double, weight: Int, members: [ClusterNode.Content])] = []
        for slot in slots.indices.sorted(by: { slots[$0].cell < slots[$1].cell }) {
            let weight = slots[slot].weight
            let w = Double(weight)
            let x = slots[slot].sumX / w, y = slots[slot].sumY / w
            if options.mergeOverlapping {
                let px = (x - west) * scaleX, py = (y - north) * scaleY
                if let k = kept.firstIndex(where: { c in
                    let dx = (c.x - west) * scaleX - px, dy = (c.y - north) * scaleY - py
                    return dx * dx + dy * dy < options.cellSizePixels * options.cellSizePixels
                }) {
                    let total = kept[k].weight + weight
                    kept[k].x = (kept[k].x * Double(kept[k].weight) + x * w) / Double(total)
                    kept[k].y = (kept[k].y * Double(kept[k].weight) + y * w) / Double(total)
                    kept[k].weight = total
                    kept[k].members += members[slot]
                    continue
                }
            }
            kept.append((x, y, weight, members[slot]))
        }
        return kept.map { c in
            let wrapped = c.x >= 1 ? c.x - 1 : c.x
            return GridCluster(coordinate: WebMercator.coordinate(x: wrapped, y: c.y), pixelX: (c.x - west) * scaleX,
                               pixelY: (c.y - north) * scaleY, pointCount: c.weight, members: c.members)
        }
    }

    /// The members of each slot, in the order they were added.
    /// - Complexity: O(m + k) for m entries added to k cells.
    private func membersBySlot() -> [[ClusterNode.Content]] {
        // Where each slot's members start in one list grouped by slot (a counting sort, stable).
        var start = [Int](repeating: 0, count: slots.count + 1)
        for p in placed { start[Int(p.slot) + 1] += 1 }
        for slot in slots.indices { start[slot + 1] += start[slot] }
        var next = start
        let grouped = [ClusterNode.Content](unsafeUninitializedCapacity: placed.count) { buffer, initialized in
            for p in placed {
                buffer.initializeElement(at: next[Int(p.slot)], to: p.member)
                next[Int(p.slot)] += 1
            }
            initialized = placed.count
        }
        return slots.indices.map { Array(grouped[start[$0]..<start[$0 + 1]]) }
    }

    /// Grid clusters of bare coordinates (every point looked at once).
    /// - Complexity: O(n + c + k²).
    public static func clusters(of coordinates: [Coordinate], viewport: Viewport, options: GridClusterOptions = .standard) -> [GridCluster] {
        var grid = GridClustering(viewport: viewport, options: options)
        for (i, c) in coordinates.enumerated() { grid.add(c, index: i) }
        return grid.clusters()
    }
}

extension ClusterIndex {
    /// Grid clusters of the viewport, as `GridClustering.clusters(of:viewport:options:)` gives them over every
    /// input point: each point in the cell its own coordinate falls in, each cell's cluster at the mean of its
    /// points. Read from the hierarchy instead of point by point: from a level whose clusters are small beside a
    /// cell, a cluster whose extent (see `ClusterRecord.extent`) lies inside one cell is placed whole at
    /// its centroid, one wholly outside the viewport is skipped, and one that may cross a cell's or the viewport's
    /// edge is opened into its children, down to single points (a point within the rounding of an edge is placed
    /// by its exact projection). Counts and members are exact; a mean is exact but for the rounding of the
    /// positions the index holds (with `.float32` precision, under 2^-24 of the world, about 2 m).
    ///
    /// Members are listed in the order they are placed (round by round, points before clusters, each round in
    /// entry order, then the children of the clusters opened), so an edited index lists them as a rebuild does.
    /// - Complexity: O(log e + k) for the k entries read (put in entry order by a radix sort): those of the level in
    ///   view, plus the children of the clusters opened (those near cell edges), plus the grid's own cost.
    public func gridClusters(in viewport: Viewport, options gridOptions: GridClusterOptions = .standard) -> [GridCluster] {
        let h = hierarchy
        // Pixels per unit along the axis that magnifies most: a cluster must be small on screen in both directions.
        let scale = max(viewport.pixelsPerUnit, viewport.pixelsPerUnitY)
        var level = options.maxZoom + 1
        for zoom in options.minZoom...options.maxZoom
        where options.unitRadius(zoom: zoom) * scale <= gridOptions.cellSizePixels / Self.gridCellsPerRadius {
            level = zoom
            break
        }
        var grid = GridClustering(viewport: viewport, options: gridOptions)
        let y0 = WebMercator.y(latitude: viewport.box.north), y1 = WebMercator.y(latitude: viewport.box.south)
        let reach = largestExtent(atLevel: level)
        var found: [UInt32] = []
        h.tree.search(x: UnitXRanges(viewport.box, widenedBy: reach), y0: y0 - reach, y1: y1 + reach, zoom: level, hierarchy: h) { e in
            found.append(UInt32(e))
        }
        // Breadth first from the level's entries in entry order, not the tree's (which edits change): the sums, and
        // so the means, come out bit for bit as a rebuild's. Points and clusters go in lists of their own, and each
        // round reads what it needs of them in loops without branches, whose scattered loads overlap.
        var (points, clusters) = Self.split(Self.sortedEntries(found), leafCount: h.leafCount)
        while !points.isEmpty || !clusters.isEmpty {
            grid.reserveCapacity(points.count + clusters.count)
            // A point is placed by its position as held unless that is within the rounding of an edge; then by its
            // exact projection.
            for (e, p) in zip(points.lazy.map(Int.init), Self.positions(of: points, in: h)) {
                switch grid.placement(x: p.x, y: p.y, reachX: h.pointExtent, reachY: h.pointExtent) {
                case .outside: continue
                case .cell(let cell, let x): grid.add(x: x, y: p.y, weight: 1, member: .point(e), cell: cell)
                case .split: grid.add(self.points.coordinates[e], index: e)
                }
            }
            var opened: [Int] = []
            for (e, r) in zip(clusters, Self.records(of: clusters, in: h)) {
                switch grid.placement(x: r.x, y: r.y, reachX: r.extent.x, reachY: r.extent.y) {
                case .outside: continue
                case .cell(let cell, let x):
                    grid.add(x: x, y: r.y, weight: Int(r.weight), member: .cluster(h.id(ofEntry: Int(e))), cell: cell)
                case .split: opened.append(Int(e) - h.leafCount)
                }
            }
            (points, clusters) = Self.children(of: opened, in: h)
        }
        return grid.clusters()
    }

    /// The held positions of points `entries`, gathered in one pass.
    /// - Complexity: O(k) for k entries.
    private static func positions(of entries: [UInt32], in h: ClusterHierarchy) -> [ClusterPosition] {
        h.leafPositions.withUnsafeBufferPointer { table in gather(entries, offset: 0, from: table) }
    }

    /// The records of clusters `entries`, gathered in one pass (one cache line each).
    /// - Complexity: O(k) for k entries.
    private static func records(of entries: [UInt32], in h: ClusterHierarchy) -> [ClusterRecord] {
        h.clusters.withUnsafeBufferPointer { table in
            h.topZoom.withUnsafeBufferPointer { zooms in
                // The zoom of a cluster placed whole is read for its id soon after.
                gather(entries, offset: h.leafCount, from: table) { e in zooms.prefetch(e) }
            }
        }
    }

    /// `table[e - offset]` for each entry e, in one array, each row asked for `prefetchDistance` entries ahead: the
    /// rows lie at scattered places in tables of up to millions, and a load from memory takes about as long as a few
    /// dozen rows' work. `visit` sees each entry as its row is read.
    /// - Complexity: O(k) for k entries.
    @inline(__always)
    private static func gather<Row>(_ entries: [UInt32], offset: Int, from table: UnsafeBufferPointer<Row>,
                                    _ visit: (Int) -> Void = { _ in }) -> [Row] {
        .init(unsafeUninitializedCapacity: entries.count) { buffer, initialized in
            for (k, e) in entries.lazy.map(Int.init).enumerated() {
                if k + prefetchDistance < entries.count { table.prefetch(Int(entries[k + prefetchDistance]) - offset) }
                visit(e)
                buffer.initializeElement(at: k, to: table[e - offset])
            }
            initialized = entries.count
        }
    }

    /// The children of clusters `opened` (entry - leafCount), in order, as points and as clusters. They are copied
    /// in one pass before they are told apart (a branch on each loaded child made every load wait for the one
    /// before).
    /// - Complexity: O(c) for c children.
    private static func children(of opened: [Int], in h: ClusterHierarchy) -> (points: [UInt32], clusters: [UInt32]) {
        let lists = opened.map { h.childRange(ofCluster: $0) }
        let all = [UInt32](unsafeUninitializedCapacity: lists.reduce(0) { $0 + $1.count }) { buffer, initialized in
            h.children.withUnsafeBufferPointer { children in
                for (k, list) in lists.enumerated() {
                    if k + prefetchDistance < lists.count { children.prefetch(lists[k + prefetchDistance].lowerBound) }
                    for i in list {
                        buffer.initializeElement(at: initialized, to: children[i])
                        initialized += 1
                    }
                }
            }
        }
        return split(all, leafCount: h.leafCount)
    }

    /// `entries` as points and as clusters, each in the order given: counted, then copied (no appends).
    /// - Complexity: O(k) for k entries.
    private static func split(_ entries: [UInt32], leafCount n: Int) -> (points: [UInt32], clusters: [UInt32]) {
        let leafCount = UInt32(n)
        var pointCount = 0
        for e in entries where e < leafCount { pointCount += 1 }
        var points = [UInt32](repeating: 0, count: pointCount), clusters = [UInt32](repeating: 0, count: entries.count - pointCount)
        points.withUnsafeMutableBufferPointer { points in
            clusters.withUnsafeMutableBufferPointer { clusters in
                var p = 0, c = 0
                for e in entries {
                    if e < leafCount {
                        points[p] = e
                        p += 1
                    } else {
                        clusters[c] = e
                        c += 1
                    }
                }
            }
        }
        return (points, clusters)
    }

    /// How many rows ahead a gather asks for a row (16 to 32 measured best: 1.11-1.15 ms without, 0.97-1.03 ms with,
    /// for the zoom-4 grid on the million).
    static let prefetchDistance = 32

    /// How many cluster radii of the level read fit across a grid cell, at least: most of its clusters then lie
    /// inside one cell, and few are opened.
    static let gridCellsPerRadius = 4.0

    /// An upper bound on the extent (along either axis) of the entries shown at `level`: a point's is the rounding
    /// s; a cluster formed at zoom z reaches its children within 2·(r(z) + s) of its centroid, and theirs (formed at
    /// z + 1 or above) beyond them, so at most 4·r(z) + (2·(maxZoom − z + 1) + 1)·s. Storage rounds each level's
    /// bound up by a factor of at most 1 + ε (ε = 2^-7, `ClusterExtent.roundingFactor`), which compounds down the
    /// levels to at most (1 + ε)/(1 − ε) of that sum (under 1.016), widened a little more for the sums' own rounding.
    func largestExtent(atLevel level: Int) -> Double {
        let s = options.precision.roundingReach
        guard level <= options.maxZoom else { return s * (1 + 1e-6) + 1e-15 }
        let compounded = ClusterExtent.roundingFactor / (2 - ClusterExtent.roundingFactor) * (1 + 1e-6)
        return (4 * options.unitRadius(zoom: level) + Double(2 * (options.maxZoom - level + 1) + 1) * s) * compounded + 1e-15
    }

    /// Entry numbers in ascending order, by 11-bit counting passes, as many as the largest entry has digits (up to
    /// three; a comparison sort cost a quarter of a grid query's instructions).
    /// - Complexity: O(k + 2^11) per pass for k entries.
    static func sortedEntries(_ entries: [UInt32]) -> [UInt32] {
        guard entries.count > 64 else { return entries.sorted() }
        var source = entries, target = [UInt32](repeating: 0, count: entries.count)
        var counts = [Int](repeating: 0, count: 2049)
        // Only the digits the largest entry has (two passes below 2^22 entries).
        let bits = UInt32(32 - (entries.max() ?? 0).leadingZeroBitCount)
        for shift in stride(from: UInt32(0), to: bits, by: 11) {
            // In buffers: the array accesses' checks cost as much as the sort itself.
            let moved = counts.withUnsafeMutableBufferPointer { counts in
                source.withUnsafeBufferPointer { source in
                    target.withUnsafeMutableBufferPointer { target in
                        counts.update(repeating: 0)
                        for e in source { counts[Int((e >> shift) & 0x7FF) + 1] += 1 }
                        if counts[1] == source.count { return false } // every digit 0 here: already in order
                        for i in 1..<counts.count { counts[i] += counts[i - 1] }
                        for e in source {
                            let d = Int((e >> shift) & 0x7FF)
                            target[counts[d]] = e
                            counts[d] += 1
                        }
                        return true
                    }
                }
            }
            if moved { swap(&source, &target) }
        }
        return source
    }
}
