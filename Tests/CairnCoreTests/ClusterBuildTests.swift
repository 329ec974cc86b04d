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
        let bound = ClusterActivation.nearestBounds(x: points.x, y: points.y, finest: finest)
        var positive = 0
        for i in 0..<points.count {
            var nearest = Double.infinity
            for j in 0..<points.count where j != i {
                nearest = min(nearest, ClusterNeighbourGrid.distanceSquared(points.x[i], points.y[i], points.x[j], points.y[j]).squareRoot())
            }
            #expect(bound[i] <= nearest * (1 + 1e-12), "point \(i): bound \(bound[i]) above the nearest distance \(nearest)")
            if bound[i] > 0 { positive += 1 }
        }
        // The bound is useful: most scattered points get one.
        #expect(positive > points.count / 10)
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
}
