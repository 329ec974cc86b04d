import Foundation
import CairnCore

/// Seeded shapes of every kind for tests: small stars and lines around a centre, polygons with holes, parts kept in
/// range at the antimeridian and the poles (vertices are clamped to the map, so a shape near an edge flattens).
public enum SyntheticShapes {
    /// A shape of `kind` around `center`, about `sizeDegrees` across, drawn from `random`.
    /// - Complexity: O(v) in the vertices made (at most a few dozen).
    public static func shape(_ kind: ShapeKind, around center: Coordinate, sizeDegrees: Double = 0.5,
                             random: inout SplitMix64) throws -> Shape {
        var parts = ShapeParts(kind: kind)
        func add(_ dx: Double, _ dy: Double, to parts: inout ShapeParts) {
            parts.append(longitude: min(180, max(-180, center.longitude + dx)), latitude: min(90, max(-90, center.latitude + dy)))
        }
        /// A ring: a star-shaped polygon of `count` vertices at radius `radius` (closed), offset by (ox, oy).
        func ring(radius: Double, count: Int, ox: Double, oy: Double, clockwise: Bool, into parts: inout ShapeParts) {
            var angles = (0..<count).map { Double($0) / Double(count) * 2 * Double.pi }
            if clockwise { angles.reverse() }
            for angle in angles {
                let r = radius * (0.6 + 0.4 * random.unit())
                add(ox + r * cos(angle), oy + r * sin(angle), to: &parts)
            }
            let first = parts.positions.count - 2 * count
            parts.append(longitude: parts.positions[first], latitude: parts.positions[first + 1])
            parts.endRing()
        }
        func polygon(ox: Double, oy: Double, into parts: inout ShapeParts) {
            ring(radius: sizeDegrees / 2, count: 3 + random.below(12), ox: ox, oy: oy, clockwise: false, into: &parts)
            if random.chance(0.5) {
                // A hole well inside the smallest radius of the outer ring (0.6 of it).
                ring(radius: sizeDegrees / 8, count: 3 + random.below(5), ox: ox, oy: oy, clockwise: true, into: &parts)
            }
            parts.endPolygon()
        }
        func line(ox: Double, into parts: inout ShapeParts) {
            for step in 0..<(2 + random.below(10)) { add(ox + Double(step) * sizeDegrees / 10, random.uniform(-0.5...0.5) * sizeDegrees, to: &parts) }
            parts.endRing()
        }
        switch kind {
        case .point:
            add(0, 0, to: &parts)
            parts.endRing()
        case .multiPoint:
            for _ in 0..<(1 + random.below(5)) {
                add(random.uniform(-0.5...0.5) * sizeDegrees, random.uniform(-0.5...0.5) * sizeDegrees, to: &parts)
                parts.endRing()
            }
        case .lineString: line(ox: 0, into: &parts)
        case .multiLineString: for part in 0..<(1 + random.below(3)) { line(ox: Double(part) * sizeDegrees, into: &parts) }
        case .polygon: polygon(ox: 0, oy: 0, into: &parts)
        case .multiPolygon: for part in 0..<(1 + random.below(3)) { polygon(ox: Double(part) * 1.5 * sizeDegrees, oy: 0, into: &parts) }
        }
        return try Shape(checking: parts)
    }
}
