/// A map viewport: the box shown and its size on screen.
public struct Viewport: Hashable, Sendable {
    /// The area shown (west above east crosses the antimeridian).
    public let box: BoundingBox
    /// Width on screen, in pixels.
    public let widthPixels: Int
    /// Height on screen, in pixels.
    public let heightPixels: Int

    /// Creates a viewport.
    /// - Throws: `GridClusteringError.invalidSize` when a side is not in 1...`maxSidePixels`.
    /// - Complexity: O(1).
    public init(box: BoundingBox, widthPixels: Int, heightPixels: Int) throws(GridClusteringError) {
        guard (1...Self.maxSidePixels).contains(widthPixels), (1...Self.maxSidePixels).contains(heightPixels) else {
            throw .invalidSize(width: widthPixels, height: heightPixels)
        }
        self.box = box
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
    }

    /// The largest viewport side accepted, in pixels (16K screens; it bounds the grid's memory).
    public static let maxSidePixels = 16_384

    /// Web Mercator x of the west edge, and of the east edge unwrapped past 1 when the box crosses the antimeridian.
    var xRange: (west: Double, east: Double) {
        let w = WebMercator.x(longitude: box.west)
        var e = WebMercator.x(longitude: box.east)
        if box.crossesAntimeridian { e += 1 }
        return (w, e)
    }

    /// Screen pixels per unit of Web Mercator x.
    var pixelsPerUnit: Double {
        let (w, e) = xRange
        return e > w ? Double(widthPixels) / (e - w) : .infinity
    }

    /// Screen pixels per unit of Web Mercator y.
    var pixelsPerUnitY: Double {
        let north = WebMercator.y(latitude: box.north), south = WebMercator.y(latitude: box.south)
        return south > north ? Double(heightPixels) / (south - north) : .infinity
    }
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
    /// What it groups: input points, or hierarchy clusters each placed whole.
    public let members: [ClusterNode]
}

/// Why grid clustering was refused.
public enum GridClusteringError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A viewport side is not a positive number of pixels.
    case invalidSize(width: Int, height: Int)
    /// The cell size is not a positive finite number of pixels.
    case invalidCellSize(Double)

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): "viewport sides must be 1 to \(Viewport.maxSidePixels) pixels, got \(w)x\(h)"
        case .invalidCellSize(let s): "cell size must be at least 1 pixel, got \(s)"
        }
    }
}

/// Per-viewport grid clustering (as in the KingPin library): the viewport is cut into square cells of
/// `cellSizePixels`; each non-empty cell gives one cluster at the weighted mean of its points (in Web Mercator),
/// and an optional second pass merges, in cell order, each cluster into the first kept one whose circle it overlaps
/// (centres closer than one cell). Points on the viewport's edges are inside.
public struct GridClustering {
    private let viewport: Viewport
    private let options: GridClusterOptions
    private let west: Double, north: Double, scaleX: Double, scaleY: Double
    private let columns: Int, rows: Int
    /// Per non-empty cell (a slot, in the order cells got their first point): its cell number and sums.
    private var cellOfSlot: [Int] = [], sumX: [Double] = [], sumY: [Double] = [], weight: [Int] = []
    private var members: [[ClusterNode]] = []
    /// The slot of each cell (-1: empty) when the grid has at most `denseCellLimit` cells; otherwise the slots of
    /// the non-empty cells only, so that a huge grid of tiny cells costs memory for its points, not its cells.
    private var denseSlots: [Int32]
    private var sparseSlots: [Int: Int] = [:]

    /// Grids with more cells than this keep only their non-empty cells.
    static let denseCellLimit = 1 << 16

    /// Starts an empty grid over `viewport`.
    /// - Complexity: O(c) for c cells, at most `denseCellLimit`.
    public init(viewport: Viewport, options: GridClusterOptions = .standard) {
        self.viewport = viewport
        self.options = options
        let (w, e) = viewport.xRange
        west = w
        north = WebMercator.y(latitude: viewport.box.north)
        let south = WebMercator.y(latitude: viewport.box.south)
        scaleX = e > w ? Double(viewport.widthPixels) / (e - w) : 0
        scaleY = south > north ? Double(viewport.heightPixels) / (south - north) : 0
        columns = max(1, Int((Double(viewport.widthPixels) / options.cellSizePixels).rounded(.up)))
        rows = max(1, Int((Double(viewport.heightPixels) / options.cellSizePixels).rounded(.up)))
        denseSlots = columns * rows <= Self.denseCellLimit ? Array(repeating: -1, count: columns * rows) : []
    }

    /// Adds an input point (by its position in the caller's input); ignored when outside the viewport.
    /// - Complexity: O(1) amortised.
    public mutating func add(_ coordinate: Coordinate, index: Int) {
        var x = WebMercator.x(longitude: coordinate.longitude)
        if x >= 1 { x = 0 }
        add(x: x, y: WebMercator.y(latitude: coordinate.latitude), weight: 1, member: ClusterNode(content: .point(index), coordinate: coordinate, pointCount: 1))
    }

    /// Adds a weighted entry at Web Mercator (x, y); ignored when outside the viewport.
    mutating func add(x rawX: Double, y: Double, weight w: Int, member: ClusterNode) {
        var x = rawX
        if x < west, viewport.box.crossesAntimeridian || viewport.box.east == 180 { x += 1 }
        if x == 1, west == 0 { x = 0 }
        let px = (x - west) * scaleX, py = (y - north) * scaleY
        guard px >= 0, px <= Double(viewport.widthPixels), py >= 0, py <= Double(viewport.heightPixels) else { return }
        let column = min(Int(px / options.cellSizePixels), columns - 1)
        let row = min(Int(py / options.cellSizePixels), rows - 1)
        let cell = row * columns + column
        let slot = slot(ofCell: cell)
        sumX[slot] += x * Double(w)
        sumY[slot] += y * Double(w)
        weight[slot] += w
        members[slot].append(member)
    }

