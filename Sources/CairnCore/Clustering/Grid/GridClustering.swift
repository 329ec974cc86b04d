import Foundation

/// Per-viewport grid clustering (as in the KingPin library): the viewport is cut into square cells of
/// `cellSizePixels`; each non-empty cell gives one cluster at the weighted mean of its points (in Web Mercator),
/// and an optional second pass merges, in cell order, each cluster into the first kept one whose circle it overlaps
/// (centres closer than one cell). Points on the viewport's edges are inside.
public struct GridClustering {
    private let options: GridClusterOptions
    /// Where its cells lie, and which rows it covers.
    let layout: GridCellLayout

    /// The sums of a cell's entries.
    private struct Sums {
        var x = 0.0, y = 0.0, weight = 0

        @inline(__always)
        mutating func add(x px: Double, y py: Double, weight w: Int) {
            x += px * Double(w)
            y += py * Double(w)
            weight += w
        }
    }

    /// Whether every cell has its sums (the slot of a cell is the cell), or only the non-empty cells of a grid with
    /// more than `denseCellLimit` cells (so that a huge grid of tiny cells costs memory for its points, not its
    /// cells).
    private let isDense: Bool
    /// The sums of each slot.
    private var slots: [Sums]
    /// Sparse grids: the slot of each non-empty cell, and the cell of each slot.
    private var sparseSlots: [Int: Int] = [:]
    private var sparseCells: [Int] = []
    /// Every entry added, in order, with its slot (one flat list: per-cell lists cost two uniqueness checks and a
    /// growth check per entry; `clusters()` groups these once).
    private var placed: [(slot: Int32, member: ClusterNode.Content)] = []

    /// Grids with more cells than this keep only their non-empty cells.
    static let denseCellLimit = 1 << 16

    /// Starts an empty grid over `viewport`.
    /// - Complexity: O(c) for c cells, at most `denseCellLimit`.
    public init(viewport: Viewport, options: GridClusterOptions = .standard) {
        self.init(layout: GridCellLayout(viewport: viewport, cellSizePixels: options.cellSizePixels), options: options)
    }

    /// Starts an empty grid over `layout` (its cell size the options'); entries outside the rows it covers are
    /// outside the grid.
    /// - Complexity: O(c) for c cells (of the whole grid), at most `denseCellLimit`.
    init(layout: GridCellLayout, options: GridClusterOptions) {
        self.options = options
        self.layout = layout
        isDense = layout.cellCount <= Self.denseCellLimit
        slots = isDense ? Array(repeating: Sums(), count: layout.cellCount) : []
    }

    /// Adds an input point (by its position in the caller's input); ignored when outside the viewport.
    /// - Complexity: O(1) amortised.
    public mutating func add(_ coordinate: Coordinate, index: Int) {
        guard let p = layout.exactPlacement(of: coordinate) else { return }
        add(x: p.x, y: p.y, weight: 1, member: .point(index), cell: p.cell)
    }

    /// Adds a weighted entry at Web Mercator (x unwrapped as the layout reads it, y) to `cell`.
    private mutating func add(x: Double, y: Double, weight w: Int, member: ClusterNode.Content, cell: Int) {
        let slot = isDense ? cell : sparseSlot(ofCell: cell)
        slots[slot].add(x: x, y: y, weight: w)
        placed.append((Int32(slot), member))
    }

    /// Adds the entries of `source`, in order: each whole to the cell all its points fall in, none when all fall
    /// outside the viewport, and otherwise as `source.exactCoordinate` says (a point by its exact projection; a cluster not
    /// now). Returns the positions of the entries split and not placed (the clusters to open).
    /// - Complexity: O(k) amortised for k entries.
    @inline(__always)
    mutating func place<Source: GridEntrySource>(_ source: Source) -> [Int] {
        var deferred: [Int] = []
        let needed = placed.count + source.count
        if placed.capacity < needed { placed.reserveCapacity(max(needed, 2 * placed.capacity)) }
        @inline(__always) func decide(_ k: Int) -> (cell: Int, x: Double, y: Double, weight: Int)? {
            let e = source.entry(k)
            switch layout.placement(x: e.x, y: e.y, reachX: e.reachX, reachY: e.reachY) {
            case .outside: return nil
            case .cell(let cell, let x): return (cell, x, e.y, e.weight)
            case .split:
                if let c = source.exactCoordinate(k) { return layout.exactPlacement(of: c).map { ($0.cell, $0.x, $0.y, 1) } }
                deferred.append(k)
                return nil
            }
        }
        guard isDense else {
            for k in 0..<source.count {
                if let d = decide(k) { add(x: d.x, y: d.y, weight: d.weight, member: source.member(k), cell: d.cell) }
            }
            return deferred
        }
        // Sums by cell, through a buffer: taken out of `self` meanwhile, so no access checks the whole grid.
        var sums = slots, list = placed
        (slots, placed) = ([], [])
        sums.withUnsafeMutableBufferPointer { sums in
            for k in 0..<source.count {
                guard let d = decide(k) else { continue }
                sums[d.cell].add(x: d.x, y: d.y, weight: d.weight)
                list.append((Int32(truncatingIfNeeded: d.cell), source.member(k)))
            }
        }
        (slots, placed) = (sums, list)
        return deferred
    }

