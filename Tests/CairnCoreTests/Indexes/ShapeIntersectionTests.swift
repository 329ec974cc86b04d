import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `search(in:)` and `intersecting` with shapes: the exact box and shape tests on hand-made cases (a box inside a
/// polygon, in its hole, crossed by a line with no vertex inside, across the antimeridian), and the indexes
/// (`FeatureIndex`, a mapped snapshot, `DynamicFeatureIndex` under edits) against a brute force over every feature.
@Suite struct ShapeIntersectionTests {
    static func polygon(_ rings: [[(Double, Double)]]) throws -> Shape {
        var parts = ShapeParts(kind: .polygon)
        for ring in rings {
            for (x, y) in ring { parts.append(longitude: x, latitude: y) }
            parts.endRing()
        }
        parts.endPolygon()
        return try Shape(checking: parts)
    }

    static func line(_ positions: [(Double, Double)]) throws -> Shape {
        var parts = ShapeParts(kind: .lineString)
        for (x, y) in positions { parts.append(longitude: x, latitude: y) }
        parts.endRing()
        return try Shape(checking: parts)
    }

    static func box(_ west: Double, _ south: Double, _ east: Double, _ north: Double) throws -> BoundingBox {
        try BoundingBox(west: west, south: south, east: east, north: north)
    }

    @Test func boxesAgainstPolygonsAndLines() throws {
        let square = try Self.polygon([[(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)], [(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)]])
        #expect(try square.intersects(Self.box(1, 1, 2, 2)))          // inside, no vertex in it
        #expect(try !square.intersects(Self.box(4.5, 4.5, 5.5, 5.5))) // in the hole
        #expect(try square.intersects(Self.box(3, 3, 7, 7)))          // around the hole
        #expect(try square.intersects(Self.box(6, 6, 7, 7)))          // touching the hole's corner
        #expect(try square.intersects(Self.box(10, 10, 11, 11)))      // touching a corner
        #expect(try !square.intersects(Self.box(10.000001, 0, 11, 11)))
        #expect(try square.intersects(Self.box(-5, -5, 15, 15)))      // all of it
        let diagonal = try Self.line([(0, 0), (10, 10)])
        #expect(try diagonal.intersects(Self.box(4, 4.5, 4.6, 5)))    // crossed, no vertex inside
        #expect(try !diagonal.intersects(Self.box(4, 4.7, 4.6, 5)))   // beside the line
        #expect(try diagonal.intersects(Self.box(5, 4, 6, 5)))        // touching at one corner (5, 5)
        // Across the antimeridian, and 180 as -180.
        let east = try Self.polygon([[(178, -17), (180, -17), (180, -16), (178, -16), (178, -17)]])
        #expect(try east.intersects(Self.box(179.5, -16.5, -179, -16.2)))
        #expect(try east.intersects(Self.box(-180, -16.5, -179, -16.2)))
        #expect(try !east.intersects(Self.box(-179.9, -16.5, -179, -16.2)))
    }

    @Test func shapesAgainstShapes() throws {
        let square = try Self.polygon([[(0, 0), (10, 0), (10, 10), (0, 10), (0, 0)], [(4, 4), (4, 6), (6, 6), (6, 4), (4, 4)]])
        #expect(try square.intersects(Self.line([(-1, 5), (1, 5)])))
        #expect(try !square.intersects(Self.line([(4.5, 5), (5.5, 5)])))           // inside the hole
        #expect(try square.intersects(Self.line([(4.5, 5), (6.5, 5)])))            // leaves the hole
        #expect(try square.intersects(Self.polygon([[(2, 2), (3, 2), (3, 3), (2, 2)]]))) // inside
        #expect(try Self.polygon([[(-5, -5), (15, -5), (15, 15), (-5, 15), (-5, -5)]]).intersects(square)) // around
        #expect(try square.intersects(Shape(point: Coordinate(latitude: 10, longitude: 5))))  // on the edge
        #expect(try !square.intersects(Shape(point: Coordinate(latitude: 5, longitude: 5))))  // in the hole
        #expect(try Self.line([(0, 0), (2, 2)]).intersects(Self.line([(2, 2), (3, 0)])))       // touching ends
        #expect(try Self.line([(0, 0), (2, 2)]).intersects(Self.line([(1, 1), (3, 3)])))       // overlapping
        #expect(try !Self.line([(0, 0), (2, 2)]).intersects(Self.line([(0, 1), (1, 2)])))      // parallel
    }

    /// The brute-force answers, in the order the indexes promise (feature order).
    static func expectedInBox(_ features: [Feature], _ box: BoundingBox) -> [String] {
        features.filter { $0.shape.map { $0.intersects(box) } ?? box.contains($0.location) }.map(\.id)
    }

    static func expectedMeeting(_ features: [Feature], _ query: Shape) -> [String] {
        features.filter { query.intersects($0.shape ?? Shape(point: $0.location)) }.map(\.id)
    }

    static func boxes(seed: UInt64) throws -> [BoundingBox] {
        var random = SplitMix64(seed: seed)
        var boxes: [BoundingBox] = [try Self.box(170, -70, -170, 70), try Self.box(-180, 80, 180, 90), try Self.box(179.9, -60, 180, 60)]
        for _ in 0..<150 {
            let west = random.chance(0.2) ? random.uniform(179...180) : random.uniform(23.5...26)
            let south = random.chance(0.2) ? random.uniform(-90 ... -89) : random.uniform(58.5...61.5)
            let east = west + random.uniform(0...0.6), north = min(90, south + random.uniform(0...0.6))
            boxes.append(try BoundingBox(unwrappedWest: west, south: south, east: east, north: north))
        }
        return boxes
    }

    @Test func indexesMatchBruteForce() throws {
        let features = try ShapeContainmentTests.features(count: 400, seed: 21)
        let index = FeatureIndex(features)
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        var live = DynamicFeatureIndex(Array(features.prefix(300)), compactionPolicy: .manual)
        for feature in features.suffix(100) { live.upsert(feature) }
        for number in stride(from: 0, to: 300, by: 7) { live.remove(id: "f\(number)") }
        let current = live.features
        var shapeOnlyHits = 0
        for box in try Self.boxes(seed: 22) {
            let expected = Self.expectedInBox(features, box)
            let hits = index.search(in: box)
            #expect(hits.map { features[$0.item].id } == expected, "\(box)")
            #expect(mapped.search(in: box) == hits)
            #expect(live.search(in: box).map(\.id) == Self.expectedInBox(current, box), "\(box)")
            shapeOnlyHits += hits.filter { !box.contains(features[$0.item].location) }.count
        }
        #expect(shapeOnlyHits > 20, "some shapes must meet boxes that miss their representative point: \(shapeOnlyHits)")
        var random = SplitMix64(seed: 23)
        for _ in 0..<60 {
            let center = try Coordinate(latitude: random.uniform(59...61), longitude: random.uniform(24...26))
            let query = try SyntheticShapes.shape([ShapeKind.polygon, .lineString, .multiPolygon][random.below(3)], around: center,
                                                  sizeDegrees: random.uniform(0.05...1), random: &random)
            let expected = Self.expectedMeeting(features, query)
            let hits = index.intersecting(query)
            #expect(hits.map { features[$0.item].id } == expected)
            #expect(mapped.intersecting(query) == hits)
            #expect(live.intersecting(query).map(\.id) == Self.expectedMeeting(current, query))
        }
        #expect(mapped.snapshotDamage == nil)
    }
}
