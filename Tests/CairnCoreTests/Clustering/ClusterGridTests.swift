import Foundation
import Testing
@testable import CairnCore

@Suite("Grid clustering per viewport")
struct ClusterGridTests {
    /// Brute force: every point's screen pixel, its cell, then means per cell. A point is in view when its Web
    /// Mercator position is (latitudes beyond ±85.05° sit on the map's edge, as in `clusters(in:zoom:)`).
    func expected(_ points: [Coordinate], _ viewport: Viewport, cell: Double) -> [[Int]: (count: Int, x: Double, y: Double)] {
        let west = WebMercator.x(longitude: viewport.box.west)
        var east = WebMercator.x(longitude: viewport.box.east)
        if viewport.box.west > viewport.box.east { east += 1 }
        let north = WebMercator.y(latitude: viewport.box.north), south = WebMercator.y(latitude: viewport.box.south)
        var cells: [Int: [Int]] = [:]
        var xs: [Int: Double] = [:]
        for (i, p) in points.enumerated() {
            var x = p.longitude / 360 + 0.5
            if x >= 1 { x = 0 }
            if x < west { x += 1 }
            let y = WebMercator.y(latitude: p.latitude)
            // In view: between the edges in Web Mercator, edges included.
            guard x >= west, x <= east, y >= north, y <= south else { continue }
            let px = (x - west) * (Double(viewport.widthPixels) / (east - west))
            let py = (y - north) * (Double(viewport.heightPixels) / (south - north))
            let columns = Int((Double(viewport.widthPixels) / cell).rounded(.up)), rows = Int((Double(viewport.heightPixels) / cell).rounded(.up))
            let key = min(Int(py / cell), rows - 1) * columns + min(Int(px / cell), columns - 1)
            cells[key, default: []].append(i)
            xs[i] = x
        }
        var result: [[Int]: (Int, Double, Double)] = [:]
        for (_, members) in cells {
            let mx = members.reduce(0) { $0 + (xs[$1] ?? 0) } / Double(members.count)
            let my = members.reduce(0) { $0 + WebMercator.y(latitude: points[$1].latitude) } / Double(members.count)
            result[members.sorted()] = (members.count, mx >= 1 ? mx - 1 : mx, my)
        }
        return result
    }

    /// Grid clusters against brute force: the same cells with the same points, and means within `tolerance`.
    func expectExact(_ found: [GridCluster], _ want: [[Int]: (count: Int, x: Double, y: Double)], index: ClusterIndex,
                     tolerance: Double, _ label: String) throws {
        #expect(found.count == want.count, "\(label)")
        for c in found {
            let members = try c.members.flatMap { m in try m.clusterID.map { try index.leaves(of: $0, limit: .max) } ?? [m.pointIndex ?? -1] }.sorted()
            let w = try #require(want[members], "\(label): cluster of \(members.count) not expected")
            #expect(c.pointCount == w.count)
            let dx = abs(WebMercator.x(longitude: c.coordinate.longitude) - w.x)
            #expect(min(dx, 1 - dx) <= tolerance, "\(label)")
            #expect(abs(WebMercator.y(latitude: c.coordinate.latitude) - w.y) <= tolerance, "\(label)")
        }
    }

