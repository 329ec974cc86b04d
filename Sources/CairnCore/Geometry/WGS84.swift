#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The WGS84 ellipsoid's defining constants and the radii of curvature that bound it.
enum WGS84 {
    /// Equatorial radius a, metres (WGS84 definition).
    static let equatorialRadiusMeters = 6_378_137.0
    /// Flattening f = (a - b) / a (WGS84 definition).
    static let flattening = 1 / 298.257223563
    /// First eccentricity squared, e² = f (2 - f).
    static let eccentricitySquared = flattening * (2 - flattening)

    /// The smallest principal radius of curvature anywhere on the ellipsoid: the meridian radius at the
    /// equator, a (1 - e²) ≈ 6 335 439.3 m.
    static let minimumCurvatureRadiusMeters = equatorialRadiusMeters * (1 - eccentricitySquared)
    /// The largest principal radius of curvature anywhere on the ellipsoid: the radius at the poles,
    /// a / √(1 - e²) ≈ 6 399 593.6 m.
    static let maximumCurvatureRadiusMeters = equatorialRadiusMeters / (1 - eccentricitySquared).squareRoot()

    /// The meridian radius of curvature M(φ) = a (1 - e²) / (1 - e² sin² φ)^(3/2) at geodetic latitude φ
    /// (degrees), metres. Grows with |φ|; never above N(φ).
    static func meridianRadiusMeters(latitude: Double) -> Double {
        let s = sin(latitude * Spherical.radiansPerDegree)
        let w = 1 - eccentricitySquared * s * s
        return equatorialRadiusMeters * (1 - eccentricitySquared) / (w * w.squareRoot())
    }

    /// The prime-vertical radius of curvature N(φ) = a / (1 - e² sin² φ)^(1/2) at geodetic latitude φ
    /// (degrees), metres. Grows with |φ|; the larger of the two principal radii.
    static func primeVerticalRadiusMeters(latitude: Double) -> Double {
        let s = sin(latitude * Spherical.radiansPerDegree)
        return equatorialRadiusMeters / (1 - eccentricitySquared * s * s).squareRoot()
    }
}
