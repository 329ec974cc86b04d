import Foundation
import Testing
@testable import CairnCore

/// The build's loops that run on two threads on large inputs (activation bounds, owner decisions, the tree's
/// leaves) give exactly what one thread gives. The other clustering tests use inputs below the thresholds, so
/// these check the split itself: inputs above them, asserted to take the two-thread path.
@Suite("ClusterIndex build on two threads")
struct ClusterBuildThreadsTests {
    @Test("activation bounds on two threads equal those on one")
    func activationBounds() {
        var random = ClusterRandom(seed: 2026)
        let coordinates = random.clumpedCoordinates(40_000)
        let positions = ClusterPoints(coordinates: coordinates, options: .standard).positions
        #expect(positions.count >= ClusterActivation.parallelCount)
        let finest = ClusterActivation.threshold(radius: ClusterOptions.standard.unitRadius(zoom: 16))
        let two = ClusterActivation.nearestBounds(positions, finest: finest)
        let one = ClusterActivation.nearestBounds(positions, finest: finest, parallel: false)
        #expect(two == one)
        #expect(two.contains { $0 > 0 } && two.contains { $0 == 0 })
    }

    @Test("owners decided in two bands of rows equal those of the centres' own scans",
          arguments: [ClusterPrecision.float32, .float64])
    func ownersInBands(precision: ClusterPrecision) throws {
        var random = ClusterRandom(seed: 909)
        for round in 0..<4 {
            let wraps = round % 2 == 0
            let options = try ClusterOptions(precision: precision, wrapsAntimeridian: wraps)
            let zoom = [4, 7, 10, 13][round]
            let r = options.unitRadius(zoom: zoom)
            // Clumps a few radii wide (one on the antimeridian, some on the middle rows where the bands meet) and
            // scattered entries.
            let clumps = [(0.0, random.uniform(0.2, 0.8)), (random.unit(), 0.5), (random.unit(), 0.5 + 2 * r), (random.unit(), random.unit())]
            var level = ClusterLevel()
            for i in 0..<40_000 {
                var x: Double, y: Double
                if random.below(3) == 0 {
                    (x, y) = (random.unit(), random.unit())
                } else {
                    let c = clumps[random.below(clumps.count)], spread = r * [0.3, 1, 4, 30][random.below(4)]
                    (x, y) = (c.0 + random.uniform(-spread, spread), min(1, max(0, c.1 + random.uniform(-spread, spread))))
                }
                if x < 0 { x += 1 } else if x >= 1 { x -= 1 }
                level.items.append(.init(x: x, y: y, key: UInt64(i) << 32, entry: UInt32(i), weight: 1))
            }
            let grid = ClusterNeighbourGrid(level: level, radius: r, slack: precision.roundingReach)
            #expect(grid.count >= ClusterLevelBuilder.parallelOwnerCount && grid.rowBands() != nil)
            let test = ClusterReach(options: options, zoom: zoom)
            var visits = 0
            let byCentres = ClusterLevelBuilder.owners(grid, test: test, visits: &visits, byCentres: true)
            let inBands = ClusterLevelBuilder.owners(grid, test: test, visits: &visits, byCentres: false)
            #expect(byCentres == inBands, "round \(round) zoom \(zoom) wraps \(wraps)")
            #expect(Set(inBands).count < inBands.count, "round \(round): some entry is taken")
        }
    }

    @Test("a tree whose leaves were built on two threads returns exactly the entries inside viewports")
    func treeLeaves() throws {
        var random = ClusterRandom(seed: 31)
        var points = random.clumpedCoordinates(25_000)
        for _ in 0..<15_000 {
            points.append(Coordinate(uncheckedLatitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180)))
        }
        let index = ClusterIndex(coordinates: points)
        let h = index.hierarchy
        #expect(h.tree.slots.count / ClusterTree.nodeSize >= ClusterTree.parallelLeafCount)
        for zoom in 0...18 {
            let level = index.level(forZoom: zoom)
            let shown = ClusterTreeTests.shown(h, level: level)
            try #require(!shown.isEmpty)
            for round in 0..<6 {
                let a = index.node(ofEntry: shown[random.below(shown.count)]).coordinate
                let b = index.node(ofEntry: shown[random.below(shown.count)]).coordinate
                var west = min(a.longitude, b.longitude), east = max(a.longitude, b.longitude)
                if round % 3 == 1 { swap(&west, &east) }
                let box = try BoundingBox(west: west, south: min(a.latitude, b.latitude), east: east, north: max(a.latitude, b.latitude))
                let ranges = UnitXRanges(box)
                let y0 = WebMercator.y(latitude: box.north), y1 = WebMercator.y(latitude: box.south)
                let expected = shown.filter { h.y($0) >= y0 && h.y($0) <= y1 && ranges.contains(h.x($0)) }.map { index.node(ofEntry: $0) }
                #expect(Set(index.clusters(in: box, zoom: zoom)) == Set(expected), "zoom \(zoom) box \(box)")
            }
            #expect(Set(index.clusters(in: .world, zoom: zoom)) == Set(shown.map { index.node(ofEntry: $0) }))
        }
    }
}
