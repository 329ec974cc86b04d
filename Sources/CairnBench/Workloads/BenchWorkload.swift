#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CairnCore

/// The seeded queries of one run: per operation, `queriesPerOperation` queries placed where the data is,
/// plus the circles the containment operation indexes.
///
/// - box: centred on a random data point, square on the ground (longitude span widened by 1 / cos latitude),
///   its size found by bisection so that it holds as close to the target count as the data allows (counted
///   with a calibration index before any timing);
/// - radius and nearest: centred on a random data point moved up to 2 km in a random direction;
/// - containment: each data point is a circle of radius 100 m to 1 km; query points lie up to 1.5 km from a
///   random circle's centre, so some fall inside one or more circles and some in none.
public struct BenchWorkload: Sendable {
    /// The operations and their queries, in report order.
    public let operations: [(kind: BenchOperationKind, queries: BenchQueries)]
    /// The circles of the containment operation (empty when it is not run).
    public let circles: [BenchCircle]

    /// Generates the workload for `points`.
    /// - Parameters:
    ///   - calibration: an index over `points`, used to size the boxes.
    ///   - kinds: the operations to generate, from `BenchOperationKind.all`.
    /// - Complexity: O(q · log(size) · box query) for q queries per box operation, O(q) for the others.
    public static func make(
        points: [Coordinate], calibration: PointIndex, queriesPerOperation: Int, seed: UInt64,
        kinds: [BenchOperationKind] = BenchOperationKind.all
    ) -> BenchWorkload {
        var operations: [(kind: BenchOperationKind, queries: BenchQueries)] = []
        var circles: [BenchCircle] = []
        guard !points.isEmpty else { return BenchWorkload(operations: [], circles: []) }
        for kind in kinds {
            // Each operation has its own stream, so choosing a subset of operations keeps their queries.
            let position = BenchOperationKind.all.firstIndex(of: kind) ?? 0
            var random = SeededRandom(seed: seed &+ 0x5EED_0000 &+ UInt64(position) &* 0x1_0000_0001)
            switch kind {
            case .box(let target):
                var buffer: [Int] = []
                buffer.reserveCapacity(4 * target + 64)
                let boxes = (0..<queriesPerOperation).map { _ in
                    calibratedBox(around: points[random.below(points.count)], targetResults: target,
                                  index: calibration, buffer: &buffer)
                }
                operations.append((kind, .boxes(boxes)))
            case .radius, .nearest:
                let centers = (0..<queriesPerOperation).map { _ in
                    jittered(points[random.below(points.count)], upToMeters: 2_000, random: &random)
                }
                operations.append((kind, .centers(centers)))
            case .containment:
                var circleRandom = SeededRandom(seed: seed &+ 0xC1_7C1E)
                circles = points.map { BenchCircle(center: $0, radiusMeters: circleRandom.uniform(100...1_000)) }
                let queries = (0..<queriesPerOperation).map { _ in
                    jittered(circles[random.below(circles.count)].center, upToMeters: 1_500, random: &random)
                }
                operations.append((kind, .centers(queries)))
            }
        }
        return BenchWorkload(operations: operations, circles: circles)
    }

    /// `point` moved a random distance up to `upToMeters` in a random direction (WGS84).
    /// - Complexity: O(1).
    public static func jittered(_ point: Coordinate, upToMeters: Double, random: inout SeededRandom) -> Coordinate {
        let bearing = random.uniform(0...360)
        let distance = random.uniform(0...upToMeters)
        return (try? destination(from: point, bearingDegrees: bearing, distanceMeters: distance)) ?? point
    }

    /// The box around `center` with half-height `halfHeightDegrees` and a longitude span widened by
    /// 1 / cos(latitude), clipped at the poles, wrapping across the antimeridian, the whole longitude range
    /// when wider than the Earth.
    /// - Complexity: O(1).
    public static func box(around center: Coordinate, halfHeightDegrees h: Double) -> BoundingBox {
        let south = max(-90, center.latitude - h), north = min(90, center.latitude + h)
        let halfWidth = h / max(cos(center.latitude * .pi / 180), 1e-3)
        var west = -180.0, east = 180.0
        if halfWidth < 180 {
            west = center.longitude - halfWidth
            east = center.longitude + halfWidth
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
        }
        return (try? BoundingBox(west: west, south: south, east: east, north: north)) ?? .world
    }

    /// The box around `center` whose result count is closest to `targetResults` (bisection on its size).
    /// - Complexity: O(log(size) · box query), at most about 50 box queries.
    public static func calibratedBox(
        around center: Coordinate, targetResults target: Int, index: PointIndex, buffer: inout [Int]
    ) -> BoundingBox {
        func count(_ h: Double) -> Int {
            buffer.removeAll(keepingCapacity: true)
            index.search(in: box(around: center, halfHeightDegrees: h), into: &buffer)
            return buffer.count
        }
        var best = (h: 180.0, miss: Int.max)
        func consider(_ h: Double, _ found: Int) {
            let miss = abs(found - target)
            if miss < best.miss { best = (h, miss) }
        }
        var low = 0.0, high = 1e-3
        var found = count(high)
        consider(high, found)
        while found < target, high < 180 {
            low = high
            high *= 2
            found = count(high)
            consider(high, found)
        }
        for _ in 0..<40 where best.miss > 0 {
            let middle = (low + high) / 2
            found = count(middle)
            consider(middle, found)
            if found < target { low = middle } else { high = middle }
        }
        return box(around: center, halfHeightDegrees: best.h)
    }
}
