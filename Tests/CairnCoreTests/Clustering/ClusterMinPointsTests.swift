import Foundation
import Testing
@testable import CairnCore

@Suite("ClusterIndex with large minPoints and wide radii")
struct ClusterMinPointsTests {
    /// Clumped points (antimeridian, poles, duplicates) plus `identical` copies of one point near the antimeridian.
    static func points(seed: UInt64, count: Int, identical: Int = 0) -> [Coordinate] {
        var random = ClusterRandom(seed: seed)
        var points = random.clumpedCoordinates(count)
        let spot = Coordinate(uncheckedLatitude: -16.5, longitude: -179.999)
        points.append(contentsOf: repeatElement(spot, count: identical))
        // And a few at the poles' Mercator limit, beyond it, and on the antimeridian itself.
        points += [Coordinate(uncheckedLatitude: 90, longitude: 180), Coordinate(uncheckedLatitude: -90, longitude: -180),
                   Coordinate(uncheckedLatitude: 85.06, longitude: 179.9999), Coordinate(uncheckedLatitude: -85.06, longitude: -179.9999)]
        return points
    }

    /// minPoints relative to the point count n: above it, equal to it, just below it, about half, a tenth, and 40.
    static func minPoints(case k: Int, count n: Int) -> Int {
        max(1, [n + 1, n, n - 1, n / 2, n / 10, 40][k])
    }

    @Test("every level equals the oracle for minPoints near and above the point count", arguments: 0..<6)
    func oracle(minPointsCase: Int) throws {
        for (round, (count, identical)) in [(60, 0), (150, 40), (250, 200)].enumerated() {
            let points = Self.points(seed: 900 + UInt64(round), count: count, identical: identical)
            let n = points.count
            let minPoints = Self.minPoints(case: minPointsCase, count: n)
            for (radius, extent, wraps) in [(40.0, 512.0, true), (256.0, 256.0, true), (60.0, 256.0, false)] {
                let options = try ClusterOptions(radiusPixels: radius, extent: extent, minZoom: 0, maxZoom: 14, minPoints: minPoints,
                                                 wrapsAntimeridian: wraps)
                let index = ClusterIndex(coordinates: points, options: options)
                let oracle = ClusterOracle(points, options: options)
                for zoom in stride(from: options.maxZoom + 1, through: options.minZoom, by: -1) {
                    let problems = clusterDifferences(try index.oracleShaped(zoom: zoom), oracle.level(zoom, options: options))
                    #expect(problems.isEmpty, "case \(minPointsCase): minPoints \(minPoints), n \(n), radius \(radius)/\(extent) wraps \(wraps), zoom \(zoom): \(problems)")
                }
            }
        }
    }

    /// Whether builds count their neighbour visits (debug builds only).
    static var countsVisits: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    @Test("the build's neighbour visits do not grow with minPoints", .enabled(if: countsVisits, "counted in debug builds only"))
    func workIndependentOfMinPoints() throws {
        // Dense: 4,000 points within a few kilometres (and their duplicates), so that below some zoom every point is
        // in every other's neighbourhood. A level whose groups stay below minPoints keeps all its entries.
        var random = ClusterRandom(seed: 77)
        var points: [Coordinate] = []
        for _ in 0..<4_000 {
            points.append(Coordinate(uncheckedLatitude: 60.17 + random.uniform(-0.02, 0.02), longitude: 24.94 + random.uniform(-0.04, 0.04)))
        }
        let n = points.count
        func visits(_ minPoints: Int, radius: Double = 40, extent: Double = 512) throws -> Int {
            let options = try ClusterOptions(radiusPixels: radius, extent: extent, minPoints: minPoints)
            return ClusterIndex(coordinates: points, options: options).hierarchy.buildNeighbourVisits
        }
        let levels = ClusterOptions.standard.maxZoom - ClusterOptions.standard.minZoom + 1
        // Each level scans blocks around its centres only: a bounded number of visits per entry of the level, and a
        // level holds at most the n points.
        let bound = 8 * n * levels
        let few = try visits(2)
        #expect(few > 0)
        for minPoints in [3, 100, n / 2, n - 1, n] {
            let v = try visits(minPoints)
            #expect(v <= bound, "minPoints \(minPoints): \(v) visits, bound \(bound)")
            #expect(v <= 4 * few, "minPoints \(minPoints): \(v) visits, \(few) with minPoints 2")
        }
        // No group can reach more than n: nothing to scan at all.
        #expect(try visits(n + 1) == 0)
        // The widest radius allowed (the extent): at zoom 0 every point is everyone's neighbour.
        #expect(try visits(n, radius: 64, extent: 64) <= bound)
    }

    @Test("owners found by the centres' scans equal those found entry by entry, on crowded and sparse levels",
          arguments: [ClusterPrecision.float32, .float64])
    func ownersBothWays(precision: ClusterPrecision) throws {
        var random = ClusterRandom(seed: 4242)
        var crowdedSeen = false
        for round in 0..<24 {
            let wraps = round % 3 != 0
            let options = try ClusterOptions(minPoints: 1_000, precision: precision, wrapsAntimeridian: wraps)
            let zoom = random.below(17)
            let r = options.unitRadius(zoom: zoom)
            // Clumps a few radii wide (one on the antimeridian, one at the map's top edge) and scattered entries.
            let clumps = [(0.0, random.uniform(0.2, 0.8)), (random.uniform(0, 1), 0.0), (random.uniform(0, 1), random.uniform(0, 1))]
            var level = ClusterLevel()
            for i in 0..<(200 + random.below(1_500)) {
                var x: Double, y: Double
                if random.below(5) == 0 {
                    (x, y) = (random.unit(), random.unit())
                } else {
                    let c = clumps[random.below(clumps.count)], spread = r * [0.3, 1, 4][random.below(3)]
                    (x, y) = (c.0 + random.uniform(-spread, spread), min(1, max(0, c.1 + random.uniform(-spread, spread))))
                }
                if x < 0 { x += 1 } else if x >= 1 { x -= 1 }
                level.items.append(.init(x: x, y: y, key: UInt64(i) << 32, entry: UInt32(i), weight: 1 + UInt32(random.below(3))))
            }
            let grid = ClusterNeighbourGrid(level: level, radius: r, slack: precision.roundingReach)
            crowdedSeen = crowdedSeen || grid.sameCellPairs > ClusterLevelBuilder.crowdedCellPairsPerEntry * grid.count
            let test = ClusterReach(options: options, zoom: zoom)
            var visits = 0
            let byCentres = ClusterLevelBuilder.owners(grid, test: test, visits: &visits, byCentres: true)
            let byEntries = ClusterLevelBuilder.owners(grid, test: test, visits: &visits, byCentres: false)
            #expect(byCentres == byEntries, "round \(round) zoom \(zoom) wraps \(wraps)")
        }
        #expect(crowdedSeen)
    }

    @Test("a radius beyond the extent is refused, naming both; the extent itself and supercluster's defaults pass")
    func radiusAgainstExtent() throws {
        #expect(throws: ClusterOptionsError.radiusBeyondExtent(radius: 5000, extent: 64)) { try ClusterOptions(radiusPixels: 5000, extent: 64) }
        let message = ClusterOptionsError.radiusBeyondExtent(radius: 5000, extent: 64).description
        #expect(message.contains("5000") && message.contains("64"), "\(message)")
        _ = try ClusterOptions(radiusPixels: 64, extent: 64)
        _ = try ClusterOptions()
        #expect(ClusterOptions.standard == (try ClusterOptions()))
    }
}
