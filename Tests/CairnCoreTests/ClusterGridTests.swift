import Foundation
import Testing
@testable import CairnCore

@Suite("Grid clustering per viewport")
struct ClusterGridTests {
    /// Brute force: every point's screen pixel, its cell, then means per cell.
    func expected(_ points: [Coordinate], _ viewport: Viewport, cell: Double) -> [[Int]: (count: Int, x: Double, y: Double)] {
        let west = WebMercator.x(longitude: viewport.box.west)
        var east = WebMercator.x(longitude: viewport.box.east)
        if viewport.box.west > viewport.box.east { east += 1 }
        let north = WebMercator.y(latitude: viewport.box.north), south = WebMercator.y(latitude: viewport.box.south)
        var cells: [Int: [Int]] = [:]
        var xs: [Int: Double] = [:]
        for (i, p) in points.enumerated() where viewport.box.contains(p) {
            var x = p.longitude / 360 + 0.5
            if x >= 1 { x = 0 }
            if x < west { x += 1 }
            let px = (x - west) / (east - west) * Double(viewport.widthPixels)
            let py = (WebMercator.y(latitude: p.latitude) - north) / (south - north) * Double(viewport.heightPixels)
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

    @Test("one cluster per non-empty cell at the mean of its points, across the antimeridian too")
    func cells() throws {
        var random = ClusterRandom(seed: 17)
        let points = random.clumpedCoordinates(600)
        let index = ClusterIndex(coordinates: points)
        let boxes = [try BoundingBox(west: 24.0, south: 59.5, east: 26.0, north: 60.5),
                     try BoundingBox(west: 170, south: -20, east: -170, north: 20),
                     try BoundingBox(west: -180, south: -85, east: 180, north: 85)]
        for box in boxes {
            let viewport = try Viewport(box: box, widthPixels: 1024, heightPixels: 768)
            let want = expected(points, viewport, cell: 60)
            for found in [GridClustering.clusters(of: points, viewport: viewport),
                          index.gridClusters(in: viewport, precisionPixels: 0)] {
                #expect(found.count == want.count, "\(box)")
                for c in found {
                    // Groups of identical points come whole from the hierarchy.
                    let members = try c.members.flatMap { m in try m.clusterID.map { try index.leaves(of: $0, limit: .max) } ?? [m.pointIndex ?? -1] }.sorted()
                    let w = try #require(want[members], "\(box): cluster of \(members.count)")
                    #expect(c.pointCount == w.count)
                    #expect(abs(WebMercator.x(longitude: c.coordinate.longitude) - w.x).truncatingRemainder(dividingBy: 1) < 1e-9)
                    #expect(abs(WebMercator.y(latitude: c.coordinate.latitude) - w.y) < 1e-9)
                }
            }
            // Fed from the hierarchy: the same total as the level's entries in view.
            let coarse = index.gridClusters(in: viewport)
            #expect(coarse.reduce(0) { $0 + $1.pointCount } == coarse.flatMap(\.members).reduce(0) { $0 + $1.pointCount })
            #expect(coarse.count <= 13 * 18)
        }
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
