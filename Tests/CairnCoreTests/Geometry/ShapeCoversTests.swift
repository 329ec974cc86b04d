import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `Shape.covers` and `PlanarOrientation` against an independent brute force: polygons on an exact grid
/// (`base + k · unit`, every coordinate and difference an exact double), judged with integer arithmetic by winding
/// numbers (inside the outer ring, not inside a hole, or on any edge), on seeded random points and on every vertex
/// and every grid point of every edge; Shewchuk's near-collinear points; the antimeridian and the poles.
@Suite struct ShapeCoversTests {
    /// A polygon's rings in grid units (outer ring first; closed: first point repeated last).
    typealias GridRings = [[(Int64, Int64)]]

    /// The orientation of p relative to a → b with integers: the oracle's sign.
    static func orientation(_ a: (Int64, Int64), _ b: (Int64, Int64), _ p: (Int64, Int64)) -> Int {
        let value = (a.0 - p.0) * (b.1 - p.1) - (a.1 - p.1) * (b.0 - p.0)
        return value > 0 ? 1 : (value < 0 ? -1 : 0)
    }

    /// Whether p lies on segment a–b (integers).
    static func onSegment(_ a: (Int64, Int64), _ b: (Int64, Int64), _ p: (Int64, Int64)) -> Bool {
        orientation(a, b, p) == 0 && p.0 >= min(a.0, b.0) && p.0 <= max(a.0, b.0) && p.1 >= min(a.1, b.1) && p.1 <= max(a.1, b.1)
    }

