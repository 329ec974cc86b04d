import Foundation

/// Where the cells of a viewport's grid lie in Web Mercator, and which cell a point, or every point of an entry,
/// falls in. Cells are `cellSizePixels` squares from the viewport's north-west corner, numbered row by row; the
/// east and south edges belong to the last column and row. A layout may cover a band of the rows only (`bandRows`):
/// points of the other rows are then outside it.
struct GridCellLayout {
    /// Web Mercator x of the west edge and y of the north edge.
    let west: Double, north: Double
    /// Web Mercator x of the east edge (past 1 when the box crosses the antimeridian) and y of the south edge.
    let east: Double, south: Double
    /// Screen pixels per unit of Web Mercator x and y.
    let scaleX: Double, scaleY: Double
    /// The viewport's size and a cell's side, in pixels.
    let widthPixels: Double, heightPixels: Double, cellSizePixels: Double
    /// Cells per unit of Web Mercator x and y, and the viewport's size in cells (for `placement`).
    let cellsPerUnitX: Double, cellsPerUnitY: Double, widthCells: Double, heightCells: Double
    /// Whether x west of the box's west edge counts past 1 (the box crosses the antimeridian or ends on 180).
    let unwrapsEast: Bool
    /// Columns and rows of the whole grid.
    let columnCount: Int, rowCount: Int
    /// The rows covered, and their north and south edges in cells (the last row's south edge is the viewport's).
    private(set) var bandRows: Range<Int> = 0..<0
    private var bandNorth = 0.0, bandSouth = 0.0
    /// Whether no point can lie north of the viewport (its north edge is the map's, y = 0), or south of it (its
    /// south edge is the map's, y = 1): points beyond ±85.05° sit on those edges, and a cluster of them would
    /// otherwise always seem to cross the viewport's edge.
    private let northIsMapEdge: Bool, southIsMapEdge: Bool

    /// The layout of `cellSizePixels` cells over `viewport`, covering every row.
    /// - Complexity: O(1).
    init(viewport: Viewport, cellSizePixels: Double) {
        (west, east) = WebMercator.xArc(of: viewport.box)
        north = WebMercator.y(latitude: viewport.box.north)
        south = WebMercator.y(latitude: viewport.box.south)
        // Positive: a viewport's box has a width and a height on the map.
        scaleX = Double(viewport.widthPixels) / (east - west)
        scaleY = Double(viewport.heightPixels) / (south - north)
        widthPixels = Double(viewport.widthPixels)
        heightPixels = Double(viewport.heightPixels)
        self.cellSizePixels = cellSizePixels
        cellsPerUnitX = scaleX / cellSizePixels
        cellsPerUnitY = scaleY / cellSizePixels
        widthCells = widthPixels / cellSizePixels
        heightCells = heightPixels / cellSizePixels
        unwrapsEast = viewport.box.crossesAntimeridian || viewport.box.east == 180
        columnCount = max(1, Int(widthCells.rounded(.up)))
        rowCount = max(1, Int(heightCells.rounded(.up)))
        northIsMapEdge = north <= 0
        southIsMapEdge = south >= 1
        cover(0..<rowCount)
    }

    /// The same layout covering the rows of `band` only (clamped to the grid's rows).
    /// - Complexity: O(1).
    func band(_ band: Range<Int>) -> GridCellLayout {
        var layout = self
        layout.cover(band)
        return layout
    }

    /// Covers the rows of `band` (clamped to the grid's rows).
    private mutating func cover(_ band: Range<Int>) {
        bandRows = band.clamped(to: 0..<rowCount)
        bandNorth = Double(bandRows.lowerBound)
        bandSouth = bandRows.upperBound == rowCount ? heightCells : Double(bandRows.upperBound)
    }

    /// Cells in the grid (all of its rows).
    var cellCount: Int { columnCount * rowCount }

    /// The share of the unit square the viewport shows.
    var mapShare: Double { (east - west) * (south - north) }