    /// Cells held in memory: every cell of a small grid, only the non-empty ones of a large one.
    /// - Complexity: O(1).
    var cellsHeld: Int { denseSlots.isEmpty ? sparseSlots.count : denseSlots.count }

    /// The slot of `cell`, made when the cell gets its first entry.
    private mutating func slot(ofCell cell: Int) -> Int {
        if !denseSlots.isEmpty, denseSlots[cell] >= 0 { return Int(denseSlots[cell]) }
        if denseSlots.isEmpty, let slot = sparseSlots[cell] { return slot }
        let slot = cellOfSlot.count
        if denseSlots.isEmpty { sparseSlots[cell] = slot } else { denseSlots[cell] = Int32(slot) }
        cellOfSlot.append(cell)
        sumX.append(0)
        sumY.append(0)
        weight.append(0)
        members.append([])
        return slot
    }

    /// The clusters, in cell order (rows from the north, columns from the west), merged when the options say so.
    /// - Complexity: O(k log k + k²) for k non-empty cells (the merge pass compares with the clusters kept).
    public func clusters() -> [GridCluster] {
        var kept: [(x: Double, y: Double, weight: Int, members: [ClusterNode])] = []
        for slot in cellOfSlot.indices.sorted(by: { cellOfSlot[$0] < cellOfSlot[$1] }) {
            let w = Double(weight[slot])
            let x = sumX[slot] / w, y = sumY[slot] / w
            if options.mergeOverlapping {
                let px = (x - west) * scaleX, py = (y - north) * scaleY
                if let k = kept.firstIndex(where: { c in
                    let dx = (c.x - west) * scaleX - px, dy = (c.y - north) * scaleY - py
                    return dx * dx + dy * dy < options.cellSizePixels * options.cellSizePixels
                }) {
                    let total = kept[k].weight + weight[slot]
                    kept[k].x = (kept[k].x * Double(kept[k].weight) + x * w) / Double(total)
                    kept[k].y = (kept[k].y * Double(kept[k].weight) + y * w) / Double(total)
                    kept[k].weight = total
                    kept[k].members += members[slot]
                    continue
                }
            }
            kept.append((x, y, weight[slot], members[slot]))
        }
        return kept.map { c in
            let wrapped = c.x >= 1 ? c.x - 1 : c.x
            return GridCluster(coordinate: WebMercator.coordinate(x: wrapped, y: c.y), pixelX: (c.x - west) * scaleX,
                               pixelY: (c.y - north) * scaleY, pointCount: c.weight, members: c.members)
        }
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
    /// Grid clusters of the viewport, fed from the hierarchy instead of every point: from the coarsest level whose
    /// cluster radius is at most `precisionPixels` on this screen (default: a quarter of a cell) (the points themselves when none is), each entry
    /// is placed whole by its centroid. Counts and means are exact; an entry near a cell edge may land in the
    /// neighbouring cell. A `precisionPixels` of 0 uses the points themselves (exact, but it reads every point in view).
    /// Members are listed in entry order (points in input order first).
    /// - Complexity: O(log e + k log k) for k entries of the chosen level in view, plus the grid's own cost.
    public func gridClusters(in viewport: Viewport, options gridOptions: GridClusterOptions = .standard,
                             precisionPixels: Double? = nil) -> [GridCluster] {
        let precision = precisionPixels ?? gridOptions.cellSizePixels / 4
        // Pixels per unit along the axis that magnifies most: a cluster must be small on screen in both directions.
        let scale = max(viewport.pixelsPerUnit, viewport.pixelsPerUnitY)
        var level = options.maxZoom + 1
        if precision > 0, scale.isFinite {
            for zoom in options.minZoom...options.maxZoom where options.unitRadius(zoom: zoom) * scale <= precision {
                level = zoom
                break
            }
        }
        var grid = GridClustering(viewport: viewport, options: gridOptions)
        let y0 = WebMercator.y(latitude: viewport.box.north), y1 = WebMercator.y(latitude: viewport.box.south)
        // Added in entry order, not the tree's (which edits change): the sums, and so the means, come out
        // bit for bit as a rebuild's.
        var found: [UInt32] = []
        hierarchy.tree.search(x: UnitXRanges(viewport.box), y0: y0, y1: y1, zoom: level, hierarchy: hierarchy) { e in
            found.append(UInt32(e))
        }
        for e in Self.sortedEntries(found).lazy.map(Int.init) {
            grid.add(x: hierarchy.x(e), y: hierarchy.y(e), weight: Int(hierarchy.weight[e]), member: node(ofEntry: e))
        }
        return grid.clusters()
    }

    /// Entry numbers in ascending order, by three 11-bit counting passes (a comparison sort cost a quarter of a
    /// grid query's instructions).
    /// - Complexity: O(k) for k entries (below 2^33).
    static func sortedEntries(_ entries: [UInt32]) -> [UInt32] {
        guard entries.count > 64 else { return entries.sorted() }
        var source = entries, target = entries
        var counts = [Int](repeating: 0, count: 2049)
        for shift in stride(from: UInt32(0), to: 33, by: 11) {
            for i in counts.indices { counts[i] = 0 }
            for e in source { counts[Int((e >> shift) & 0x7FF) + 1] += 1 }
            if counts[1] == source.count { continue } // every digit 0 here: already in order
            for i in 1..<counts.count { counts[i] += counts[i - 1] }
            for e in source {
                let d = Int((e >> shift) & 0x7FF)
                target[counts[d]] = e
                counts[d] += 1
            }
            swap(&source, &target)
        }
        return source
    }
}
