#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cheap two-sided bounds on the WGS84 geodesic distance from one fixed point to an edge straight in lon/lat
/// (E(t) = (λ₀ + t Δλ, φ₀ + t Δφ), t ∈ [0, 1], as `ShapeBoundaryDistance` reads edges), with no geodesic solved:
/// two lower bounds, a planar one for pruning (no trigonometry per edge) and a chord one micrometres tight, and
/// an upper bound at a point of the edge. `ShapeBoundaryDistance.bracket(from:to:)` uses them to bound its own
/// answer without Karney's inverse.
///
/// **Planar lower bound.** For P = (φp, λp) and Q = (φ, λ), with Δφ, Δλ their differences in radians (the edge
/// moved by a multiple of 360° so that its ends lie nearest P: the haversine is periodic in Δλ),
/// hav σ = sin²(Δφ/2) + cos φp cos φ sin²(Δλ/2). Where every |Δ| on the edge is at most D ≤ 1 (they are linear in
/// t, so the ends' bound them), |sin(x/2)| ≥ |x/2| (1 − x²/24) ≥ |x/2| F with F = 1 − D²/24 (sin y ≥ y − y³/6 ≥ 0
/// for 0 ≤ y ≤ √6). For Q within the latitude band where cos φ ≥ C (C ≤ cos φp too), hav σ ≥ F² (Δφ² + C² Δλ²) / 4,
/// and σ = 2 asin √hav σ ≥ 2 √hav σ, so s ≥ a(1 − e²) σ (`DistanceBounds`) ≥ a(1 − e²) F ‖(C Δλ, Δφ)‖: a planar
/// distance in scaled lon/lat, whose minimum over the segment has a closed form. Points of the edge outside the
/// band are farther than the band's reach, which the caller chooses beyond its best upper bound, so an edge
/// whose planar bound is at least that upper bound cannot hold a nearer point.
///
/// **Chord lower bound.** With X(t) the Earth-centred position of E(t) and g(t) = |X(t) − X(P)|² the squared
/// chord, g″ = 2 |X′|² + 2 ⟨X″, X − X(P)⟩ ≥ 2 (S²ₘᵢₙ − B c_max) =: m, where (orthogonal coordinates: |X_φ| = M,
/// |X_λ| = p = N cos φ, ⟨X_φ, X_λ⟩ = 0) |X′|² = M² Δφ² + p² Δλ² ≥ S²ₘᵢₙ = (a(1 − e²) Δφ)² + (a cos φ_far Δλ)²
/// (M ≥ a(1 − e²), N ≥ a, φ_far the edge's latitude farthest from the equator), and
/// X″ = X_φφ Δφ² + 2 X_φλ Δφ Δλ + X_λλ Δλ² with |X_φφ| = √(M² + M′²) ≤ R + 0.0102 a, |X_φλ| = M |sin φ| ≤ R,
/// |X_λλ| = p ≤ R (R = a / √(1 − e²), the largest radius; |dM/dφ| ≤ 0.0102 a), so |X″| ≤ B =
/// (R + 0.0102 a) Δφ² + 2 R |Δφ Δλ| + R Δλ²; and c_max, the largest chord on the edge, is at most
/// c(t₀) + S_max max(t₀, 1 − t₀) (S_max = R √(Δφ² + Δλ²)) for any t₀. When m > 0, g is convex with
/// g(t) ≥ g(t₀) + g′(t₀)(t − t₀) + m (t − t₀)² / 2 for every t, whose minimum over [0, 1] has a closed form: a
/// lower bound on the chord to the whole edge, tight when t₀ is its minimiser (found by Gauss–Newton steps
/// t ← t − ⟨X′, X − X(P)⟩ / |X′|², which converge at the rate c/R). The chord is at most the geodesic
/// (`GeodesicChord`), and at most a few micrometres below it for the short distances of parks.
///
/// **Upper bound.** `GeodesicChord.upperBoundMeters` of the chord to X(t₀), a point of the edge.
///
/// Rounding: the Earth-centred coordinates are within about 1e-9 m each (as `GeodesicChord`'s), so the chord is
/// within about 1e-8 m; g′ and m enter the lower bound only through g′(t₀)² / m and g′(t₀) (t − t₀) over the
/// short step left after the Newton steps. Callers widen by `DistanceBounds.absoluteMarginMeters` (1 µm).
struct EdgeChordBounds {
    /// The fixed point, degrees.
    let latitude: Double
    let longitude: Double
    /// Its Earth-centred coordinates in its own meridian plane: N cos φ and N (1 − e²) sin φ, metres.
    let axisDistanceMeters: Double
    let heightMeters: Double
    /// cos φp, for the planar bound's starting guess.
    let cosLatitude: Double