    /// Web Mercator y of the band's north and south edges.
    var bandY: ClosedRange<Double> { north + bandNorth / cellsPerUnitY...north + bandSouth / cellsPerUnitY }

    /// Web Mercator x in [0, 1) as the viewport reads it: past 1 east of the antimeridian when the box crosses it
    /// (or ends on 180).
    @inline(__always)
    func unwrapped(_ x: Double) -> Double {
        unwrapsEast && x < west ? x + 1 : x
    }

    /// Screen position, in pixels from the north-west corner, of Web Mercator (x unwrapped, y).
    @inline(__always)
    func pixel(x: Double, y: Double) -> (x: Double, y: Double) {
        ((x - west) * scaleX, (y - north) * scaleY)
    }

    /// The cell a coordinate falls in, by its exact projection, with that projection (x unwrapped); nil outside the
    /// viewport or the rows covered. In the viewport is between its edges in Web Mercator, edges included (compared
    /// there, not in pixels, where the edge's own pixel can round past the viewport's size).
    /// - Complexity: O(1).
    func exactPlacement(of coordinate: Coordinate) -> (cell: Int, x: Double, y: Double)? {
        let p = ClusterPoints.position(of: coordinate, precision: .float64)
        let x = unwrapped(p.x)
        guard x >= west, x <= east, p.y >= north, p.y <= south else { return nil }
        let (px, py) = pixel(x: x, y: p.y) // non-negative; on the east and south edges the last column and row
        let column = min(Int(px / cellSizePixels), columnCount - 1), row = min(Int(py / cellSizePixels), rowCount - 1)
        guard bandRows.contains(row) else { return nil }
        return (row * columnCount + column, x, p.y)
    }

    /// Where the points of an entry go, decided by `placement(x:y:reachX:reachY:)`.
    enum Placement {
        /// None is in the viewport (or in the rows covered).
        case outside
        /// All are in this cell (the entry's x unwrapped as the viewport reads it).
        case cell(Int, x: Double)
        /// They may fall in several cells, or near the antimeridian: place them one by one.
        case split
    }

    /// Decides, from the entry's position and how far its points may lie from it along each axis, whether they all
    /// fall in one cell of the rows covered, all outside the viewport or those rows, or neither. Cells are monotone
    /// in the screen position, and the screen position in x and y, so the corners of that box decide (cut at the
    /// map's edges, beyond which no point lies). They are compared in cells (multiplications, no division), with a
    /// margin of `cellMargin` that covers the rounding by which this differs from `exactPlacement(of:)`: whatever is
    /// near an edge within the margin is split, and so placed by the exact rule.
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
        let u0 = cx - dx, u1 = cx + dx, v1 = cy + dy
        // At the map's north edge no point lies north of the viewport (y >= 0, and 0 is its exact pixel row 0).
        let v0 = northIsMapEdge ? max(cy - dy, 0) : cy - dy
        // At the map's south edge none lies south of it: whatever reaches the last row is in it.
        let southOpen = southIsMapEdge && bandRows.upperBound == rowCount
        if u1 < 0 || u0 > widthCells || v1 < bandNorth || v0 > bandSouth { return .outside }
        // Across the viewport's or the band's edge (or touching the viewport's east or south edge, whose points the
        // last cell takes, or the band's south edge, whose points the next row takes).
        guard u0 >= 0, u1 < widthCells, v0 >= bandNorth, v1 < bandSouth || southOpen else { return .split }
        // Non-negative and below the viewport's size: truncation is the floor, and cannot overflow (the min only
        // guards the last row).
        let column = Int(u0), row = min(Int(v0), rowCount - 1)
        guard u1 < Double(column + 1), v1 < Double(row + 1) || southOpen && row == rowCount - 1 else { return .split }
        return .cell(row * columnCount + column, x: unwrappedX)
    }

    /// The margin of `placement`, in cells: far above the few units in the last place by which its arithmetic (a
    /// multiplication by cells per unit, the extent scaled apart) and the pixel rule's (a division of pixels by the
    /// cell size) differ, at most 16,384 cells a side.
    static let cellMargin = 1e-9
}