    /// The winding number of a closed ring around p (Sunday's formulation), p not on the ring.
    static func winding(_ ring: [(Int64, Int64)], _ p: (Int64, Int64)) -> Int {
        var total = 0
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            if a.1 <= p.1 {
                if b.1 > p.1 && orientation(a, b, p) > 0 { total += 1 }
            } else if b.1 <= p.1 && orientation(a, b, p) < 0 {
                total -= 1
            }
        }
        return total
    }

    /// The oracle: on an edge of any ring, or inside an outer ring and inside none of its holes.
    static func oracleCovers(_ polygons: [GridRings], _ p: (Int64, Int64)) -> Bool {
        for rings in polygons {
            for ring in rings {
                for i in 0..<(ring.count - 1) where onSegment(ring[i], ring[i + 1], p) { return true }
            }
        }
        return polygons.contains { rings in
            winding(rings[0], p) != 0 && !rings.dropFirst().contains { winding($0, p) != 0 }
        }
    }

    /// A star-shaped ring of `count` vertices around (cx, cy), radii in `radii`, rounded to the grid; clockwise
    /// when asked (holes in GeoJSON run clockwise, but the test must not depend on it).
    static func starRing(cx: Int64, cy: Int64, count: Int, radii: ClosedRange<Double>, clockwise: Bool,
                         random: inout SplitMix64) -> [(Int64, Int64)] {
        var ring: [(Int64, Int64)] = []
        for step in 0..<count {
            let angle = (Double(step) + 0.3 * random.unit()) / Double(count) * 2 * Double.pi * (clockwise ? -1 : 1)
            let radius = random.uniform(radii)
            ring.append((cx + Int64((radius * cos(angle)).rounded()), cy + Int64((radius * sin(angle)).rounded())))
            // Now and then a collinear vertex: the midpoint (on the grid) of the edge just made.
            if ring.count >= 2, random.chance(0.2) {
                let a = ring[ring.count - 2], b = ring[ring.count - 1]
                if (a.0 + b.0) % 2 == 0, (a.1 + b.1) % 2 == 0 { ring.insert(((a.0 + b.0) / 2, (a.1 + b.1) / 2), at: ring.count - 1) }
            }
        }
        ring.append(ring[0])
        return ring
    }

    /// Seeded tricky polygons: stars (with collinear vertices), holes of either orientation, several parts, an
    /// axis-aligned comb whose horizontal edges lie on the grid lines the points are drawn from.
    static func polygons(random: inout SplitMix64) -> [GridRings] {
        var result: [GridRings] = []
        let parts = 1 + random.below(3)
        for part in 0..<parts {
            let cx = Int64(part) * 2_500, cy = Int64(random.below(200))
            var rings: GridRings = [starRing(cx: cx, cy: cy, count: 3 + random.below(20), radii: 600...1_000, clockwise: random.chance(0.3), random: &random)]
            if random.chance(0.6) {
                rings.append(starRing(cx: cx, cy: cy, count: 3 + random.below(8), radii: 100...500, clockwise: random.chance(0.5), random: &random))
            }
            result.append(rings)
        }
        if random.chance(0.3) {
            // A comb: teeth 100 wide, gaps 100 wide, on a spine.
            var ring: [(Int64, Int64)] = [(-5_000, -2_000)]
            for tooth in 0..<5 {
                let x = -5_000 + Int64(tooth) * 200
                ring += [(x, -1_000), (x + 100, -1_000), (x + 100, -2_000 + 300)]
                if tooth < 4 { ring.append((x + 200, -2_000 + 300)) }
            }
            ring += [(-5_000 + 900, -2_200), (-5_000, -2_200), (-5_000, -2_000)]
            result.append([ring])
        }
        return result
    }

    /// The shape of `polygons` at `base + k · unit` degrees.
    static func shape(_ polygons: [GridRings], baseLongitude: Double, baseLatitude: Double, unit: Double) throws -> Shape {
        var parts = ShapeParts(kind: .multiPolygon)
        for rings in polygons {
            for ring in rings {
                for (x, y) in ring { parts.append(longitude: baseLongitude + Double(x) * unit, latitude: baseLatitude + Double(y) * unit) }
                parts.endRing()
            }
            parts.endPolygon()
        }
        return try Shape(checking: parts)
    }

    @Test(arguments: [(0.0, 0.0, 0x1p-10), (24.9, 60.1, 0x1p-30), (-73.9, 40.7, 0x1p-36), (179.0, -17.0, 0x1p-14)])
    func coversMatchesBruteForce(base: (Double, Double, Double)) throws {
        var random = SplitMix64(seed: 1_919)
        let (baseLongitude, baseLatitude, unit) = base
        for _ in 0..<60 {
            let polygons = ShapeCoversTests.polygons(random: &random)
            let shape = try ShapeCoversTests.shape(polygons, baseLongitude: baseLongitude, baseLatitude: baseLatitude, unit: unit)
            var points: [(Int64, Int64)] = (0..<300).map { _ in (Int64(random.below(12_000)) - 6_000, Int64(random.below(3_600)) - 2_400) }
            for rings in polygons {
                for ring in rings {
                    for i in 0..<(ring.count - 1) {
                        let a = ring[i], b = ring[i + 1]
                        points.append(a)
                        // Every grid point of the edge, and its neighbours either side.
                        let steps = ShapeCoversTests.gcd(abs(b.0 - a.0), abs(b.1 - a.1))
                        guard steps > 0 else { continue }
                        let dx = (b.0 - a.0) / steps, dy = (b.1 - a.1) / steps
                        for t in stride(from: Int64(0), through: steps, by: Int64.Stride(max(1, steps / 7))) {
                            let p = (a.0 + t * dx, a.1 + t * dy)
                            points += [p, (p.0 + 1, p.1), (p.0 - 1, p.1), (p.0, p.1 + 1), (p.0, p.1 - 1)]
                        }
                    }
                }
            }
            for p in points {
                let coordinate = try Coordinate(latitude: baseLatitude + Double(p.1) * unit, longitude: baseLongitude + Double(p.0) * unit)
                let expected = ShapeCoversTests.oracleCovers(polygons, p)
                #expect(shape.covers(coordinate) == expected, "point \(p) of \(polygons)")
            }
        }
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 { b == 0 ? a : gcd(b, a % b) }

    @Test func orientationIsExactNearCollinear() {
        // Shewchuk's example: points a few ulps off the line y = x through (12, 12) and (24, 24); the naive
        // determinant gets many of these wrong, the exact sign is that of j − i.
        let ulp = 0.5.ulp
        var naiveWrong = 0
        for i in 0..<64 {
            for j in 0..<64 {
                let px = 0.5 + Double(i) * ulp, py = 0.5 + Double(j) * ulp
                let expected = j > i ? 1 : (j < i ? -1 : 0)
                #expect(PlanarOrientation.sign(12, 12, 24, 24, px, py) == expected, "i \(i) j \(j)")
                let naive = (12 - px) * (24 - py) - (12 - py) * (24 - px)
                if (naive > 0 ? 1 : (naive < 0 ? -1 : 0)) != expected { naiveWrong += 1 }
            }
        }
        #expect(naiveWrong > 0, "the example must exercise the exact fallback")
    }

    @Test func orientationMatchesIntegersOnRandomGrids() {
        var random = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let unit = [0x1p-20, 0x1p-40, 1.0][random.below(3)]
            // A multiple of the unit, so that base + k · unit is exact.
            let base = (random.uniform(-100...100) / unit).rounded() * unit
            func point() -> (Int64, Int64) { (Int64(random.below(2_001)) - 1_000, Int64(random.below(2_001)) - 1_000) }
            let a = point(), b = point()
            // Half of the points on the line through a and b, the rest anywhere.
            let p = random.chance(0.5) ? (a.0 + 2 * (b.0 - a.0), a.1 + 2 * (b.1 - a.1)) : point()
            func degrees(_ v: Int64) -> Double { base + Double(v) * unit }
            let sign = PlanarOrientation.sign(degrees(a.0), degrees(a.1), degrees(b.0), degrees(b.1), degrees(p.0), degrees(p.1))
            #expect(sign == ShapeCoversTests.orientation(a, b, p), "\(a) \(b) \(p) unit \(unit) base \(base)")
        }
    }

    @Test func exactSignAgreesWithTheFilterWhereTheFilterDecides() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let v = (0..<6).map { _ in random.uniform(-180...180) }
            let fast = PlanarOrientation.sign(v[0], v[1], v[2], v[3], v[4], v[5])
            #expect(PlanarOrientation.exactSign(v[0], v[1], v[2], v[3], v[4], v[5]) == fast)
        }
    }

    /// Fiji as GeoJSON writes it: two parts split at ±180.
    static func splitAtAntimeridian() throws -> Shape {
        var parts = ShapeParts(kind: .multiPolygon)
        for ring in [[(178.0, -17.0), (180.0, -17.0), (180.0, -16.0), (178.0, -16.0), (178.0, -17.0)],
                     [(-180.0, -17.0), (-179.0, -17.0), (-179.0, -16.0), (-180.0, -16.0), (-180.0, -17.0)]] {
            for (x, y) in ring { parts.append(longitude: x, latitude: y) }
            parts.endRing()
            parts.endPolygon()
        }
        return try Shape(checking: parts)
    }

    @Test func antimeridianIsOneMeridian() throws {
        let fiji = try ShapeCoversTests.splitAtAntimeridian()
        #expect(fiji.covers(try Coordinate(latitude: -16.5, longitude: 180)))
        #expect(fiji.covers(try Coordinate(latitude: -16.5, longitude: -180)))
        #expect(fiji.covers(try Coordinate(latitude: -16.5, longitude: 179.5)))
        #expect(fiji.covers(try Coordinate(latitude: -16.5, longitude: -179.5)))
        #expect(fiji.covers(try Coordinate(latitude: -17, longitude: -179)))
        #expect(!fiji.covers(try Coordinate(latitude: -16.5, longitude: -178.5)))
        #expect(!fiji.covers(try Coordinate(latitude: -15.9, longitude: 180)))
        // Only the east part: a point at -180 is the same point as one at 180, on its edge.
        var east = ShapeParts(kind: .polygon)
        for (x, y) in [(178.0, -17.0), (180.0, -17.0), (180.0, -16.0), (178.0, -16.0), (178.0, -17.0)] { east.append(longitude: x, latitude: y) }
        east.endRing()
        east.endPolygon()
        #expect(try Shape(checking: east).covers(try Coordinate(latitude: -16.5, longitude: -180)))
    }

    @Test func polesAndAntarctica() throws {
        // Natural Earth's way: the ring runs along -90 from 180 to -180.
        var parts = ShapeParts(kind: .polygon)
        for (x, y) in [(-180.0, -90.0), (-180.0, -70.0), (0.0, -65.0), (180.0, -70.0), (180.0, -90.0), (-180.0, -90.0)] {
            parts.append(longitude: x, latitude: y)
        }
        parts.endRing()
        parts.endPolygon()
        let antarctica = try Shape(checking: parts)
        for longitude in [-180.0, -179.9, -45, 0, 37.5, 180] {
            #expect(antarctica.covers(try Coordinate(latitude: -90, longitude: longitude)))
            #expect(antarctica.covers(try Coordinate(latitude: -89.999, longitude: longitude)))
            #expect(!antarctica.covers(try Coordinate(latitude: 90, longitude: longitude)))
            #expect(!antarctica.covers(try Coordinate(latitude: -60, longitude: longitude)))
        }
        #expect(antarctica.covers(try Coordinate(latitude: -65, longitude: 0)))
        #expect(!antarctica.covers(try Coordinate(latitude: -65.001, longitude: 90)))
        // A triangle touching the north pole at one vertex: the pole is on its boundary at every longitude.
        var triangle = ShapeParts(kind: .polygon)
        for (x, y) in [(0.0, 80.0), (10.0, 80.0), (5.0, 90.0), (0.0, 80.0)] { triangle.append(longitude: x, latitude: y) }
        triangle.endRing()
        triangle.endPolygon()
        let arctic = try Shape(checking: triangle)
        #expect(arctic.covers(try Coordinate(latitude: 90, longitude: 120)))
        #expect(!arctic.covers(try Coordinate(latitude: 89, longitude: 120)))
        #expect(!arctic.covers(try Coordinate(latitude: -90, longitude: 5)))
    }

    @Test(arguments: [ShapeKind.point, .lineString, .multiPoint, .multiLineString])
    func nothingButPolygonsCovers(kind: ShapeKind) throws {
        var random = SplitMix64(seed: 3)
        let center = try Coordinate(latitude: 10, longitude: 10)
        let shape = try SyntheticShapes.shape(kind, around: center, random: &random)
        for position in 0..<shape.vertexCount { #expect(!shape.covers(shape.vertex(position))) }
    }
}
