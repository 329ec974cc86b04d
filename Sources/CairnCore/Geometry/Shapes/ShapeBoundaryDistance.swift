#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WGS84 geodesic distance from a point to a shape's boundary: the minimum, over every point of every edge
/// (vertices included), of Karney's geodesic distance (`GeodesicSolver`), within `toleranceMeters` (0.1 mm) of
/// the exact minimum. A polygon's boundary is every ring, holes included; a line's is the line itself; a point
/// shape's is its points. Being inside a polygon does not make the distance 0 (callers that want "0 inside" test
/// containment first).
///
/// Edges are straight in longitude/latitude (planar lon/lat, as GEOS, shapely and PostGIS `geometry` see them, and
/// as containment tests them): edge i is E(t) = (λ₀ + t Δλ, φ₀ + t Δφ), t ∈ [0, 1]. Edges never cross the
/// antimeridian (GeoJSON splits such shapes at ±180); an edge along a pole's line is the pole itself.
///
/// Method: branch and bound over t, with the best distance found so far shared by every edge.
/// 1. The two edges at the vertex nearest in an equirectangular view are searched first (a good best early);
///    then every other edge is skipped when a lower bound is not below the best minus the tolerance: the central
///    angle from the point to the edge's lon/lat box (an edge lies in the box of its ends), first the latitude gap
///    alone (no trigonometry), then the box's (`Spherical.minimumHaversine`), times the smallest radius of
///    curvature (`DistanceBounds`: s ≥ a(1 − e²) σ).
/// 2. An edge's interval [t_a, t_b] holds f(t_a), f(t_b) (Karney at its ends). Two lower bounds on f over it,
///    the larger of which is used:
///    - Lipschitz: f changes no faster than arc length, and the arc is at most ℓ = (t_b − t_a) S, with S the
///      speed bound √((M(φ_max) Δφ)² + (p(φ_min) Δλ)²) (radians; M the meridian radius, growing with |φ|; p = N cos φ
///      the parallel's radius, shrinking with |φ|), so f ≥ (f_a + f_b − ℓ) / 2. Always valid.
///    - Quadratic: where f''(t) ≤ K on the interval, f lies above its chord minus K (t − t_a)(t_b − t)/2, whose
///      minimum has a closed form. Along a curve of geodesic curvature κ, the distance function's second
///      derivative in arc length is Hess d(T, T) + κ ⟨∇d, n⟩ ≤ max(0, q) + κ, where q = m′/m is the Hessian across
///      the radial direction (m the reduced length); the Riccati comparison with the smallest Gaussian curvature
///      (1 − e²)/a² gives q ≤ cot(r/R)/R ≤ 1/r (R = a/√(1 − e²)), so on a piece whose Lipschitz bound r_lo is
///      positive (the point is not on it) and whose distances stay below `quadraticReachMeters` (19 000 km, short
///      of the cut locus near π b ≈ 19 970 km, where the distance stops being smooth), K = (1/r_lo + κ) S² + |dS/dt|
///      (in t, with |f′| ≤ 1 in arc length). The lon/lat line's geodesic curvature (derived from the metric
///      M² dφ² + p² dλ²) is κ ≤ min(1.089 tan φ_max / a, 2 |Δλ| / (a (1 − e²) |Δφ|)) + 0.004 / a (the second form
///      stays finite at a pole), and |dS/dt| ≤ |Δφ| (0.0102 a |Δφ| + M(φ_max) |Δλ|).
///    An interval whose bound is not below the best minus the tolerance is dropped; else it is halved at its
///    midpoint, which is evaluated (and may become the best). The nearer half is searched first.
/// 3. A point exactly on an edge (its lon/lat cross product is 0) or on a vertex is at distance 0.
///
/// Why 1 mm holds: the answer is Karney's distance to a point of the boundary (so it is at least the true minimum,
/// less Karney's 15 nm), and every dropped interval or edge had a lower bound at least the answer minus 0.1 mm. The
/// bounds' own rounding is relative 1e-15 on distances below 2e7 m (nanometres). The quadratic bound's gap is
/// about ℓ² / (8 d) for a piece of arc ℓ at distance d, so near a minimum d away the search stops at pieces of
/// about √(8 d · 0.1 mm) (28 m at 1,000 km, 9 cm at 10 m); the Lipschitz bound handles a point on or very near an
/// edge, where the minimum is found by halving down to the tolerance.
///
/// Against the brute-force oracle (every edge sampled densely, then refined): `ShapeBoundaryDistanceTests`;
/// against pyproj on `Data/`: `scripts/shape-distance-check`.
public enum ShapeBoundaryDistance {
    /// How far above the exact minimum the answer may be, metres: ten times below the promised millimetre, so that
    /// rounding in the bounds cannot reach it.
    public static let toleranceMeters = 1e-4
    /// The distance up to which the quadratic bound holds (see the type's notes), metres.
    static let quadraticReachMeters = 19_000_000.0

    /// The geodesic distance in metres from `point` to the nearest point of `shape`'s boundary (see the type).
    /// - Complexity: O(n) for n edges to bound them, then per edge not pruned
    ///   O(log(ℓ / tolerance)) geodesics (ℓ its length); nearly antipodal to every edge (beyond 19 000 km)
    ///   O(√(d / tolerance)).
    public static func meters(from point: Coordinate, to shape: Shape) -> Double {
        nearest(from: point, to: shape).meters
    }

    /// The nearest point of `shape`'s boundary to `point` and its geodesic distance in metres (see the type). Of
    /// several points equally near, the first found.
    /// - Complexity: as `meters(from:to:)`.
    public static func nearest(from point: Coordinate, to shape: Shape) -> Nearest {
        nearest(from: point, to: shape, seedMeters: nil)
    }

