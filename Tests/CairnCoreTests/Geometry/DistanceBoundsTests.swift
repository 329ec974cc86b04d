import Foundation
import Testing
@testable import CairnCore

/// Property tests of the pruning geometry on its own: each bound is checked against the exact distance of
/// many sampled points, so a wrong bound fails here even when the index tests happen not to reach it.
@Suite("Pruning bounds")
struct DistanceBoundsTests {
    static func randomRectangle(_ random: inout IndexTestRandom, near center: Coordinate) -> PointIndex.Frame {
        let spanLatitude = random.chance(0.5) ? random.double(0...2) : random.double(0...60)
        let spanLongitude = random.chance(0.5) ? random.double(0...2) : random.double(0...200)
        let south = (center.latitude + random.double(-30...30) - spanLatitude / 2).clamped(to: -90...90)
        let north = min(90, south + spanLatitude)
        let west = (center.longitude + random.double(-100...100)).clamped(to: -180...180)
        let east = min(180, west + spanLongitude)
        return PointIndex.Frame(lo: 0, hi: 0, axis: 0, minLongitude: west, minLatitude: south, maxLongitude: east, maxLatitude: north)
    }

    static func samples(_ frame: PointIndex.Frame, _ random: inout IndexTestRandom) -> [Coordinate] {
        var points: [Coordinate] = []
        let steps = 6
        for i in 0...steps {
            for j in 0...steps {
                points.append(Coordinate(
                    uncheckedLatitude: frame.minLatitude + (frame.maxLatitude - frame.minLatitude) * Double(i) / Double(steps),
                    longitude: frame.minLongitude + (frame.maxLongitude - frame.minLongitude) * Double(j) / Double(steps)))
            }
        }
        for _ in 0..<20 {
            points.append(Coordinate(uncheckedLatitude: random.double(frame.minLatitude...frame.maxLatitude),
                                     longitude: random.double(frame.minLongitude...frame.maxLongitude)))
        }
        return points
    }

    @Test("a rectangle taken whole by a circle query lies wholly inside the circle", arguments: DistanceModel.allCases)
    func containsWhole(model: DistanceModel) {
        var random = IndexTestRandom(seed: 1_001)
        var taken = 0
        for _ in 0..<3_000 {
            let center = random.awkwardCoordinate()
            let radius = random.chance(0.5) ? random.double(100_000...9_000_000) : random.radiusMeters()
            let test = CircleTest(latitude: center.latitude, longitude: center.longitude, radiusMeters: radius, model: model)
            let frame = Self.randomRectangle(&random, near: center)
            guard test.containsWhole(frame) else { continue }
            taken += 1
            for point in Self.samples(frame, &random) {
                #expect(distanceMeters(from: center, to: point, model: model) <= radius, "\(frame) around \(center) r=\(radius)")
            }
        }
        #expect(taken > 100)
    }

    @Test("the bracket holds every point of the circle; accepted points are inside, rejected ones outside", arguments: DistanceModel.allCases)
    func bracketAndThresholds(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: 1_002)
        for _ in 0..<1_500 {
            let center = random.awkwardCoordinate()
            let radius = random.radiusMeters()
            let test = CircleTest(latitude: center.latitude, longitude: center.longitude, radiusMeters: radius, model: model)
            for _ in 0..<8 {
                let point = try destination(from: center, bearingDegrees: random.double(0...360),
                                            distanceMeters: radius * (random.chance(0.5) ? random.double(0.995...1.005) : random.double(0...1.02)), model: model)
                let inside = distanceMeters(from: center, to: point, model: model) <= radius
                if inside {
                    #expect(point.latitude >= test.south && point.latitude <= test.north && test.longitudes.contains(point.longitude),
                            "\(point) inside r=\(radius) of \(center) but outside the bracket")
                }
                let h = test.haversine(point.latitude, point.longitude)
                if h <= test.acceptHaversine { #expect(inside) }
                if h > test.rejectHaversine { #expect(!inside) }
            }
        }
    }

    @Test("the node lower bound is below the distance to every point of the rectangle", arguments: DistanceModel.allCases)
    func nodeLowerBound(model: DistanceModel) {
        var random = IndexTestRandom(seed: 1_003)
        let bounds = DistanceBounds(model)
        for _ in 0..<2_000 {
            let center = random.awkwardCoordinate()
            let frame = Self.randomRectangle(&random, near: random.chance(0.5) ? center : random.awkwardCoordinate())
            let h = Spherical.minimumHaversine(
                latitude: center.latitude, longitude: center.longitude,
                cosLatitude: cos(center.latitude * Spherical.radiansPerDegree),
                minLongitude: frame.minLongitude, minLatitude: frame.minLatitude,
                maxLongitude: frame.maxLongitude, maxLatitude: frame.maxLatitude)
            let lower = bounds.lowerBoundMeters(haversine: h)
            for point in Self.samples(frame, &random) {
                #expect(lower <= distanceMeters(from: center, to: point, model: model), "\(frame) from \(center)")
            }
        }
    }
}
