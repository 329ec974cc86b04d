import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `ShapeBoundaryDistance` against a brute-force oracle (`BoundaryDistanceOracle`: every edge sampled densely,
/// the nearest brackets resampled until they are micrometres wide, Karney to each point) on seeded shapes and
/// points everywhere, near the poles, at ±180, with very short and very long edges, points on edges and
/// vertices, multi-part shapes and holes; and the extent's lower bound against the distance.
@Suite("Distance to a shape's boundary")
struct ShapeBoundaryDistanceTests {
    /// The promise: within 1 mm of the exact minimum.
    static let millimetre = 1e-3

    static func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(uncheckedLatitude: latitude, longitude: longitude)
    }

    /// A shape of `kind` from rings of (longitude, latitude) pairs; for polygons, `polygonEnds` as ShapeParts has it.
    static func shape(_ kind: ShapeKind, _ rings: [[(Double, Double)]], polygonEnds: [Int] = []) throws -> Shape {
        var parts = ShapeParts(kind: kind)
        for ring in rings {
            for (longitude, latitude) in ring { parts.append(longitude: longitude, latitude: latitude) }
            parts.endRing()
        }
        parts.polygonEnds = kind.isAreal && polygonEnds.isEmpty ? [rings.count] : polygonEnds
        return try Shape(checking: parts)
    }

    /// Checks one point against the oracle: within 1 mm, and the nearest point returned is at the distance returned.
    static func expectAgrees(_ point: Coordinate, _ shape: Shape, samplesPerEdge: Int = 1_000,
                             sourceLocation: SourceLocation = #_sourceLocation) {
        let nearest = ShapeBoundaryDistance.nearest(from: point, to: shape)
        let oracle = BoundaryDistanceOracle.meters(from: point, to: shape, samplesPerEdge: samplesPerEdge)
        #expect(abs(nearest.meters - oracle) <= millimetre,
                "\(point): \(nearest.meters) m, oracle \(oracle) m", sourceLocation: sourceLocation)
        let check = Geodesic.inverseMeters(point.latitude, point.longitude, nearest.point.latitude, nearest.point.longitude)
        #expect(abs(check - nearest.meters) <= 1e-6, sourceLocation: sourceLocation)
        #expect(ShapeBoundaryDistance.meters(from: point, to: shape) == nearest.meters, sourceLocation: sourceLocation)
    }

    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case anywhere, nearPoles, antimeridian, parkScale
        var testDescription: String { rawValue }
    }

    /// Seeded shapes of every kind and points around them, against the oracle.
    @Test(arguments: Place.allCases)
    func seededShapesAgreeWithTheOracle(place: Place) throws {
        var random = SplitMix64(seed: 1_900 + UInt64(Place.allCases.firstIndex(of: place) ?? 0))
        for round in 0..<24 {
            let kind = ShapeKind.allCases[round % ShapeKind.allCases.count]
            let center: Coordinate
            let size: Double
            switch place {
            case .anywhere:
                center = Self.coordinate(random.uniform(-80...80), random.uniform(-179...179))
                size = random.uniform(0.01...4)
            case .nearPoles:
                center = Self.coordinate((random.chance(0.5) ? 1 : -1) * random.uniform(86...89.9), random.uniform(-170...170))
                size = random.uniform(0.05...3)
            case .antimeridian:
                center = Self.coordinate(random.uniform(-70...70), (random.chance(0.5) ? 1 : -1) * random.uniform(179.7...180))
                size = random.uniform(0.05...0.6)
            case .parkScale:
                center = Self.coordinate(random.uniform(-60...70), random.uniform(-179...179))
                size = random.uniform(0.0005...0.01)
            }
            let shape = try SyntheticShapes.shape(kind, around: center, sizeDegrees: size, random: &random)
            for _ in 0..<4 {
                let latitude = min(90, max(-90, center.latitude + random.uniform(-1.5...1.5) * size))
                let longitude = BoundingBox.wrapped(center.longitude + random.uniform(-1.5...1.5) * size)
                Self.expectAgrees(Self.coordinate(latitude, longitude), shape)
            }
        }
    }

    /// Very long edges (hundreds of km), diagonal and along parallels, points near and far, on both sides.
    @Test func longEdgesAgreeWithTheOracle() throws {
        let triangle = try Self.shape(.polygon, [[(10, 40), (16, 45), (9, 47), (10, 40)]])
        let parallel = try Self.shape(.lineString, [[(-30, 62), (30, 62)]])
        let diagonal = try Self.shape(.lineString, [[(100, -10), (104, 5), (97, -3)]])
        var random = SplitMix64(seed: 77)
        for _ in 0..<12 {
            Self.expectAgrees(Self.coordinate(random.uniform(38...50), random.uniform(5...20)), triangle, samplesPerEdge: 4_000)
            Self.expectAgrees(Self.coordinate(random.uniform(55...80), random.uniform(-40...40)), parallel, samplesPerEdge: 4_000)
            Self.expectAgrees(Self.coordinate(random.uniform(-15...10), random.uniform(90...110)), diagonal, samplesPerEdge: 4_000)
        }
        // A point 2,000 km away and one across the globe, where the curvature bound loosens.
        Self.expectAgrees(Self.coordinate(20, 12), triangle, samplesPerEdge: 4_000)
        Self.expectAgrees(Self.coordinate(-35, -150), triangle, samplesPerEdge: 4_000)
    }

    /// Edges near and at the poles: a ring around the north pole (its far side curves towards the point), an
    /// Antarctica-like polygon with an edge along the south pole's line, points across the pole.
    @Test func polesAgreeWithTheOracle() throws {
        let cap = try Self.shape(.polygon, [[(-180, 89.5), (-60, 89.7), (60, 89.4), (180, 89.5), (180, 90), (-180, 90), (-180, 89.5)]])
        let antarctic = try Self.shape(.polygon, [[(-180, -90), (-180, -70), (-90, -75), (0, -68), (90, -72), (180, -70), (180, -90), (-180, -90)]])
        var random = SplitMix64(seed: 90)
        for _ in 0..<10 {
            Self.expectAgrees(Self.coordinate(random.uniform(88.5...90), random.uniform(-180...180)), cap, samplesPerEdge: 4_000)
            Self.expectAgrees(Self.coordinate(random.uniform(-90 ... -60), random.uniform(-180...180)), antarctic, samplesPerEdge: 4_000)
        }
        // At the pole: the pole line is boundary.
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(-90, 0), to: antarctic) == 0)
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(90, 45), to: cap) == 0)
    }

    /// A polygon split at ±180 (as GeoJSON writes it): the split meridian is boundary of each part; a point on
    /// the other side is measured across the antimeridian.
    @Test func antimeridianSplitAgreesWithTheOracle() throws {
        let fiji = try Self.shape(.multiPolygon, [
            [(177, -18), (180, -18), (180, -16), (177, -16), (177, -18)],
            [(-180, -18), (-179, -18), (-179, -16), (-180, -16), (-180, -18)],
        ], polygonEnds: [1, 2])
        for (latitude, longitude) in [(-17.0, 179.999), (-17.0, -179.5), (-19.0, -179.999), (-15.5, 179.99), (-17, 176)] {
            Self.expectAgrees(Self.coordinate(latitude, longitude), fiji, samplesPerEdge: 4_000)
        }
        // On the split line: 0.
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(-17, 180), to: fiji) == 0)
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(-17, -180), to: fiji) == 0)
    }

    /// Very short edges (centimetres), points on an edge and on a vertex.
    @Test func shortEdgesAndPointsOnTheBoundary() throws {
        let tiny = try Self.shape(.polygon, [[(24.9, 60.1), (24.9000002, 60.1), (24.9000002, 60.1000001), (24.9, 60.1), (24.9, 60.1)]])
        var random = SplitMix64(seed: 3)
        for _ in 0..<20 {
            Self.expectAgrees(Self.coordinate(60.1 + random.uniform(-1e-6...1e-6), 24.9 + random.uniform(-1e-6...1e-6)), tiny)
        }
        let line = try Self.shape(.lineString, [[(10, 50), (10.5, 50.25), (11, 50)]])
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(50.25, 10.5), to: line) == 0)
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(50.125, 10.25), to: line) == 0)
        // On the edge by construction but not exactly representable: within the tolerance of 0.
        for t in [0.1, 0.3, 0.7, 0.9] {
            let point = Self.coordinate(50 + t * 0.25, 10 + t * 0.5)
            let meters = ShapeBoundaryDistance.meters(from: point, to: line)
            #expect(meters <= Self.millimetre, "t \(t): \(meters) m")
        }
        // A few micrometres off the edge.
        Self.expectAgrees(Self.coordinate(50.125 + 1e-10, 10.25), line, samplesPerEdge: 4_000)
    }

    /// Holes are boundary: a point inside a hole, or inside the polygon near a hole, is measured to the hole's
    /// ring when it is nearer; multi-part shapes take the nearest part.
    @Test func holesAndPartsCount() throws {
        let withHole = try Self.shape(.polygon, [
            [(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)],
            [(0.4, 0.4), (0.4, 0.6), (0.6, 0.6), (0.6, 0.4), (0.4, 0.4)],
        ])
        let outerOnly = try Self.shape(.polygon, [[(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)]])
        let inHole = Self.coordinate(0.5, 0.5)
        let toHole = ShapeBoundaryDistance.meters(from: inHole, to: withHole)
        #expect(toHole < ShapeBoundaryDistance.meters(from: inHole, to: outerOnly) / 3)
        Self.expectAgrees(inHole, withHole)
        Self.expectAgrees(Self.coordinate(0.35, 0.5), withHole)
        let parts = try Self.shape(.multiLineString, [[(0, 0), (1, 0)], [(0, 2), (1, 2)]])
        Self.expectAgrees(Self.coordinate(1.6, 0.5), parts)
        #expect(abs(ShapeBoundaryDistance.meters(from: Self.coordinate(1.6, 0.5), to: parts)
                    - ShapeBoundaryDistance.meters(from: Self.coordinate(1.6, 0.5), to: try Self.shape(.lineString, [[(0, 2), (1, 2)]]))) == 0)
        let points = try Self.shape(.multiPoint, [[(0, 0)], [(3, 4)]])
        #expect(ShapeBoundaryDistance.meters(from: Self.coordinate(4, 3), to: points) == Geodesic.inverseMeters(4, 3, 4, 3))
        #expect(ShapeBoundaryDistance.nearest(from: Self.coordinate(3.9, 3.1), to: points).point == Self.coordinate(4, 3))
    }

    /// The extent's bound never exceeds the distance: seeded shapes and points anywhere, boxes across ±180.
    @Test func extentLowerBoundIsBelowTheDistance() throws {
        var random = SplitMix64(seed: 2_024)
        for round in 0..<400 {
            let kind = ShapeKind.allCases[round % ShapeKind.allCases.count]
            let center = Self.coordinate(random.uniform(-89...89), random.uniform(-180...180))
            let shape = try SyntheticShapes.shape(kind, around: center, sizeDegrees: random.uniform(0.001...5), random: &random)
            let point = random.chance(0.5)
                ? Self.coordinate(random.uniform(-90...90), random.uniform(-180...180))
                : Self.coordinate(min(90, max(-90, center.latitude + random.uniform(-3...3))),
                                  BoundingBox.wrapped(center.longitude + random.uniform(-3...3)))
            let bound = ShapeBoundaryDistance.lowerBoundMeters(from: point, to: shape.extent)
            #expect(bound <= ShapeBoundaryDistance.meters(from: point, to: shape))
        }
        let across = BoundingBox(unchecked: 179, -1, -179, 1)
        #expect(ShapeBoundaryDistance.lowerBoundMeters(from: Self.coordinate(0, 180), to: across) == 0)
        let west = ShapeBoundaryDistance.lowerBoundMeters(from: Self.coordinate(0, 178), to: across)
        #expect(west > 110_000 && west <= Geodesic.inverseMeters(0, 178, 0, 179))
        let east = ShapeBoundaryDistance.lowerBoundMeters(from: Self.coordinate(0, -178), to: across)
        #expect(east > 110_000 && east <= Geodesic.inverseMeters(0, -178, 0, -179))
    }
}

