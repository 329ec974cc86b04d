#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import CairnCore

/// The nearest search's trig-free bounds: the cosine table brackets cos φ, and searches keyed by those bounds still
/// return the oracle's answers where the bounds are loosest (wide boxes at the poles, the antimeridian) and where
/// order is decided by ties alone (rings of points at one distance).
@Suite("Nearest: trig-free node bounds")
struct PointIndexNearestBoundsTests {
    @Test("The cosine table's floor and ceiling bracket cos φ at every latitude, the table's steps included")
    func cosineTableBracketsCosine() {
        var random = IndexTestRandom(seed: 77)
        var latitudes = (0...900).map { Double($0) / 10 } + [0, 90, 89.99999999999999, 1e-300, 45.00000000000001]
        for _ in 0..<200_000 { latitudes.append(random.double(0...90)) }
        for latitude in latitudes {
            let exact = cos(latitude * Spherical.radiansPerDegree)
            #expect(NearestCosines.floor(atMost: latitude) <= exact, "floor at \(latitude)")
            #expect(NearestCosines.ceiling(atLeast: latitude) >= exact, "ceiling at \(latitude)")
            // Tight enough to order by: within one step of the table.
            #expect(NearestCosines.floor(atMost: latitude) >= cos(min(90, latitude + 0.1) * Spherical.radiansPerDegree) - 1e-9)
        }
    }

    @Test("Nearest-1, 20 and 100 on rings of ties around the poles and across the antimeridian", arguments: DistanceModel.allCases)
    func ringsOfTiesAtThePolesAndTheAntimeridian(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 808 : 909)
        var points: [Coordinate] = []
        // Rings at one latitude (every point the same distance from the pole), repeated points, and a band
        // either side of the antimeridian, so that whole leaves tie and boxes are wide near the poles.
        for ring in [89.9, 89.0, 85.0, -89.95, -87.5] {
            for step in 0..<120 { points.append(try Coordinate(latitude: ring, longitude: -180 + Double(step) * 3)) }
        }
        for _ in 0..<2_000 {
            let longitude = random.chance(0.5) ? random.double(179...180) : random.double(-180 ... -179)
            points.append(try Coordinate(latitude: random.double(-70...70), longitude: longitude))
        }
        for _ in 0..<200 { points.append(try Coordinate(latitude: 10, longitude: 180)) }
        for _ in 0..<1_000 { points.append(random.awkwardCoordinate()) }
        let index = PointIndex(points, bucketSize: 32)
        var centers = [try Coordinate(latitude: 90, longitude: 0), try Coordinate(latitude: -90, longitude: 77),
                       try Coordinate(latitude: 10, longitude: -180), try Coordinate(latitude: 10, longitude: 179.99),
                       try Coordinate(latitude: 89.9, longitude: 1.5), try Coordinate(latitude: 0, longitude: 0)]
        for _ in 0..<60 { centers.append(random.chance(0.5) ? points[random.int(0...(points.count - 1))] : random.awkwardCoordinate()) }
        var scratch = NearestScratch()
        var buffer: [Neighbor] = []
        for center in centers {
            for count in [1, 20, 100] {
                buffer.removeAll(keepingCapacity: true)
                index.nearest(to: center, count: count, model: model, into: &buffer, scratch: &scratch)
                #expect(buffer == Oracle.nearest(points, to: center, count: count, maxDistance: nil, model: model),
                        "\(model) k=\(count) at \(center)")
            }
        }
    }
}