    @Test("one cluster per non-empty cell at the mean of its points, point by point and from the hierarchy, across the antimeridian too",
          arguments: [ClusterPrecision.float32, .float64])
    func cells(precision: ClusterPrecision) throws {
        var random = ClusterRandom(seed: 17)
        let points = random.clumpedCoordinates(600)
        let index = ClusterIndex(coordinates: points, options: try ClusterOptions(precision: precision))
        var viewports = try [BoundingBox(west: 24.0, south: 59.5, east: 26.0, north: 60.5),
                             BoundingBox(west: 170, south: -20, east: -170, north: 20),
                             BoundingBox(west: -180, south: -85, east: 180, north: 85),
                             // Boxes starting or ending on the antimeridian: clusters just across it hold points inside.
                             BoundingBox(west: -180, south: -10, east: -170, north: 10),
                             BoundingBox(west: 170, south: -10, east: 180, north: 10)].map {
            try Viewport(box: $0, widthPixels: 1024, heightPixels: 768)
        }
        for _ in 0..<150 {
            let centre = random.below(3) == 0 ? Coordinate(uncheckedLatitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
                : points[random.below(points.count)]
            viewports.append(try Viewport(center: centre, zoom: Double(random.below(19)), widthPixels: 100 + random.below(1400),
                                          heightPixels: 100 + random.below(1000)))
        }
        var placedWhole = 0
        for (k, view) in viewports.enumerated() {
            let cell = [60.0, 60, 25, 100, 7][k % 5]
            let options = try GridClusterOptions(cellSizePixels: cell)
            let want = expected(points, view, cell: cell)
            let label = "\(precision) \(view.box) \(view.widthPixels)x\(view.heightPixels) cell \(cell)"
            try expectExact(GridClustering.clusters(of: points, viewport: view, options: options), want, index: index, tolerance: 1e-12, label)
            let fromHierarchy = index.gridClusters(in: view, options: options)
            // The hierarchy's clusters hold the means of positions rounded to the precision.
            try expectExact(fromHierarchy, want, index: index, tolerance: precision == .float32 ? 0x1p-24 : 1e-12, label)
            if fromHierarchy.contains(where: { $0.members.contains { $0.clusterID != nil } }) { placedWhole += 1 }
        }
        // Whole clusters were placed (the hierarchy was used, not only its points) in many viewports.
        #expect(placedWhole > 30)
    }

    /// Points beyond ±85.05° sit on the map's north and south edges (y = 0 and 1). A viewport reaching an edge holds
    /// them all inside, so their clusters are placed whole there instead of opened down to every point (the slowest
    /// viewports of the bench were these). Heights that are whole numbers of cells make the last row full, so that
    /// the south edge is its edge too.
    @Test("points beyond the Mercator limit, in viewports reaching the map's edges, against brute force",
          arguments: [ClusterPrecision.float32, .float64])
    func mapEdges(precision: ClusterPrecision) throws {
        var random = ClusterRandom(seed: 29)
        let points = (0..<4_000).map { k in
            let polar = random.uniform(85.0511287798066, 90) // beyond the limit: on the edge
            let latitude = k % 4 == 0 ? polar : (k % 4 == 1 ? -polar : random.uniform(-90, 90))
            return Coordinate(uncheckedLatitude: latitude, longitude: random.uniform(-180, 180))
        } + [Coordinate(uncheckedLatitude: 90, longitude: 0), Coordinate(uncheckedLatitude: -90, longitude: 0)]
        let index = ClusterIndex(coordinates: points, options: try ClusterOptions(precision: precision))
        for k in 0..<60 {
            let latitude = k % 2 == 0 ? random.uniform(70, 89) : random.uniform(-89, -70)
            let height = [780, 768, 600, 120][k % 4], cell = [60.0, 60, 25, 7][k / 4 % 4]
            let view = try Viewport(center: Coordinate(uncheckedLatitude: latitude, longitude: random.uniform(-180, 180)),
                                    zoom: Double(1 + random.below(8)), widthPixels: 200 + random.below(900), heightPixels: height)
            let options = try GridClusterOptions(cellSizePixels: cell)
            let want = expected(points, view, cell: cell)
            let label = "\(precision) \(view.box) \(view.widthPixels)x\(view.heightPixels) cell \(cell)"
            let found = index.gridClusters(in: view, options: options, splitRow: 0)
            try expectExact(found, want, index: index, tolerance: precision == .float32 ? 0x1p-24 : 1e-12, label)
            let rows = Int((Double(height) / cell).rounded(.up))
            for split in Set([1, rows / 2, rows - 1]) {
                #expect(index.gridClusters(in: view, options: options, splitRow: split) == found, "\(label) split \(split)")
            }
        }
    }

    /// The rule at the map's edges, entry by entry: a cluster on y = 0 or y = 1 that reaches past the viewport's
    /// edge on the map side goes whole into the first or the last row (the bench's slowest viewports opened these
    /// down to every point), into no row of a band away from it, and across the band's edge it is opened.
    @Test("entries on the map's edges go whole into the first or the last row, full or partial")
    func mapEdgePlacement() throws {
        for height in [780, 768] { // the last row full (13 × 60) and partial (12.8)
            let view = try Viewport(box: try BoundingBox(west: -90, south: -85.05112877980659, east: 90, north: 85.05112877980659),
                                    widthPixels: 1200, heightPixels: height)
            let layout = GridCellLayout(viewport: view, cellSizePixels: 60)
            let reach = 3 / layout.scaleX // 3 pixels each way, half of it beyond the map's edge
            let lastRow = layout.rowCount - 1, column = 10, x = layout.west + 630 / layout.scaleX // mid column 10
            func cell(_ placement: GridCellLayout.Placement) -> Int? { if case .cell(let c, _) = placement { c } else { nil } }
            #expect(cell(layout.placement(x: x, y: 0, reachX: reach, reachY: reach)) == column)
            #expect(cell(layout.placement(x: x, y: 1, reachX: reach, reachY: reach)) == lastRow * layout.columnCount + column)
            // Bands: the north one has no point of y = 1, the south one none of y = 0; across the band edge: opened.
            let north = layout.band(0..<5)
            let south = layout.band(5..<layout.rowCount)
            for (band, y) in [(north, 1.0), (south, 0.0)] {
                if case .outside = band.placement(x: x, y: y, reachX: reach, reachY: reach) {} else { Issue.record("\(y): not outside the band") }
            }
            #expect(cell(south.placement(x: x, y: 1, reachX: reach, reachY: reach)) == lastRow * layout.columnCount + column)
            let onBandEdge = layout.north + 5 * 60 / layout.scaleY
            if case .split = north.placement(x: x, y: onBandEdge, reachX: reach, reachY: reach) {} else { Issue.record("band edge: not split") }
        }
    }

    @Test("a large viewport read on two threads gives what one thread gives")
    func automaticBands() throws {
        var random = ClusterRandom(seed: 43)
        let points = (0..<30_000).map { _ in Coordinate(uncheckedLatitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180)) }
        let index = ClusterIndex(coordinates: points)
        var oneThread = GridClusterOptions.standard
        oneThread.parallel = false
        for view in [try Viewport(box: .world, widthPixels: 1024, heightPixels: 1024),
                     try Viewport(center: Coordinate(uncheckedLatitude: 10, longitude: 170), zoom: 1, widthPixels: 1024, heightPixels: 768)] {
            let found = index.gridClusters(in: view)
            #expect(found == index.gridClusters(in: view, options: oneThread))
            #expect(found.reduce(0) { $0 + $1.pointCount } > 20_000)
        }
    }

