import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `ShapeBoundaryDistance.bracket` and `EdgeChordBounds` against the methods they stand in for: the bracket holds
/// `meters(from:to:)`'s own answer (Karney's inverse on every edge not pruned, the exact method) and the seed
/// vertex's distance is never below it, on seeded shapes at park scale, near the poles, at ±180, with holes and
/// with points on the boundary; the brute-force oracle (`BoundaryDistanceOracle`) lies inside too; and the edge's
/// chord bounds hold against the chord sampled densely along the edge; and the search handed the seed vertex's
/// distance answers as the search alone.
@Suite("Bounds on the distance to a shape's boundary")
struct ShapeBoundaryDistanceBracketTests {
    static func coordinate(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(uncheckedLatitude: latitude, longitude: longitude)
    }

    /// Checks the bracket (when there is one) against `meters(from:to:)` and, with `oracle`, the brute force.
    /// Returns whether there was one.
    @discardableResult
    static func expectHolds(_ point: Coordinate, _ shape: Shape, oracle: Bool = false,
                            sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        guard let bracket = ShapeBoundaryDistance.bracket(from: point, to: shape) else { return false }
        let answer = ShapeBoundaryDistance.meters(from: point, to: shape)
        #expect(bracket.lowerMeters <= answer && answer <= bracket.upperMeters,
                "\(point): \(answer) m outside [\(bracket.lowerMeters), \(bracket.upperMeters)]", sourceLocation: sourceLocation)
        #expect(bracket.seedMeters(from: point) >= answer, "\(point)", sourceLocation: sourceLocation)
        // The seed vertex's distance handed to the search (as check-ins do) changes nothing, bit for bit.
        let handed = ShapeBoundaryDistance.nearest(from: point, to: shape, seedMeters: bracket.seedMeters(from: point))
        let searched = ShapeBoundaryDistance.nearest(from: point, to: shape)
        #expect(handed.meters.bitPattern == searched.meters.bitPattern && handed.point == searched.point,
                "\(point): \(handed) against \(searched)", sourceLocation: sourceLocation)
        if oracle {
            let exact = BoundaryDistanceOracle.meters(from: point, to: shape, samplesPerEdge: 400)
            #expect(bracket.lowerMeters <= exact, "\(point): oracle \(exact) m", sourceLocation: sourceLocation)
            #expect(exact <= bracket.upperMeters - ShapeBoundaryDistance.toleranceMeters,
                    "\(point): oracle \(exact) m", sourceLocation: sourceLocation)
        }
        return true
    }

    enum Place: String, CaseIterable, CustomTestStringConvertible {
        case parkScale, nearPoles, antimeridian, kilometres
        var testDescription: String { rawValue }
    }

    /// Seeded polygons (half with a hole) and lines, points around them: the bracket holds the answer.
    @Test(arguments: Place.allCases)
    func seededShapesKeepTheAnswerInTheBracket(place: Place) throws {
        var random = SplitMix64(seed: 4_100 + UInt64(Place.allCases.firstIndex(of: place) ?? 0))
        let kinds: [ShapeKind] = [.polygon, .multiPolygon, .lineString, .multiLineString]
        var bracketed = 0, points = 0
        for round in 0..<120 {
            let center: Coordinate
            let size: Double
            switch place {
            case .parkScale:
                center = Self.coordinate(random.uniform(-60...70), random.uniform(-179...179))
                size = random.uniform(0.001...0.03)
            case .nearPoles:
                center = Self.coordinate((random.chance(0.5) ? 1 : -1) * random.uniform(88...89.99), random.uniform(-180...180))
                size = random.uniform(0.001...0.03)
            case .antimeridian:
                center = Self.coordinate(random.uniform(-70...70), (random.chance(0.5) ? 1 : -1) * random.uniform(179.99...180))
                size = random.uniform(0.001...0.03)
            case .kilometres:
                center = Self.coordinate(random.uniform(-80...80), random.uniform(-180...180))
                size = random.uniform(0.03...0.1)
            }
            let shape = try SyntheticShapes.shape(kinds[round % kinds.count], around: center, sizeDegrees: size, random: &random)
            for n in 0..<12 {
                let latitude = min(90, max(-90, center.latitude + random.uniform(-1...1) * size))
                let longitude = BoundingBox.wrapped(center.longitude + random.uniform(-1...1) * size)
                points += 1
                if Self.expectHolds(Self.coordinate(latitude, longitude), shape, oracle: n == 0) { bracketed += 1 }
            }
        }
        // At park scale nearly every point is bracketed; elsewhere most.
        #expect(bracketed * 10 >= points * (place == .parkScale ? 9 : 5), "\(bracketed) of \(points)")
    }

    /// Points on a vertex, on an edge (outer ring and hole), in a hole, and micrometres off an edge.
    @Test func pointsOnAndNearTheBoundary() throws {
        var parts = ShapeParts(kind: .polygon)
        for (lon, lat) in [(24.90, 60.16), (24.92, 60.16), (24.92, 60.17), (24.90, 60.17), (24.90, 60.16)] {
            parts.append(longitude: lon, latitude: lat)
        }
        parts.endRing()
        for (lon, lat) in [(24.905, 60.163), (24.905, 60.167), (24.915, 60.167), (24.915, 60.163), (24.905, 60.163)] {
            parts.append(longitude: lon, latitude: lat)
        }
        parts.endRing()
        parts.endPolygon()
        let shape = try Shape(checking: parts)
        for (latitude, longitude) in [(60.16, 24.90), (60.16, 24.91), (60.165, 24.92), (60.163, 24.91), (60.165, 24.905),
                                      (60.165, 24.91), (60.1645, 24.9101), (60.159, 24.91), (60.16 - 1e-10, 24.91),
                                      (60.171, 24.921), (60.1630000001, 24.9051)] {
            let point = Self.coordinate(latitude, longitude)
            #expect(Self.expectHolds(point, shape, oracle: true), "\(point) not bracketed")
        }
        let onVertex = try #require(ShapeBoundaryDistance.bracket(from: Self.coordinate(60.16, 24.90), to: shape))
        #expect(onVertex.lowerMeters == 0 && onVertex.seedMeters(from: Self.coordinate(60.16, 24.90)) == 0)
        // In the hole's middle, 223 m from its edges: the bracket is micrometres wide beyond the tolerance.
        let inHole = try #require(ShapeBoundaryDistance.bracket(from: Self.coordinate(60.165, 24.91), to: shape))
        #expect(inHole.upperMeters - inHole.lowerMeters <= ShapeBoundaryDistance.toleranceMeters + 1e-5)
    }

    /// A polygon split at ±180 and points on both sides of the meridian, and a ring around a pole.
    @Test func antimeridianAndPole() throws {
        var split = ShapeParts(kind: .multiPolygon)
        for ring in [[(179.99, -17.01), (180, -17.01), (180, -17), (179.99, -17), (179.99, -17.01)],
                     [(-180, -17.01), (-179.99, -17.01), (-179.99, -17), (-180, -17), (-180, -17.01)]] {
            for (lon, lat) in ring { split.append(longitude: lon, latitude: lat) }
            split.endRing()
            split.endPolygon()
        }
        let fiji = try Shape(checking: split)
        for (latitude, longitude) in [(-17.02, 179.995), (-17.02, -179.995), (-17.005, 179.98), (-17.005, -179.98),
                                      (-16.995, 180.0), (-17.02, -180.0)] {
            #expect(Self.expectHolds(Self.coordinate(latitude, longitude), fiji, oracle: true))
        }
        var cap = ShapeParts(kind: .polygon)
        for (lon, lat) in [(-180.0, 89.99), (-60, 89.995), (60, 89.99), (180, 89.99), (180, 90), (-180, 90), (-180, 89.99)] {
            cap.append(longitude: lon, latitude: lat)
        }
        cap.endRing()
        cap.endPolygon()
        let arctic = try Shape(checking: cap)
        var random = SplitMix64(seed: 41)
        for _ in 0..<40 {
            Self.expectHolds(Self.coordinate(random.uniform(89.98...90), random.uniform(-180...180)), arctic, oracle: true)
        }
    }

    /// The edge's chord bounds against the chord sampled at 4,001 points: the lower bound is below every sample,
    /// the upper bound (the chord at the point found) at most a nanometre above the least sample.
    @Test func edgeChordBoundsHoldAgainstSampledChords() throws {
        var random = SplitMix64(seed: 4_242)
        var checked = 0
        for round in 0..<600 {
            let latitude = round % 6 == 0 ? random.uniform(85...89.9) : random.uniform(-80...80)
            let longitude = round % 6 == 1 ? 179.99 : random.uniform(-180...180)
            let length = round % 3 == 0 ? random.uniform(0.0001...0.003) : random.uniform(0.003...0.05)
            let angle = random.uniform(0...(2 * Double.pi))
            let lat0 = latitude, lon0 = longitude
            let lat1 = min(90, max(-90, lat0 + length * sin(angle))), lon1 = min(180, lon0 + length * cos(angle))
            let point = Self.coordinate(min(90, max(-90, lat0 + random.uniform(-1...1) * length)),
                                        BoundingBox.wrapped(lon0 + random.uniform(-1...1) * length))
            let bounds = EdgeChordBounds(point: point)
            let guess = random.unit()
            guard let chord = bounds.chordBounds(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1, guess: guess) else { continue }
            checked += 1
            var least = Double.infinity
            for i in 0...4_000 {
                let t = Double(i) / 4_000
                let lat = lat0 + t * (lat1 - lat0), lon = lon0 + t * (lon1 - lon0)
                least = min(least, GeodesicChord.chordMeters(bounds.axisDistanceMeters, bounds.heightMeters, point.longitude,
                                                              lat, lon, cosLatitude: cos(lat * Spherical.radiansPerDegree)))
            }
            #expect(chord.lowerMeters <= least + 1e-8, "round \(round): \(chord.lowerMeters) > \(least)")
            #expect(chord.upperMeters <= least + 1e-7, "round \(round): \(chord.upperMeters) vs \(least)")
            #expect(chord.lowerMeters <= chord.upperMeters)
            // The planar bound, with the band's cosine at most every latitude's on the edge, is below the geodesic
            // to every point of the edge (here to 201 of them).
            let bandCosine = cos(max(abs(point.latitude), abs(lat0), abs(lat1)) * Spherical.radiansPerDegree)
            let planar = bounds.planar(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1, bandCosine: bandCosine)
            let planarMeters = EdgeChordBounds.planarLowerBoundMeters(scaledRadians: planar.scaledRadians, factor: planar.factor)
            for i in 0...200 {
                let t = Double(i) / 200
                let meters = Geodesic.inverseMeters(point.latitude, point.longitude, lat0 + t * (lat1 - lat0), lon0 + t * (lon1 - lon0))
                #expect(planarMeters <= meters, "round \(round): planar \(planarMeters) m > \(meters) m at t \(t)")
            }
            // The bound computed alone (the bracket's first pass) is the same value.
            let alone = bounds.planarLowerBoundMeters(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1, bandCosine: bandCosine)
            #expect(alone.meters == planarMeters && alone.factor == planar.factor, "round \(round)")
            // And within a per cent of the chord near the equator (it prunes).
            if abs(point.latitude) < 60, least > 1 { #expect(planarMeters >= 0.98 * least, "round \(round)") }
        }
        #expect(checked >= 500, "\(checked)")
    }
}
