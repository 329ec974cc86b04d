import Foundation
import CairnTestSupport
import Testing
@testable import CairnCore

/// `Shape.representativePoint` of polygons against the method it replaced, kept here as the oracle (every ring's
/// longitudes unwrapped into an array first, then the shoelace): the same point bit for bit on seeded rings,
/// closed and not, across ±180, near the poles, degenerate (no area), and on multipolygons.
@Suite("A polygon's representative point")
struct ShapeRepresentativePointTests {
    /// The centroid as it was computed before: unwrap the whole ring, then the shoelace, then the mean for a
    /// degenerate ring.
    static func referenceCentroid(_ parts: ShapeParts, _ positions: Range<Int>) -> (point: Coordinate, area: Double) {
        let first = positions.lowerBound, count = positions.count
        let x0 = parts.positions[2 * first], y0 = parts.positions[2 * first + 1]
        var unwrapped = [Double](repeating: 0, count: count)
        for index in 1..<count {
            let step = parts.positions[2 * (first + index)] - parts.positions[2 * (first + index - 1)]
            unwrapped[index] = unwrapped[index - 1] + Shape.wrapped(step)
        }
        var twiceArea = 0.0, sumX = 0.0, sumY = 0.0
        for index in 0..<count {
            let next = index + 1 == count ? 0 : index + 1
            let xa = unwrapped[index], ya = parts.positions[2 * (first + index) + 1] - y0
            let xb = unwrapped[next], yb = parts.positions[2 * (first + next) + 1] - y0
            let cross = xa * yb - xb * ya
            twiceArea += cross
            sumX += (xa + xb) * cross
            sumY += (ya + yb) * cross
        }
        if abs(twiceArea) > 1e-18 {
            let latitude = y0 + sumY / (3 * twiceArea)
            return (Coordinate(uncheckedLatitude: min(90, max(-90, latitude)),
                               longitude: Shape.wrapped(x0 + sumX / (3 * twiceArea))), abs(twiceArea) / 2)
        }
        var latitudeSum = 0.0, longitudeOffset = 0.0
        for index in 0..<(count - 1) {
            latitudeSum += parts.positions[2 * (first + index) + 1]
            longitudeOffset += unwrapped[index]
        }
        let divisor = Double(count - 1)
        return (Coordinate(uncheckedLatitude: latitudeSum / divisor, longitude: Shape.wrapped(x0 + longitudeOffset / divisor)),
                abs(twiceArea) / 2)
    }

    /// The reference's representative point of an areal shape: the centroid of the largest outer ring.
    static func reference(_ shape: Shape) -> Coordinate {
        var best: (point: Coordinate, area: Double)?
        for polygon in shape.parts.polygonEnds.indices {
            let ring = shape.parts.ringRange(ofPolygon: polygon).lowerBound
            let candidate = referenceCentroid(shape.parts, shape.parts.positionRange(ofRing: ring))
            if best == nil || candidate.area > (best?.area ?? 0) { best = candidate }
        }
        return best?.point ?? shape.vertex(0)
    }

    static func expectSame(_ parts: ShapeParts, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shape = try Shape(checking: parts)
        let got = shape.representativePoint, expected = reference(shape)
        #expect(got.latitude.bitPattern == expected.latitude.bitPattern && got.longitude.bitPattern == expected.longitude.bitPattern,
                "\(got) against \(expected) for \(parts.positions)", sourceLocation: sourceLocation)
    }

    @Test func seededRings() throws {
        var random = SplitMix64(seed: 2_716)
        for round in 0..<600 {
            let kind: ShapeKind = round % 3 == 0 ? .multiPolygon : .polygon
            var parts = ShapeParts(kind: kind)
            for _ in 0..<(kind == .multiPolygon ? 1 + Int(random.next() % 3) : 1) {
                let centerLongitude: Double
                switch round % 4 {
                case 0: centerLongitude = (random.chance(0.5) ? 1 : -1) * random.uniform(179.9...180) // across ±180
                default: centerLongitude = random.uniform(-179...179)
                }
                let centerLatitude = round % 5 == 0 ? (random.chance(0.5) ? 1 : -1) * random.uniform(89...89.9)
                                                    : random.uniform(-80...80)
                let size = random.uniform(0.0001...0.2)
                let vertices = 3 + Int(random.next() % 40)
                // Degenerate now and then: every vertex on one line, or all at one point.
                let degenerate = random.next() % 8
                var ring: [(Double, Double)] = []
                for index in 0..<vertices {
                    let angle = Double(index) / Double(vertices) * 2 * .pi
                    let radius = size * random.uniform(0.3...1)
                    var longitude = centerLongitude + radius * cos(angle), latitude = centerLatitude + radius * sin(angle)
                    if degenerate == 0 { latitude = centerLatitude + Double(index) * 1e-7; longitude = centerLongitude }
                    if degenerate == 1 { (latitude, longitude) = (centerLatitude, centerLongitude) }
                    ring.append((BoundingBox.wrapped(longitude), min(90, max(-90, latitude))))
                }
                // Closed most of the time; unclosed rings are read too.
                if random.next() % 4 != 0 { ring.append(ring[0]) } else { ring.append(ring[1]) }
                for (longitude, latitude) in ring { parts.append(longitude: longitude, latitude: latitude) }
                parts.endRing()
                parts.endPolygon()
            }
            try Self.expectSame(parts)
        }
    }

    @Test func aSquareAcrossTheAntimeridianIsCentredOnIt() throws {
        var parts = ShapeParts(kind: .polygon)
        for (longitude, latitude) in [(179.0, 0.0), (-179, 0), (-179, 2), (179, 2), (179, 0)] {
            parts.append(longitude: longitude, latitude: latitude)
        }
        parts.endRing()
        parts.endPolygon()
        let point = try Shape(checking: parts).representativePoint
        #expect(abs(abs(point.longitude) - 180) < 1e-9 && abs(point.latitude - 1) < 1e-9, "\(point)")
        try Self.expectSame(parts)
    }
}
