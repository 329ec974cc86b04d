import CairnCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Seeded polygons spread like the towns they are drawn around: the shapes of `cairn bench --polygons` and of the
/// park check-in load (`ParkCheckInLoad`).
///
/// Each polygon is star-shaped around a town: 8 to 64 vertices at angles 2π(i + u)/n with u in ±0.4, each at
/// 0.6 to 1.0 of a radius drawn log-uniformly from 150 m (a park) to 3 km (a small town); 15 % have a hole, a
/// smaller star of 8 to 16 vertices at most 0.3 of the radius. Why that is always a valid polygon: consecutive
/// angles are at most 2π · 1.8 / 8 apart, so every outer edge stays at least 0.6 · cos(0.71) ≈ 0.45 radii from the
/// town, beyond the hole; and a star with increasing angles never crosses itself. Metres become degrees on a local
/// flat approximation at the town (as `EdgeCheckInLoad` does): the shapes need to be plausible, not exact.
/// Towns beyond 80° of latitude or whose polygon would reach the antimeridian are skipped (drawn again), so
/// every polygon is one ordinary part.
public struct PolygonSet: Sendable {
    /// The polygons, item `i` of every engine is `shapes[i]`.
    public let shapes: [Shape]
    /// The town each polygon is drawn around.
    public let centres: [Coordinate]
    /// Each polygon's radius, metres (its vertices lie at 0.6 to 1.0 of it).
    public let radiiMeters: [Double]

    /// The smallest and largest radius, metres: a park to a small town.
    public static let radiusRangeMeters = 150.0...3_000.0
    /// The share of polygons with a hole.
    public static let holeShare = 0.15
    /// Metres per degree of latitude, as the check-in loads place points.
    static let metresPerDegree = EdgeCheckInLoad.metresPerDegree

    /// `count` polygons around towns drawn from `towns` (with repetition), fixed by `seed`.
    /// - Precondition: `towns` holds at least one town below 80° of latitude away from the antimeridian.
    /// - Complexity: O(count · vertices).
    public static func generate(around towns: [Coordinate], count: Int, seed: UInt64) -> PolygonSet {
        var random = SeededRandom(seed: seed &+ 0x9017_6015)
        var shapes: [Shape] = [], centres: [Coordinate] = [], radii: [Double] = []
        shapes.reserveCapacity(count)
        centres.reserveCapacity(count)
        radii.reserveCapacity(count)
        var attempts = 0
        while shapes.count < count, !towns.isEmpty {
            attempts += 1
            precondition(attempts < 100 * count + 1_000, "PolygonSet: no town below 80° latitude away from the antimeridian")
            let town = towns[random.below(towns.count)]
            let radius = exp(random.uniform(log(radiusRangeMeters.lowerBound)...log(radiusRangeMeters.upperBound)))
            let metresPerDegreeEast = metresPerDegree * cos(town.latitude * .pi / 180)
            guard Swift.abs(town.latitude) <= 80, Swift.abs(town.longitude) + radius / metresPerDegreeEast < 179.999 else { continue }
            var parts = ShapeParts(kind: .polygon)
            appendStar(to: &parts, around: town, vertices: 8 + random.below(57), radius: radius, innerShare: 0.6,
                       clockwise: false, metresPerDegreeEast: metresPerDegreeEast, random: &random)
            if random.chance(holeShare) {
                appendStar(to: &parts, around: town, vertices: 8 + random.below(9), radius: 0.3 * radius, innerShare: 0.6,
                           clockwise: true, metresPerDegreeEast: metresPerDegreeEast, random: &random)
            }
            parts.endPolygon()
            // The construction above is valid by design; a refusal would be a bug here, so it is not hidden.
            guard let shape = try? Shape(checking: parts) else { preconditionFailure("PolygonSet made an invalid polygon at \(town)") }
            shapes.append(shape)
            centres.append(town)
            radii.append(radius)
        }
        return PolygonSet(shapes: shapes, centres: centres, radiiMeters: radii)
    }

    /// Appends one closed star-shaped ring (see the type).
    private static func appendStar(
        to parts: inout ShapeParts, around centre: Coordinate, vertices: Int, radius: Double, innerShare: Double,
        clockwise: Bool, metresPerDegreeEast: Double, random: inout SeededRandom
    ) {
        var first: (Double, Double)?
        for step in 0..<vertices {
            let turn = (Double(clockwise ? vertices - step : step) + random.uniform(-0.4...0.4)) / Double(vertices)
            let angle = 2 * Double.pi * turn
            let distance = radius * random.uniform(innerShare...1.0)
            let longitude = centre.longitude + distance * cos(angle) / metresPerDegreeEast
            let latitude = centre.latitude + distance * sin(angle) / metresPerDegree
            if first == nil { first = (longitude, latitude) }
            parts.append(longitude: longitude, latitude: latitude)
        }
        if let first { parts.append(longitude: first.0, latitude: first.1) }
        parts.endRing()
    }

    /// The number of vertices over every polygon (rings closed: the repeated first vertex counts).
    /// - Complexity: O(count).
    public var vertexCount: Int { shapes.reduce(0) { $0 + $1.vertexCount } }
}
