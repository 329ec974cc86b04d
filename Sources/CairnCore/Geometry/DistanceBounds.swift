#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Provably conservative bounds on a model's distance from the central angle σ between two points, where σ
/// is computed on the unit sphere with the points' geodetic latitudes and longitudes (the angle between the
/// surface normals).
///
/// The bound for `.wgs84`: for any two points, `Rmin · σ ≤ s ≤ Rmax · σ`, with `s` the ellipsoidal geodesic
/// distance and `Rmin = a(1 - e²)`, `Rmax = a / √(1 - e²)` the smallest and largest principal radii of
/// curvature of the ellipsoid. Proof: the inverse Gauss map (unit normal → surface point) has a symmetric
/// differential whose eigenvalues are the principal radii, so it stretches every tangent vector by a factor
/// in [Rmin, Rmax]. Mapping the great circle between the normals onto the ellipsoid gives a curve of length
/// at most Rmax·σ, and the geodesic is no longer than it; mapping the geodesic onto the sphere gives a curve of
/// length at most s/Rmin that is no shorter than the great circle, σ. The band is about ±0.5 % wide.
/// For `.sphere`, `s = R·σ` exactly (Rmin = Rmax = R).
///
/// The same argument holds with the radii found along the path only, which `init(_:south:north:)` uses for a
/// circle query: the principal radii at latitude φ are M(φ) ≤ N(φ), both growing with |φ|. If every point
/// the argument maps lies within the latitude band B, then M(min |φ| on B)·σ ≤ s ≤ N(max |φ| on B)·σ. For a
/// circle of radius r around c, take B = the latitudes within σ_out = r / Rmin of c's: (upper bound) the great
/// circle arc from c's normal to a candidate's stays within σ of c, and only candidates with σ ≤ σ_out are
/// accepted; (lower bound) if s ≤ r, the geodesic's every point is within r of c, hence within σ_out of it.
/// For small circles this narrows the band from ±0.5 % to about ±0.34 % at the equator and less elsewhere.
///
/// Every bound is widened by `relativeMargin` and `absoluteMarginMeters` on distances, and by
/// `haversineMargin` on computed haversines, more than the rounding they must absorb: `geod_inverse` is
/// accurate to ~15 nm; a computed hav σ is within about 1e-15 of the exact one (absolute, from the rounded
/// coordinate differences and products; the error in σ this causes grows without bound near antipodes, which
/// an absolute margin on hav σ itself covers uniformly).
struct DistanceBounds {
    /// Smallest metres per radian of σ.
    let lowRadiusMeters: Double
    /// Largest metres per radian of σ.
    let highRadiusMeters: Double

    static let relativeMargin = 1e-9
    static let absoluteMarginMeters = 1e-6
    static let haversineMargin = 1e-14

    init(_ model: DistanceModel) {
        switch model {
        case .wgs84:
            lowRadiusMeters = WGS84.minimumCurvatureRadiusMeters
            highRadiusMeters = WGS84.maximumCurvatureRadiusMeters
        case .sphere:
            lowRadiusMeters = DistanceModel.sphereRadiusMeters
            highRadiusMeters = DistanceModel.sphereRadiusMeters
        }
    }

    init(lowRadiusMeters: Double, highRadiusMeters: Double) {
        self.lowRadiusMeters = lowRadiusMeters
        self.highRadiusMeters = highRadiusMeters
    }

    /// Bounds valid for every path within the latitude band `south...north` (degrees, may overshoot a pole):
    /// see the type's notes.
    init(_ model: DistanceModel, south: Double, north: Double) {
        switch model {
        case .wgs84:
            let nearestToEquator = south <= 0 && north >= 0 ? 0 : min(abs(south), abs(north))
            let farthestFromEquator = min(90, max(abs(south), abs(north)))
            self.init(lowRadiusMeters: WGS84.meridianRadiusMeters(latitude: nearestToEquator),
                      highRadiusMeters: WGS84.primeVerticalRadiusMeters(latitude: farthestFromEquator))
        case .sphere:
            self.init(model)
        }
    }

    /// A lower bound in metres on the model distance of two points whose computed hav σ is `h`.
    @inline(__always)
    func lowerBoundMeters(haversine h: Double) -> Double {
        let sigma = Spherical.centralAngle(haversine: max(0, h - Self.haversineMargin))
        return max(0, lowRadiusMeters * sigma * (1 - Self.relativeMargin) - Self.absoluteMarginMeters)
    }

    /// A lower bound in metres like `lowerBoundMeters(haversine:)`, a little looser and without the arcsine:
    /// σ = 2 asin √h ≥ 2 √h. For ordering candidates, where speed matters more than the last per mille.
    @inline(__always)
    func lowerBoundMetersWithoutArcsine(haversine h: Double) -> Double {
        let sigmaFloor = 2 * max(0, h - Self.haversineMargin).squareRoot()
        return max(0, lowRadiusMeters * sigmaFloor * (1 - Self.relativeMargin) - Self.absoluteMarginMeters)
    }

    /// An upper bound in metres like `upperBoundMeters(haversine:)`, looser and without the arcsine:
    /// σ = 2 asin √h = 2 atan(√h / √(1 − h)) ≤ 2 √h / √(1 − h); infinite for h ≥ 1 (antipodes).
    @inline(__always)
    func upperBoundMetersWithoutArcsine(haversine h: Double) -> Double {
        let padded = h + Self.haversineMargin
        guard padded < 1 else { return .infinity }
        let sigmaCeiling = 2 * (padded / (1 - padded)).squareRoot()
        return highRadiusMeters * sigmaCeiling * (1 + Self.relativeMargin) + Self.absoluteMarginMeters
    }

    /// An upper bound in metres on the model distance of two points whose computed hav σ is `h`.
    @inline(__always)
    func upperBoundMeters(haversine h: Double) -> Double {
        let sigma = Spherical.centralAngle(haversine: min(1, h + Self.haversineMargin))
        return highRadiusMeters * sigma * (1 + Self.relativeMargin) + Self.absoluteMarginMeters
    }

    /// The largest σ any point within `radiusMeters` can have (points beyond it are surely outside).
    @inline(__always)
    func outerAngle(radiusMeters: Double) -> Double {
        (radiusMeters + Self.absoluteMarginMeters) / (lowRadiusMeters * (1 - Self.relativeMargin))
    }

    /// The largest σ at which a point is surely within `radiusMeters` (negative when none is).
    @inline(__always)
    func innerAngle(radiusMeters: Double) -> Double {
        (radiusMeters - Self.absoluteMarginMeters) / (highRadiusMeters * (1 + Self.relativeMargin))
    }
}