    /// The slot of a cell of a sparse grid, made when the cell gets its first entry.
    private mutating func sparseSlot(ofCell cell: Int) -> Int {
        if let slot = sparseSlots[cell] { return slot }
        let slot = slots.count
        sparseSlots[cell] = slot
        sparseCells.append(cell)
        slots.append(Sums())
        return slot
    }

    /// Cells held in memory: every cell of a small grid, only the non-empty ones of a large one.
    /// - Complexity: O(1).
    var cellsHeld: Int { slots.count }

    /// The clusters, in cell order (rows from the north, columns from the west), merged when the options say so.
    /// - Complexity: O(m + c + k log k + k²) for m entries added, c cells (of a dense grid) and k non-empty cells
    ///   (the merge pass compares with the clusters kept).
    public func clusters() -> [GridCluster] {
        Self.clusters(ofCells: cellClusters(), layout: layout, options: options)
    }

    /// One non-empty cell's cluster before the merge pass: its mean (x unwrapped as the layout reads it), weight and
    /// members.
    typealias CellCluster = (x: Double, y: Double, weight: Int, members: [ClusterNode.Content])

    /// The cluster of each non-empty cell, in cell order.
    /// - Complexity: O(m + c + k log k) for m entries added, c cells (of a dense grid) and k non-empty cells.
    func cellClusters() -> [CellCluster] {
        let members = membersBySlot()
        return slotsInCellOrder().map { slot in
            let w = Double(slots[slot].weight)
            return (slots[slot].x / w, slots[slot].y / w, slots[slot].weight, Array(members[slot]))
        }
    }

    /// The grid's clusters from its cells' (in cell order; they may come from grids over bands of its rows, the
    /// bands in order): each merged, when the options say so, into the first kept one whose circle it overlaps.
    /// - Complexity: O(k) for k cells, O(k²) with the merge pass.
    static func clusters(ofCells cells: [CellCluster], layout: GridCellLayout, options: GridClusterOptions) -> [GridCluster] {
        var kept: [CellCluster] = []
        if options.mergeOverlapping {
            let cellSquared = options.cellSizePixels * options.cellSizePixels
            for c in cells {
                let p = layout.pixel(x: c.x, y: c.y)
                if let k = kept.firstIndex(where: { k in
                    let q = layout.pixel(x: k.x, y: k.y)
                    return (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) < cellSquared
                }) {
                    let total = kept[k].weight + c.weight
                    kept[k].x = (kept[k].x * Double(kept[k].weight) + c.x * Double(c.weight)) / Double(total)
                    kept[k].y = (kept[k].y * Double(kept[k].weight) + c.y * Double(c.weight)) / Double(total)
                    kept[k].weight = total
                    kept[k].members += c.members
                } else {
                    kept.append(c)
                }
            }
        } else {
            kept = cells
        }
        return kept.map { c in
            let wrapped = c.x >= 1 ? c.x - 1 : c.x
            let p = layout.pixel(x: c.x, y: c.y)
            return GridCluster(coordinate: WebMercator.coordinate(x: wrapped, y: c.y), pixelX: p.x, pixelY: p.y,
                               pointCount: c.weight, members: c.members)
        }
    }

    /// The non-empty slots, in the order of their cells.
    /// - Complexity: O(c) for a dense grid's c cells, O(k log k) for a sparse grid's k non-empty cells.
    private func slotsInCellOrder() -> [Int] {
        isDense ? slots.indices.filter { slots[$0].weight > 0 } : slots.indices.sorted { sparseCells[$0] < sparseCells[$1] }
    }

    /// The members of each slot, in the order they were added: slices of one list grouped by slot.
    /// - Complexity: O(m + s) for m entries added and s slots.
    private func membersBySlot() -> [ArraySlice<ClusterNode.Content>] {
        // Where each slot's members start in the grouped list (a counting sort, stable).
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
        return slots.indices.map { grouped[start[$0]..<start[$0 + 1]] }
    }

    /// Grid clusters of bare coordinates (every point looked at once).
    /// - Complexity: O(n + c + k²).
    public static func clusters(of coordinates: [Coordinate], viewport: Viewport, options: GridClusterOptions = .standard) -> [GridCluster] {
        var grid = GridClustering(viewport: viewport, options: options)
        for (i, c) in coordinates.enumerated() { grid.add(c, index: i) }
        return grid.clusters()
    }
}
