import CairnCore
import CairnTestSupport
import Testing
@testable import CairnGEOS

/// Polygons judged by GEOS: valid ones pass, a self-intersection and an unclosed ring are named in GEOS's words,
/// and `repaired` gives a valid polygonal shape.
@Suite struct ShapeValidatorTests {
    static func polygon(_ rings: [[(Double, Double)]]) throws -> Shape {
        var parts = ShapeParts(kind: .polygon)
        for ring in rings {
            for (x, y) in ring { parts.append(longitude: x, latitude: y) }
            parts.endRing()
        }
        parts.endPolygon()
        return try Shape(checking: parts)
    }

    @Test func validShapesPassAndInvalidOnesAreNamed() throws {
        let validator = try ShapeValidator()
        #expect(validator.problem(in: try Self.polygon([[(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)]])) == nil)
        var random = SplitMix64(seed: 71)
        for kind in ShapeKind.allCases {
            for _ in 0..<20 {
                let center = try Coordinate(latitude: random.uniform(-80...80), longitude: random.uniform(-170...170))
                let shape = try SyntheticShapes.shape(kind, around: center, random: &random)
                #expect(validator.problem(in: shape) == nil, "\(shape)")
            }
        }
        let bowtie = try Self.polygon([[(0, 0), (2, 2), (2, 0), (0, 2), (0, 0)]])
        #expect(validator.problem(in: bowtie) == "Self-intersection[1 1]")
        let open = try Self.polygon([[(0, 0), (2, 0), (2, 2), (0, 2)]])
        #expect(validator.problem(in: open)?.contains("closed linestring") == true)
        let holeOutside = try Self.polygon([[(0, 0), (2, 0), (2, 2), (0, 2), (0, 0)], [(5, 5), (6, 5), (6, 6), (5, 5)]])
        #expect(validator.problem(in: holeOutside)?.hasPrefix("Hole lies outside shell") == true)
    }

    @Test func repairsGiveValidPolygons() throws {
        let validator = try ShapeValidator()
        let bowtie = try validator.repaired(try Self.polygon([[(0, 0), (2, 2), (2, 0), (0, 2), (0, 0)]]))
        #expect(bowtie.kind == .multiPolygon && bowtie.parts.polygonEnds.count == 2)
        #expect(validator.problem(in: bowtie) == nil)
        // An unclosed ring is closed first, and is then the square it meant.
        let square = try validator.repaired(try Self.polygon([[(0, 0), (2, 0), (2, 2), (0, 2)]]))
        #expect(square.kind == .polygon && square.vertexCount == 5 && validator.problem(in: square) == nil)
        // A ring with no area leaves nothing to keep.
        let flat = try Self.polygon([[(0, 0), (1, 0), (2, 0), (0, 0)]])
        #expect(throws: ShapeValidator.RepairError.self) { try validator.repaired(flat) }
    }
}