/// The brute-force oracle: every edge sampled at `samplesPerEdge` points (ends included); the 8 brackets with
/// the nearest ends are resampled at 64 points each, and again, for 8 rounds, so a bracket ends up about 1e-14
/// of its edge wide; the least Karney distance seen is the answer. Independent of the method under test: no
/// bound, no pruning, only sampling.
enum BoundaryDistanceOracle {
    static func meters(from point: Coordinate, to shape: Shape, samplesPerEdge: Int) -> Double {
        func distance(_ latitude: Double, _ longitude: Double) -> Double {
            Geodesic.inverseMeters(point.latitude, point.longitude, latitude, longitude)
        }
        let parts = shape.parts
        if !shape.kind.isAreal, !shape.kind.isLinear {
            return (0..<shape.vertexCount).map { distance(shape.vertex($0).latitude, shape.vertex($0).longitude) }.min() ?? .infinity
        }
        struct Bracket { var start: Int; var ta: Double; var tb: Double; var nearest: Double }
        func sample(_ start: Int, _ ta: Double, _ tb: Double, _ count: Int, into brackets: inout [Bracket], best: inout Double) {
            let lon0 = parts.positions[2 * start], lat0 = parts.positions[2 * start + 1]
            let lon1 = parts.positions[2 * start + 2], lat1 = parts.positions[2 * start + 3]
            var previous = Double.nan, previousT = ta
            for i in 0...count {
                let t = i == count ? tb : ta + (tb - ta) * Double(i) / Double(count)
                let f = t == 0 ? distance(lat0, lon0) : t == 1 ? distance(lat1, lon1)
                    : distance(lat0 + t * (lat1 - lat0), lon0 + t * (lon1 - lon0))
                best = min(best, f)
                if i > 0 { brackets.append(Bracket(start: start, ta: previousT, tb: t, nearest: min(previous, f))) }
                previous = f
                previousT = t
            }
        }
        var best = Double.infinity
        var brackets: [Bracket] = []
        for ring in parts.ringEnds.indices {
            let range = parts.positionRange(ofRing: ring)
            for start in range.lowerBound..<(range.upperBound - 1) {
                sample(start, 0, 1, samplesPerEdge, into: &brackets, best: &best)
            }
        }
        for _ in 0..<8 {
            brackets.sort { $0.nearest < $1.nearest }
            let kept = brackets.prefix(8)
            var next: [Bracket] = []
            for bracket in kept { sample(bracket.start, bracket.ta, bracket.tb, 64, into: &next, best: &best) }
            brackets = next
        }
        return best
    }
}
