import Foundation
import Testing
@testable import CairnCore

/// The builder's shortcuts (points that nothing lies near are left out of the greedy passes; centres are decided in
/// cell order) against brute force, on layouts that make the nearest-point grid look again on finer grids.
@Suite("ClusterIndex build shortcuts")
struct ClusterBuildTests {
    /// Crowded blocks next to sparse points: a dense patch, a line of points at the Mercator limit (the same y),
    /// scattered points around both, and duplicates.
    static func crowded(_ random: inout ClusterRandom, count: Int) -> [Coordinate] {
        var result: [Coordinate] = []
        for k in 0..<count {
            let lat: Double, lon: Double
            switch k % 5 {
            case 0, 1: (lat, lon) = (48.85 + random.uniform(-0.002, 0.002), 2.35 + random.uniform(-0.002, 0.002))
            case 2: (lat, lon) = (88, -30 + random.uniform(-1, 1))
            case 3: (lat, lon) = (48.85 + random.uniform(-0.5, 0.5), 2.35 + random.uniform(-0.5, 0.5))
            default:
                if !result.isEmpty, random.below(3) == 0 {
                    result.append(result[random.below(result.count)])
                    continue
                }
                (lat, lon) = (random.uniform(-85, 85), random.uniform(-180, 180))
            }
            result.append(Coordinate(uncheckedLatitude: lat, longitude: lon))
        }
        return result
    }

    @Test("nearest-point bounds never exceed the true nearest distance, and are tight where points are alone",
          arguments: [5, 6, 7])
    func nearestBounds(seed: UInt64) throws {
        var random = ClusterRandom(seed: seed)
        let points = ClusterPoints(coordinates: Self.crowded(&random, count: 600), options: .standard)
        let finest = ClusterActivation.threshold(radius: ClusterOptions.standard.unitRadius(zoom: 16))
        let bound = ClusterActivation.nearestBounds(points.positions, finest: finest)
        var positive = 0
        for i in 0..<points.count {
            var nearest = Double.infinity
            for j in 0..<points.count where j != i {
                nearest = min(nearest, ClusterNeighbourGrid.distanceSquared(points.positions[i].x, points.positions[i].y, points.positions[j].x, points.positions[j].y).squareRoot())
            }
            #expect(bound[i] <= nearest * (1 + 1e-12), "point \(i): bound \(bound[i]) above the nearest distance \(nearest)")
            if bound[i] > 0 { positive += 1 }
        }
        // The bound is useful: most scattered points get one.
        #expect(positive > points.count / 10)
    }

    @Test("a stored extent is at least the value and at most 2^-7 above it, on each axis")
    func extentRounding() {
        var random = ClusterRandom(seed: 5)
        for _ in 0..<10_000 {
            let x = random.uniform(0, 1) * pow(2, -Double(random.below(40))), y = random.uniform(0, 0.3)
            let e = ClusterExtent(x: x, y: y)
            #expect(e.x >= x && e.x <= x * ClusterExtent.roundingFactor && e.y >= y && e.y <= y * ClusterExtent.roundingFactor)
        }
        #expect(ClusterExtent(x: 0x1p-24, y: 0).x == 0x1p-24 && ClusterExtent.zero.y == 0)
    }

    @Test("every cluster's extent reaches its points' exact projections along each axis, and is not far beyond 4 radii",
          arguments: [ClusterPrecision.float32, .float64])
    func extents(precision: ClusterPrecision) throws {
        var random = ClusterRandom(seed: 31)
        let points = random.clumpedCoordinates(500) + Self.crowded(&random, count: 300)
        let options = try ClusterOptions(precision: precision)
        let index = ClusterIndex(coordinates: points, options: options)
        let h = index.hierarchy
        #expect(h.clusterCount > 100)
        for e in h.leafCount..<h.entryCount {
            let leaves = try index.leaves(of: h.id(ofEntry: e), limit: .max)
            // Each leaf's exact projection, along each axis (x the shorter way round).
            let reaches = leaves.map { i in
                var x = WebMercator.x(longitude: points[i].longitude)
                if x >= 1 { x = 0 }
                let across = abs(h.x(e) - x)
                return (x: min(across, 1 - across), y: abs(h.y(e) - WebMercator.y(latitude: points[i].latitude)))
            }
            let extent = h.extent(e)
            #expect(reaches.allSatisfy { $0.x <= extent.x && $0.y <= extent.y }, "cluster \(e): a point beyond its extent \(extent)")
            // Not loose: within twice the farthest leaf on each axis (the bound adds up the children's own spread;
            // the worst measured is 1.64 times), plus the rounding of the positions held.
            let slack = 2 * precision.roundingReach + 1e-12
            #expect(extent.x <= 2 * (reaches.map(\.x).max() ?? 0) + slack && extent.y <= 2 * (reaches.map(\.y).max() ?? 0) + slack)
            if h.isIdenticalGroup(e) { continue }
            #expect(max(extent.x, extent.y) <= index.largestExtent(atLevel: Int(h.topZoom[e])))
        }
    }

    @Test("crowded layouts: every level equals the oracle", arguments: [0, 1, 2])
    func levels(optionSet: Int) throws {
        let options = [ClusterOptions.standard, try ClusterOptions(maxZoom: 18, minPoints: 3),
                       try ClusterOptions(radiusPixels: 60, extent: 256, minPoints: 6)][optionSet]
        var random = ClusterRandom(seed: 17 + UInt64(optionSet))
        let points = Self.crowded(&random, count: 400)
        let index = ClusterIndex(coordinates: points, options: options)
        let oracle = ClusterOracle(points, options: options)
        for zoom in stride(from: options.maxZoom + 1, through: options.minZoom, by: -1) {
            let problems = clusterDifferences(try index.oracleShaped(zoom: zoom), oracle.level(zoom, options: options))
            #expect(problems.isEmpty, "options \(optionSet) zoom \(zoom): \(problems)")
        }
    }

    @Test("small moves, applied in place when the layout holds, equal a rebuild table by table", arguments: [0, 1])
    func smallMoves(layout: Int) throws {
        var random = ClusterRandom(seed: 23 + UInt64(layout))
        var points = layout == 0 ? random.clumpedCoordinates(400)
            : (0..<400).map { _ in Coordinate(uncheckedLatitude: random.uniform(-60, 60), longitude: random.uniform(-30, 30)) }
        let options = try ClusterOptions(maxZoom: 18)
        var index = ClusterIndex(coordinates: points, options: options)
        var inPlace = 0
        for step in 0..<60 {
            let i = random.below(points.count)
            let metres = [5.0, 200, 3_000, 40_000][random.below(4)]
            let target = try destination(from: points[i], bearingDegrees: random.uniform(0, 360), distanceMeters: metres)
            let plan = ClusterIncrementalEdit(hierarchy: index.hierarchy, coordinates: index.points.coordinates, options: options,
                                              removedPoint: i, addedPoint: (target, i))
            if index.hierarchy.inPlacePairing(plan, movedPoint: i) != nil { inPlace += 1 }
            points[i] = target
            try index.move(at: i, to: target)
            let rebuilt = ClusterIndex(coordinates: points, options: options)
            let problems = ClusterIncrementalEditTests().differences(index.hierarchy, rebuilt.hierarchy)
            #expect(problems.isEmpty, "layout \(layout) step \(step): \(problems)")
            if !problems.isEmpty { return }
        }
        // Many small moves keep the layout, so the in-place path is tested here (as well as the full re-layout).
        #expect(inPlace >= 15)
    }
}
