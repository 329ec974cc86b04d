import CairnCore

/// The tiles of one zoom that shapes reach, with a buffer: what the tile export writes for the `shapes` layer.
///
/// A tile is reached when its square widened by the buffer meets a shape. For lines and points that is a tile an
/// edge or point meets (`addSegment`, `addPoint`: each edge walked row by row, its x-range in the row's buffered
/// band giving the columns). A polygon also fills the tiles whose buffered square lies inside it, which no edge
/// meets: a scanline through each row's centre (`addCrossings` per edge, then `fillInterior`) gives the intervals
/// inside the polygon by the even-odd rule (its exterior and its holes), and every tile whose centre lies in one is
/// taken. A tile no edge comes near is wholly inside or wholly outside, so its centre decides; a tile near an edge
/// is an edge's tile already, so rounding at the centre line cannot lose one. A tile inside a hole is not taken
/// (the clipper draws nothing there, `TileShapes.geometry`).
///
/// Work is O(v + t) for v vertices and t tiles taken: no tile of the shapes' extents is tested on its own (a
/// country at zoom 12 spans millions of tiles, most of them ocean). The cover is a superset of the tiles whose
/// `shapes` layer is not empty (the buffer is widened by `slack`; a tile taken that rounds to nothing is encoded
/// empty and left out by the export).
///
/// Columns wrap as the tiles draw shapes across the antimeridian: column -1 is the last column (drawn there one
/// world to the east), column 2^zoom the first; other columns and rows outside the world are dropped.
struct TileShapeCover {
    /// The zoom.
    let zoom: Int
    /// Tiles per side: 2^zoom.
    let tilesPerSide: Int
    /// The buffer in tile widths, widened by a slack above the rounding of tile coordinates at this zoom.
    let reachTiles: Double
    /// The tiles taken.
    private(set) var tiles: Set<TileAddress> = []
    /// Per row of the polygon being read (from `firstRow`), the x (in tiles) where its edges cross the row's
    /// centre line.
    private var crossings: [[Double]] = []
    /// The row of `crossings[0]`.
    private var firstRow = 0

    /// An empty cover of `zoom` for shapes drawn with `bufferTiles` tile widths around each tile.
    /// - Complexity: O(1).
    init(zoom: Int, bufferTiles: Double) {
        self.zoom = zoom
        tilesPerSide = 1 << zoom
        // Tile coordinates reach 2^zoom: their rounding grows with it.
        reachTiles = bufferTiles + 1e-9 + Double(tilesPerSide) * 1e-12
    }

    /// Takes the tile at column `column` (wrapped across the antimeridian once) and row `row`, if in the world.
    @inline(__always)
    private mutating func take(column: Int, row: Int) {
        let c = column == -1 ? tilesPerSide - 1 : (column == tilesPerSide ? 0 : column)
        if let tile = TileAddress(zoom: zoom, x: c, y: row) { tiles.insert(tile) }
    }

    /// Takes the columns whose buffered square meets x in `low...high`, in `row`.
    @inline(__always)
    private mutating func take(low: Double, high: Double, row: Int) {
        let first = Int(max(-2, (low - 1 - reachTiles).rounded(.up)))
        let last = Int(min(Double(tilesPerSide + 1), (high + reachTiles).rounded(.down)))
        guard first <= last else { return }
        for column in first...last { take(column: column, row: row) }
    }

    /// The rows whose buffered band meets y in `low...high`, within the world.
    @inline(__always)
    private func rows(low: Double, high: Double) -> ClosedRange<Int>? {
        let first = Int(max(0, (low - 1 - reachTiles).rounded(.up)))
        let last = Int(min(Double(tilesPerSide - 1), (high + reachTiles).rounded(.down)))
        return first <= last ? first...last : nil
    }

    /// Takes the tiles whose buffered square holds the point (x, y), in tiles.
    /// - Complexity: O(1).
    mutating func addPoint(x: Double, y: Double) {
        guard let rows = rows(low: y, high: y) else { return }
        for row in rows { take(low: x, high: x, row: row) }
    }

    /// Takes the tiles whose buffered square the segment (ax, ay)–(bx, by), in tiles, meets.
    /// - Complexity: O(r + t) for the r rows it spans and the t tiles taken.
    mutating func addSegment(ax: Double, ay: Double, bx: Double, by: Double) {
        guard let rows = rows(low: min(ay, by), high: max(ay, by)) else { return }
        let dx = bx - ax, dy = by - ay
        for row in rows {
            guard dy != 0 else {
                take(low: min(ax, bx), high: max(ax, bx), row: row)
                continue
            }
            // The part of the segment within the row's buffered band.
            let t0 = (Double(row) - reachTiles - ay) / dy, t1 = (Double(row) + 1 + reachTiles - ay) / dy
            let from = max(0, min(t0, t1)), to = min(1, max(t0, t1))
            guard from <= to else { continue }
            let x0 = ax + from * dx, x1 = ax + to * dx
            take(low: min(x0, x1), high: max(x0, x1), row: row)
        }
    }

    /// Starts a polygon whose vertices lie in rows `low...high` (in tiles): its edges' crossings are collected
    /// until `fillInterior()`.
    /// - Complexity: O(r) for the r rows.
    mutating func beginPolygon(low: Double, high: Double) {
        firstRow = Int(max(0, (low - 0.5).rounded(.up)))
        let last = Int(min(Double(tilesPerSide - 1), (high - 0.5).rounded(.up)))
        crossings = Array(repeating: [], count: max(0, last - firstRow + 1))
    }

    /// Records where the edge (ax, ay)–(bx, by) of the current polygon crosses rows' centre lines: a centre line
    /// y = row + ½ is crossed when it lies in [min y, max y) (a vertex on the line counts once).
    /// - Complexity: O(r) for the r rows it crosses.
    mutating func addCrossings(ax: Double, ay: Double, bx: Double, by: Double) {
        guard ay != by else { return }
        let low = min(ay, by), high = max(ay, by)
        let first = max(firstRow, Int((low - 0.5).rounded(.up)))
        let last = min(firstRow + crossings.count, Int((high - 0.5).rounded(.up))) - 1
        guard first <= last else { return }
        for row in first...last {
            let centre = Double(row) + 0.5
            crossings[row - firstRow].append(ax + (centre - ay) / (by - ay) * (bx - ax))
        }
    }

    /// Takes the tiles of the current polygon's rows whose centre lies inside it (even-odd over its rings).
    /// - Complexity: O(c log c + t) for c crossings and t tiles taken.
    mutating func fillInterior() {
        for (offset, var xs) in crossings.enumerated() where xs.count >= 2 {
            xs.sort()
            let row = firstRow + offset
            for pair in stride(from: 0, to: xs.count - 1, by: 2) {
                let first = max(0, Int((xs[pair] - 0.5).rounded(.up)))
                let last = min(tilesPerSide - 1, Int((xs[pair + 1] - 0.5).rounded(.down)))
                guard first <= last else { continue }
                for column in first...last { take(column: column, row: row) }
            }
        }
        crossings = []
    }
}
