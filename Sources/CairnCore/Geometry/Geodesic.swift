import CPROJ

/// The WGS84 ellipsoid as PROJ's geodesic routines need it, initialised once.
///
/// `geod_init` fills a plain C struct of series coefficients; after that the struct is only read, and
/// `geod_inverse`/`geod_direct` are pure functions of their arguments, so sharing one instance between
/// threads is safe. It is allocated once and never freed (process lifetime).
nonisolated(unsafe) private let wgs84Geodesic: UnsafePointer<geod_geodesic> = {
    let g = UnsafeMutablePointer<geod_geodesic>.allocate(capacity: 1)
    // geod_init(g, a, f): a = equatorial radius in metres, f = flattening; returns nothing, cannot fail.
    geod_init(g, WGS84.equatorialRadiusMeters, WGS84.flattening)
    return UnsafePointer(g)
}()

/// Thin internal wrappers over PROJ's implementation of Karney's geodesic algorithms (`geodesic.h`).
enum Geodesic {
    /// The ellipsoidal geodesic distance in metres from (lat1, lon1) to (lat2, lon2), degrees.
    ///
    /// Corresponding C function: `geod_inverse`. Convention: outputs through pointers, NULL for the ones
    /// not wanted (here both azimuths); latitudes must be in [-90, 90]; no error reporting (NaN in, NaN out).
    @inline(__always)
    static func inverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        var s12 = 0.0
        geod_inverse(wgs84Geodesic, lat1, lon1, lat2, lon2, &s12, nil, nil)
        return s12
    }

    /// The point reached from (lat1, lon1) going `s12` metres along the geodesic with initial azimuth `azi1`
    /// (degrees clockwise from north). Returns (latitude, longitude) in degrees, longitude in [-180, 180].
    ///
    /// Corresponding C function: `geod_direct`. Convention: outputs through pointers, NULL for the final
    /// azimuth; no error reporting (NaN in, NaN out).
    static func direct(_ lat1: Double, _ lon1: Double, azimuthDegrees azi1: Double, meters s12: Double) -> (Double, Double) {
        var lat2 = 0.0, lon2 = 0.0
        geod_direct(wgs84Geodesic, lat1, lon1, azi1, s12, &lat2, &lon2, nil)
        return (lat2, lon2)
    }
}