    /// The smallest and largest radii of curvature, a(1 − e²) and a / √(1 − e²), and a bound on the meridian
    /// radius's slope |dM/dφ| ≤ 0.0102 a, metres.
    static let smallestRadiusMeters = WGS84.minimumCurvatureRadiusMeters
    static let largestRadiusMeters = WGS84.maximumCurvatureRadiusMeters
    static let meridianSlopeMeters = 0.0102 * WGS84.equatorialRadiusMeters
    /// The Newton steps taken at most; two already leave the step below a nanometre for park-sized edges.
    static let newtonSteps = 3

    /// Bounds from `point`.
    init(point: Coordinate) {
        latitude = point.latitude
        longitude = point.longitude
        cosLatitude = cos(point.latitude * Spherical.radiansPerDegree)
        (axisDistanceMeters, heightMeters) = GeodesicChord.meridianPlaneMeters(latitude: point.latitude,
                                                                              cosLatitude: cosLatitude)
    }

    /// The planar lower bound's pieces for the edge from (lon0, lat0) to (lon1, lat1), degrees: the distance in
    /// scaled radians ‖(C Δλ, Δφ)‖ to the nearest point of the segment, the factor F, and the segment's nearest
    /// parameter with C = cos φp (a starting guess for `chordBounds`). F is 0 (no bound) when an end is more than
    /// a radian away.
    /// - Complexity: O(1), no trigonometry.
    @inline(__always)
    func planar(lon0: Double, lat0: Double, lon1: Double, lat1: Double, bandCosine: Double)
        -> (scaledRadians: Double, factor: Double, guess: Double) {
        let edge = offsets(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1)
        // The nearest point of the segment for the bound (C the band's cosine) and, with C = cos φp, for the guess.
        let scaledDegrees = Self.nearest(edge, scale: bandCosine).distance
        let guess = Self.nearest(edge, scale: cosLatitude).t
        return (scaledDegrees * Spherical.radiansPerDegree, edge.factor, guess)
    }

    /// `planarLowerBoundMeters` of `planar`'s pieces for the edge and band, computed alone (no guess): the same
    /// arithmetic, the same value.
    /// - Complexity: O(1), no trigonometry.
    @inline(__always)
    func planarLowerBoundMeters(lon0: Double, lat0: Double, lon1: Double, lat1: Double, bandCosine: Double)
        -> (meters: Double, factor: Double) {
        let edge = offsets(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1)
        let scaledRadians = Self.nearest(edge, scale: bandCosine).distance * Spherical.radiansPerDegree
        return (Self.planarLowerBoundMeters(scaledRadians: scaledRadians, factor: edge.factor), edge.factor)
    }

    /// The edge's ends relative to P in degrees (longitudes d, the first moved by a multiple of 360° to lie
    /// nearest P; latitudes e) and the factor F (0 when an end is more than a radian away).
    @inline(__always)
    private func offsets(lon0: Double, lat0: Double, lon1: Double, lat1: Double)
        -> (d0: Double, d1: Double, e0: Double, e1: Double, factor: Double) {
        var d0 = lon0 - longitude
        if d0 > 180 { d0 -= 360 } else if d0 < -180 { d0 += 360 }
        let d1 = d0 + (lon1 - lon0)
        let e0 = lat0 - latitude, e1 = lat1 - latitude
        let reach = max(abs(d0), abs(d1), abs(e0), abs(e1)) * Spherical.radiansPerDegree
        return (d0, d1, e0, e1, reach <= 1 ? 1 - reach * reach / 24 : 0)
    }

    /// The nearest point of the segment from P (the origin) in the metric (C Δλ, Δφ), C = `scale`: its distance
    /// in scaled degrees and its parameter t.
    @inline(__always)
    private static func nearest(_ edge: (d0: Double, d1: Double, e0: Double, e1: Double, factor: Double), scale: Double)
        -> (distance: Double, t: Double) {
        let ax = edge.d0 * scale, ay = edge.e0, bx = edge.d1 * scale, by = edge.e1
        let vx = bx - ax, vy = by - ay
        let length2 = vx * vx + vy * vy
        let t = length2 > 0 ? min(1, max(0, -(ax * vx + ay * vy) / length2)) : 0
        let x = ax + t * vx, y = ay + t * vy
        return ((x * x + y * y).squareRoot(), t)
    }

    /// A lower bound in metres on the geodesic distance to every point of the edge inside the band of cosine
    /// `bandCosine` (see the type's notes), from `planar`'s pieces.
    /// - Complexity: O(1).
    @inline(__always)
    static func planarLowerBoundMeters(scaledRadians: Double, factor: Double) -> Double {
        max(0, smallestRadiusMeters * factor * scaledRadians * (1 - DistanceBounds.relativeMargin)
            - DistanceBounds.absoluteMarginMeters)
    }