    @Test("a box starting at -180 finds the points of clusters centred just west of it (review, 2026-11-25)")
    func boxStartingAtTheAntimeridian() throws {
        let points = [Coordinate(uncheckedLatitude: 0, longitude: 179.95), Coordinate(uncheckedLatitude: 0.01, longitude: 179.95),
                      Coordinate(uncheckedLatitude: 0, longitude: -179.99)]
        let index = ClusterIndex(coordinates: points)
        let view = try Viewport(box: try BoundingBox(west: -180, south: -10, east: -170, north: 10), widthPixels: 600, heightPixels: 600)
        try expectExact(index.gridClusters(in: view), expected(points, view, cell: 60), index: index, tolerance: 0x1p-24, "box at -180")
        #expect(index.gridClusters(in: view).map(\.pointCount) == [1])
    }

    @Test("a radius of a quarter of the world or more: clusters whose members wrapped are opened, not placed (review)")
    func hugeRadius() throws {
        let points = [144.0, -72, -36, -36, -36, -36, -36].map { Coordinate(uncheckedLatitude: 0, longitude: $0) }
        let index = ClusterIndex(coordinates: points, options: try ClusterOptions(radiusPixels: 300, minZoom: 0, maxZoom: 0))
        let view = try Viewport(box: .world, widthPixels: 100, heightPixels: 100)
        let options = try GridClusterOptions(cellSizePixels: 1000)
        try expectExact(index.gridClusters(in: view, options: options), expected(points, view, cell: 1000), index: index,
                        tolerance: 0x1p-24, "huge radius")
    }

