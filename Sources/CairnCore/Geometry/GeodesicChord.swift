#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fast two-sided bound on the WGS84 geodesic distance from a fixed point (a query's centre, a place) to
/// others, from the straight line between them: the chord c through the Earth, in metres. It decides "within
/// r" or "beyond r" unless r falls inside the bound, which for the small circles of check-ins is a few
/// micrometres wide, so Karney's geodesic (`GeodesicSolver`) is left to the rare point that close to the edge.
///
/// The bound: for two points of the ellipsoid whose geodesic distance s is at most π a(1 − e²),
///
///     c ≤ s ≤ c + κ² c³ / (24 (1 − κ² c² / 4)),  κ = 1 / (a (1 − e²)),
///
/// about 28 µm at c = 3 km, 3.5 µm at 1.5 km, 1 m at 100 km. Proof. The lower bound holds for any curve
/// between the points, the geodesic included: no path is shorter than the segment. For the upper bound, let γ
/// be the shortest geodesic with unit speed on [0, s] and T its tangent. A geodesic's acceleration is normal to
/// the surface, so its curvature as a space curve is the normal curvature in its direction, which lies between
/// the principal curvatures 1/N(φ) ≤ 1/M(φ) ≤ 1/M(0) = κ (`WGS84`: M(φ) grows with |φ|). The angle between
/// T(t) and T(s/2) is at most the length of the tangent's path on the unit sphere between them, ∫κ ≤ κ |t − s/2|,
/// which is at most κ s / 2 ≤ π/2, where the cosine decreases. Hence, with u the unit chord direction,
/// c ≥ ⟨P2 − P1, T(s/2)⟩ = ∫₀ˢ ⟨T(t), T(s/2)⟩ dt ≥ ∫₀ˢ cos(κ |t − s/2|) dt = (2/κ) sin(κ s/2) (the circular
/// arc's chord; the form of Schur's comparison theorem for a bounded curvature). The right side grows with s on
/// [0, π/κ], so s ≤ (2/κ) asin(κ c / 2); and asin x = x + x³/6 + 3x⁵/40 + … ≤ x + x³ / (6 (1 − x²)) for
/// 0 ≤ x < 1 (each later coefficient is below 1/6), which gives the excess above. The premise s ≤ π/κ ≈ 19,903 km
/// is met whenever the points' hav σ is at most 1/2 (σ ≤ π/2): then s ≤ Rmax σ ≤ 10,053 km by `DistanceBounds`.
///
/// Rounding. The chord is computed from the points' Earth-centred coordinates, each within a few ulps of
/// 6.4e6 m (about 1e-9 m each, so about 1e-8 m on c, whatever the distance; the excess term's own rounding is
/// relative and far smaller); Karney's own result is within about 15 nm of the true geodesic, also at every
/// distance. So both bounds are widened by an absolute `DistanceBounds.absoluteMarginMeters` (1 µm, over
/// thirty times both together) and no relative margin; `GeodesicChordTests` checks the bound against Karney
/// on millions of seeded pairs at every latitude and distance, the poles and the antimeridian included.
struct GeodesicChord: Sendable {
    /// The fixed point, degrees.
    let latitude: Double
    let longitude: Double
    /// Its distance from the polar axis, N cos φ, and its height above the equatorial plane, N (1 − e²) sin φ,
    /// metres (the Earth-centred coordinates in the plane of its meridian).
    let axisDistanceMeters: Double
    let heightMeters: Double

    /// The largest hav σ (as computed, margin included) for which the bound holds: σ ≤ π/2.
    static let maximumHaversine = 0.5 - DistanceBounds.haversineMargin
    /// κ² / 24, with κ = 1 / (a (1 − e²)), per square metre.
    static let excessFactor = 1 / (24 * WGS84.minimumCurvatureRadiusMeters * WGS84.minimumCurvatureRadiusMeters)
    /// κ² / 4, per square metre.
    static let quarterCurvatureSquared = 1 / (4 * WGS84.minimumCurvatureRadiusMeters * WGS84.minimumCurvatureRadiusMeters)

    /// The bound's fixed point at (latitude, longitude), degrees.
    init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
        (axisDistanceMeters, heightMeters) = Self.meridianPlaneMeters(latitude: latitude,
                                                                     cosLatitude: cos(latitude * Spherical.radiansPerDegree))
    }

    /// N cos φ and N (1 − e²) sin φ for the surface point at `latitude` (degrees) whose cosine is `cosLatitude`.
    @inline(__always)
    static func meridianPlaneMeters(latitude: Double, cosLatitude: Double) -> (Double, Double) {
        let sinLatitude = sin(latitude * Spherical.radiansPerDegree)
        let n = WGS84.equatorialRadiusMeters / (1 - WGS84.eccentricitySquared * sinLatitude * sinLatitude).squareRoot()
        return (n * cosLatitude, n * (1 - WGS84.eccentricitySquared) * sinLatitude)
    }

    /// The chord in metres from the fixed point to the surface point (lat, lon), degrees, whose cos φ is
    /// `cosLatitude` (callers have it from the haversine).
    @inline(__always)
    func chordMeters(_ lat: Double, _ lon: Double, cosLatitude: Double) -> Double {
        Self.chordMeters(axisDistanceMeters, heightMeters, longitude, lat, lon, cosLatitude: cosLatitude)
    }

    /// `chordMeters` from a fixed point given by its meridian-plane coordinates and longitude.
    @inline(__always)
    static func chordMeters(_ axisDistance: Double, _ height: Double, _ longitude: Double,
                            _ lat: Double, _ lon: Double, cosLatitude: Double) -> Double {
        let (rho, z) = meridianPlaneMeters(latitude: lat, cosLatitude: cosLatitude)
        let dLon = (lon - longitude) * Spherical.radiansPerDegree
        let dx = rho * cos(dLon) - axisDistance
        let dy = rho * sin(dLon)
        let dz = z - height
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// A lower bound in metres on the geodesic distance of two points whose chord is `chord`.
    @inline(__always)
    static func lowerBoundMeters(chord: Double) -> Double {
        max(0, chord - DistanceBounds.absoluteMarginMeters)
    }

    /// An upper bound in metres on the geodesic distance of two points whose chord is `chord` and whose hav σ
    /// is at most `maximumHaversine` (see the type's notes).
    @inline(__always)
    static func upperBoundMeters(chord: Double) -> Double {
        let c2 = chord * chord
        let excess = excessFactor * c2 * chord / (1 - quarterCurvatureSquared * c2)
        return chord + excess + DistanceBounds.absoluteMarginMeters
    }
}
