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
}