    @Test("viewports without width or height, and bad zooms or tile sizes, are refused")
    func degenerateViewports() throws {
        #expect(throws: GridClusteringError.self) { try Viewport(box: try BoundingBox(west: 0, south: 0, east: 20, north: 0), widthPixels: 10, heightPixels: 10) }
        #expect(throws: GridClusteringError.self) { try Viewport(box: try BoundingBox(west: 5, south: 0, east: 5, north: 10), widthPixels: 10, heightPixels: 10) }
        // Both edges beyond the Mercator limit: no height on the map.
        #expect(throws: GridClusteringError.self) { try Viewport(box: try BoundingBox(west: 0, south: 86, east: 20, north: 89), widthPixels: 10, heightPixels: 10) }
        let origin = try Coordinate(latitude: 0, longitude: 0)
        for zoom in [Double.nan, .infinity, -1, 31] {
            #expect(throws: GridClusteringError.self) { try Viewport(center: origin, zoom: zoom, widthPixels: 10, heightPixels: 10) }
        }
        for tile in [0.0, -256, .nan, .infinity] {
            #expect(throws: GridClusteringError.self) { try Viewport(center: origin, zoom: 3, widthPixels: 10, heightPixels: 10, tileSizePixels: tile) }
        }
    }

    @Test("a viewport from a centre and zoom: the world at zoom 0, across the antimeridian, cut at the Mercator limit")
    func viewportFromCentreAndZoom() throws {
        let world = try Viewport(center: try Coordinate(latitude: 0, longitude: 0), zoom: 0, widthPixels: 256, heightPixels: 256)
        #expect(world.box.west == -180 && world.box.east == 180)
        #expect(abs(world.box.north - 85.0511287798) < 1e-9 && abs(world.box.south + 85.0511287798) < 1e-9)
        let fiji = try Viewport(center: try Coordinate(latitude: -17, longitude: 179.9), zoom: 10, widthPixels: 1024, heightPixels: 768)
        #expect(fiji.box.crossesAntimeridian)
        // 1024 px of 256-px tiles at zoom 10: a quarter tile of the 1024-tile world's width, 0.35 degrees.
        #expect(abs((fiji.box.east + 360 - fiji.box.west) - 360.0 * 1024 / (256 * 1024)) < 1e-9)
        let polar = try Viewport(center: try Coordinate(latitude: 89, longitude: 10), zoom: 6, widthPixels: 800, heightPixels: 600)
        #expect(abs(polar.box.north - 85.0511287798) < 1e-9 && !polar.box.crossesAntimeridian)
        #expect(throws: GridClusteringError.self) { try Viewport(center: try Coordinate(latitude: 0, longitude: 0), zoom: 3, widthPixels: 0, heightPixels: 10) }
        // And the other way: a box at a zoom is as many pixels as the map draws it.
        let sized = try Viewport(box: fiji.box, zoom: 10)
        #expect(sized.widthPixels == 1024 && abs(sized.heightPixels - 768) <= 1)
        #expect(throws: GridClusteringError.self) { try Viewport(box: .world, zoom: 10) } // 262,144 pixels wide
    }

    /// A grid of 16384² one-pixel cells keeps only its non-empty cells (a dense table would be about 10 GB), and
    /// gives what brute force gives.
    @Test func aHugeGridOfTinyCellsKeepsOnlyItsNonEmptyCells() throws {
        var random = ClusterRandom(seed: 23)
        let points = random.clumpedCoordinates(400)
        let viewport = try Viewport(box: try BoundingBox(west: -180, south: -85, east: 180, north: 85), widthPixels: 16_384, heightPixels: 16_384)
        var grid = GridClustering(viewport: viewport, options: try GridClusterOptions(cellSizePixels: 1))
        for (i, point) in points.enumerated() { grid.add(point, index: i) }
        #expect(grid.cellsHeld <= points.count)
        let found = grid.clusters()
        let want = expected(points, viewport, cell: 1)
        #expect(found.count == want.count)
        #expect(Set(found.map { $0.members.compactMap(\.pointIndex).sorted() }) == Set(want.keys))
    }

    /// A viewport much taller than wide on screen: the hierarchy level is chosen by the axis that magnifies
    /// most (it used to be the horizontal one only, and 11 points in 11 rows came out as one cluster).
    @Test func aTallViewportKeepsItsRowsApart() throws {
        let points = try (10...20).map { try Coordinate(latitude: Double($0), longitude: 5) }
        let index = ClusterIndex(coordinates: points)
        let viewport = try Viewport(box: try BoundingBox(west: 0, south: 0, east: 10, north: 80), widthPixels: 10, heightPixels: 8_000)
        #expect(index.gridClusters(in: viewport).map(\.pointCount) == Array(repeating: 1, count: 11))
    }