    /// The edge's point at t, its chord from P and the derivative data: (chord², ⟨X′, X − X(P)⟩, |X′|²).
    @inline(__always)
    private func evaluate(_ t: Double, lat0: Double, dLatRadians: Double, dLon0Radians: Double, dLonRadians: Double)
        -> (chord2: Double, slope: Double, speed2: Double) {
        let phi = lat0 * Spherical.radiansPerDegree + t * dLatRadians
        let lambda = dLon0Radians + t * dLonRadians
        let s = sin(phi), c = cos(phi)
        let w = 1 - WGS84.eccentricitySquared * s * s
        let n = WGS84.equatorialRadiusMeters / w.squareRoot()
        let m = n * (1 - WGS84.eccentricitySquared) / w
        let p = n * c, z = n * (1 - WGS84.eccentricitySquared) * s
        let cl = cos(lambda), sl = sin(lambda)
        let dx = p * cl - axisDistanceMeters, dy = p * sl, dz = z - heightMeters
        // X′ = X_φ Δφ + X_λ Δλ, X_φ = M (−sin φ cos λ, −sin φ sin λ, cos φ), X_λ = p (−sin λ, cos λ, 0).
        let vx = -m * s * cl * dLatRadians - p * sl * dLonRadians
        let vy = -m * s * sl * dLatRadians + p * cl * dLonRadians
        let vz = m * c * dLatRadians
        return (dx * dx + dy * dy + dz * dz, vx * dx + vy * dy + vz * dz,
                m * m * dLatRadians * dLatRadians + p * p * dLonRadians * dLonRadians)
    }

    /// Lower and upper bounds in metres on the chord from P to the edge from (lon0, lat0) to (lon1, lat1),
    /// degrees, starting the Newton steps at `guess`; nil when the edge's squared chord is not provably convex
    /// (an edge very long against its distance, or along a parallel very near a pole).
    /// - Complexity: O(1): at most `newtonSteps` + 1 evaluations of a point (five transcendental calls each).
    func chordBounds(lon0: Double, lat0: Double, lon1: Double, lat1: Double, guess: Double)
        -> (lowerMeters: Double, upperMeters: Double)? {
        let dLat = (lat1 - lat0) * Spherical.radiansPerDegree
        let dLon = (lon1 - lon0) * Spherical.radiansPerDegree
        let dLon0 = (lon0 - longitude) * Spherical.radiansPerDegree
        var t = guess
        var point = evaluate(t, lat0: lat0, dLatRadians: dLat, dLon0Radians: dLon0, dLonRadians: dLon)
        var step = 0
        while step < Self.newtonSteps, point.speed2 > 0 {
            step += 1
            let next = min(1, max(0, t - point.slope / point.speed2))
            // Converged (to the rounding of t) or held at an end the minimum lies beyond.
            if abs(next - t) <= 1e-15 { break }
            t = next
            point = evaluate(t, lat0: lat0, dLatRadians: dLat, dLon0Radians: dLon0, dLonRadians: dLon)
        }
        let chord = point.chord2.squareRoot()
        let farthestLatitude = min(90, max(abs(lat0), abs(lat1))) * Spherical.radiansPerDegree
        let cosFarthest = max(0, cos(farthestLatitude))
        let a = WGS84.equatorialRadiusMeters, r = Self.largestRadiusMeters
        let minimumSpeed2 = Self.smallestRadiusMeters * Self.smallestRadiusMeters * dLat * dLat
            + a * a * cosFarthest * cosFarthest * dLon * dLon
        let maximumSpeed = r * (dLat * dLat + dLon * dLon).squareRoot()
        let acceleration = (r + Self.meridianSlopeMeters) * dLat * dLat + 2 * r * abs(dLat * dLon) + r * dLon * dLon
        let farthestChord = chord + maximumSpeed * max(t, 1 - t)
        // A tenth off the curvature's bound: g″'s floor need not be tight (it enters only through the last step).
        let curvature = 0.9 * 2 * (minimumSpeed2 - acceleration * farthestChord)
        // An edge of one point (both ends equal): the chord to it is exact.
        if minimumSpeed2 == 0, acceleration == 0 { return (chord, chord) }
        guard curvature > 0, curvature.isFinite else { return nil }
        // min over u in [0, 1] of g0 + g1 (u − t) + curvature (u − t)² / 2, with g1 = 2 slope.
        let g1 = 2 * point.slope
        let u = min(1, max(0, t - g1 / curvature))
        let lower2 = point.chord2 + g1 * (u - t) + 0.5 * curvature * (u - t) * (u - t)
        return (max(0, lower2).squareRoot(), chord)
    }
}