    /// `nearest(from:to:)`, given `seedMeters` when the caller has measured the seed vertex already
    /// (`Bracket.seedMeters(from:)`, the same call with the same arguments, so the same value): the search then
    /// does not measure it again. The seed vertex ends one seeded edge and starts the other; it is measured
    /// once for both.
    /// - Complexity: as `meters(from:to:)`.
    static func nearest(from point: Coordinate, to shape: Shape, seedMeters knownSeedMeters: Double?) -> Nearest {
        let parts = shape.parts
        var best = Nearest(meters: .infinity, point: point)
        if !shape.kind.isAreal, !shape.kind.isLinear {
            for index in 0..<shape.vertexCount {
                let vertex = shape.vertex(index)
                let meters = Geodesic.inverseMeters(point.latitude, point.longitude, vertex.latitude, vertex.longitude)
                if meters < best.meters { best = Nearest(meters: meters, point: vertex) }
            }
            return best
        }
        let cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        let bounds = DistanceBounds(.wgs84)
        // Seed: the edges at the vertex nearest in an equirectangular view (no trigonometry per vertex), so that
        // the best is small before the pass that prunes with it.
        let (seededBefore, seededAfter) = seedEdges(point, parts, cosLatitude: cosLatitude)
        func search(_ start: Int, startMeters: Double? = nil, endMeters: Double? = nil) -> (start: Double, end: Double)? {
            let edge = EdgeSearch(point: point,
                                  from: Coordinate(uncheckedLatitude: parts.positions[2 * start + 1], longitude: parts.positions[2 * start]),
                                  to: Coordinate(uncheckedLatitude: parts.positions[2 * start + 3], longitude: parts.positions[2 * start + 2]))
            return edge.run(best: &best, startMeters: startMeters, endMeters: endMeters)
        }
        var seedMeters = knownSeedMeters
        if seededBefore >= 0, let ends = search(seededBefore, endMeters: seedMeters) { seedMeters = ends.end }
        if seededAfter >= 0 { _ = search(seededAfter, startMeters: seedMeters) }
        for ring in parts.ringEnds.indices {
            let range = parts.positionRange(ofRing: ring)
            for start in range.lowerBound..<(range.upperBound - 1) where start != seededBefore && start != seededAfter {
                if best.meters == 0 { return best }
                let lon0 = parts.positions[2 * start], lat0 = parts.positions[2 * start + 1]
                let lon1 = parts.positions[2 * start + 2], lat1 = parts.positions[2 * start + 3]
                let south = min(lat0, lat1), north = max(lat0, lat1)
                // First without trigonometry: σ is at least the latitude gap (latitude is 1-Lipschitz on the sphere).
                let gap = max(0, south - point.latitude, point.latitude - north) * Spherical.radiansPerDegree
                let prune = best.meters - toleranceMeters
                guard bounds.lowRadiusMeters * gap * (1 - DistanceBounds.relativeMargin) - DistanceBounds.absoluteMarginMeters < prune
                else { continue }
                let haversine = Spherical.minimumHaversine(
                    latitude: point.latitude, longitude: point.longitude, cosLatitude: cosLatitude,
                    minLongitude: min(lon0, lon1), minLatitude: south, maxLongitude: max(lon0, lon1), maxLatitude: north)
                guard bounds.lowerBoundMeters(haversine: haversine) < prune else { continue }
                _ = search(start)
            }
        }
        return best
    }

    /// The edges `nearest(from:to:)` searches first (their start positions, -1 for none): those ending and
    /// starting at the vertex nearest `point` in an equirectangular view (no trigonometry per vertex; the first
    /// of several equally near), whose ends it measures before any other point.
    /// - Complexity: O(v) for v vertices.
    @inline(__always)
    static func seedEdges(_ point: Coordinate, _ parts: ShapeParts, cosLatitude: Double) -> (before: Int, after: Int) {
        var seed = 0, seedScore = Double.infinity
        parts.positions.withUnsafeBufferPointer { positions in
            for position in 0..<(positions.count / 2) {
                let dx = Spherical.angularGapDegrees(positions[2 &* position], point.longitude) * cosLatitude
                let dy = positions[2 &* position &+ 1] - point.latitude
                let score = dx * dx + dy * dy
                if score < seedScore { seed = position; seedScore = score }
            }
        }
        let seedRing = parts.positionRange(ofRing: parts.ringEnds.firstIndex { $0 > seed } ?? 0)
        return (seed > seedRing.lowerBound ? seed - 1 : -1, seed + 1 < seedRing.upperBound ? seed : -1)
    }

    /// A lower bound in metres on the geodesic distance from `point` to every point of `box` (edges included; a box
    /// across the antimeridian as its two longitude ranges): the central angle to the box times the smallest radius
    /// of curvature. A shape's edges lie in its `extent`, so this never exceeds `meters(from:to:)` for a shape
    /// whose extent is `box`: callers skip shapes far away with it. 0 for a point in the box.
    /// - Complexity: O(1).
    public static func lowerBoundMeters(from point: Coordinate, to box: BoundingBox) -> Double {
        let cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        func haversine(west: Double, east: Double) -> Double {
            Spherical.minimumHaversine(latitude: point.latitude, longitude: point.longitude, cosLatitude: cosLatitude,
                                       minLongitude: west, minLatitude: box.south, maxLongitude: east, maxLatitude: box.north)
        }
        let h = box.crossesAntimeridian
            ? min(haversine(west: box.west, east: 180), haversine(west: -180, east: box.east))
            : haversine(west: box.west, east: box.east)
        return DistanceBounds(.wgs84).lowerBoundMeters(haversine: h)
    }
}