    @Test("the merge pass only merges: fewer clusters, the same points")
    func merge() throws {
        var random = ClusterRandom(seed: 23)
        let points = random.clumpedCoordinates(800)
        let viewport = try Viewport(box: try BoundingBox(west: 20, south: 55, east: 30, north: 65), widthPixels: 800, heightPixels: 600)
        let plain = GridClustering.clusters(of: points, viewport: viewport)
        let merged = GridClustering.clusters(of: points, viewport: viewport, options: try GridClusterOptions(mergeOverlapping: true))
        #expect(merged.count <= plain.count)
        #expect(merged.reduce(0) { $0 + $1.pointCount } == plain.reduce(0) { $0 + $1.pointCount })
        #expect(Set(merged.flatMap(\.members)) == Set(plain.flatMap(\.members)))
        #expect(throws: GridClusteringError.self) { try GridClusterOptions(cellSizePixels: 0) }
        #expect(throws: GridClusteringError.self) { try Viewport(box: .world, widthPixels: 0, heightPixels: 10) }
    }

    /// The grid's entry sort agrees with the standard sort, at every size and with high bits set.
    @Test func entrySortMatchesTheStandardSort() {
        var random = SeededRandom(seed: 7)
        for count in [0, 1, 64, 65, 1000, 20_000] {
            for mask in [UInt32(0x7FF), UInt32.max] {
                let entries = (0..<count).map { _ in UInt32(truncatingIfNeeded: random.next()) & mask }
                #expect(ClusterIndex.sortedEntries(entries) == entries.sorted(), "\(count) entries, mask \(mask)")
            }
        }
    }
}

@Suite("Grid clustering in bands of rows")
struct ClusterGridBandTests {
    /// Read in two bands of rows (as large viewports are, on two threads), the grid is the one pass's bit for bit:
    /// each cell sees the same entries in the same order. Boxes across the antimeridian, at the Mercator limit and
    /// of the whole world, cell sizes that do not divide the viewport, the merge pass, and splits at every row.
    @Test("two bands of rows give the one pass's clusters bit for bit, split at any row")
    func bandsEqualOnePass() throws {
        var random = ClusterRandom(seed: 41)
        // Points on the antimeridian too: those are placed one by one (by the exact rule, which must keep to the band).
        let points = random.clumpedCoordinates(3_000) + (0..<2_000).map { k in
            try! Coordinate(latitude: random.uniform(-85, 85), longitude: k % 10 == 0 ? 180 : random.uniform(-180, 180))
        }
        let index = ClusterIndex(coordinates: points)
        var views = try [Viewport(box: BoundingBox(west: 170, south: -40, east: -150, north: 30), widthPixels: 1024, heightPixels: 768),
                         Viewport(box: .world, widthPixels: 1024, heightPixels: 1024),
                         Viewport(box: BoundingBox(west: -20, south: 60, east: 40, north: 85), widthPixels: 800, heightPixels: 333)]
        for _ in 0..<12 {
            let center = points[random.below(points.count)]
            views.append(try Viewport(center: center, zoom: Double(random.below(8)), widthPixels: 300 + random.below(1200),
                                      heightPixels: 200 + random.below(900)))
        }
        var compared = 0
        for view in views {
            for options in [GridClusterOptions.standard, try GridClusterOptions(cellSizePixels: 37), try GridClusterOptions(mergeOverlapping: true)] {
                let one = index.gridClusters(in: view, options: options, splitRow: 0)
                let rows = Int((Double(view.heightPixels) / options.cellSizePixels).rounded(.up))
                for split in Set([1, rows / 2, rows - 1, rows + 5]) {
                    #expect(index.gridClusters(in: view, options: options, splitRow: split) == one, "\(view.box) \(options) split \(split)")
                }
                #expect(index.gridClusters(in: view, options: options) == one, "\(view.box) \(options)")
                compared += one.count
            }
        }
        #expect(compared > 1_000)
    }
}
