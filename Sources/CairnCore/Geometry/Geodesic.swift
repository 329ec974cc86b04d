import CPROJ

/// PROJ's geodesic routines (`geodesic.h`) for the WGS84 ellipsoid, loaded from libproj at their first use (see
/// `SharedLibrary`: a box query never pays for PROJ).
///
/// `geod_init` fills a plain C struct of series coefficients; after that the struct is only read, and
/// `geod_inverse`/`geod_direct` are pure functions of their arguments, so sharing one instance between threads is
/// safe. It is allocated once and never freed (process lifetime).
private struct PROJGeodesic: @unchecked Sendable {
    typealias Inverse = @convention(c) (UnsafePointer<geod_geodesic>?, Double, Double, Double, Double,
                                        UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?,
                                        UnsafeMutablePointer<Double>?) -> Void
    typealias Direct = @convention(c) (UnsafePointer<geod_geodesic>?, Double, Double, Double, Double,
                                       UnsafeMutablePointer<Double>?, UnsafeMutablePointer<Double>?,
                                       UnsafeMutablePointer<Double>?) -> Void
    typealias Initialise = @convention(c) (UnsafeMutablePointer<geod_geodesic>?, Double, Double) -> Void

    let wgs84: UnsafePointer<geod_geodesic>
    let inverse: Inverse
    let direct: Direct

    /// The sonames of PROJ releases with `geodesic.h` (4.9 on), newest first; the unversioned name last.
    private static let libraryNames = (19...30).reversed().map { "libproj.so.\($0)" } + ["libproj.so", "libproj.dylib"]

    /// Loads libproj; a missing libproj is an installation error that no caller can recover from.
    static let shared: PROJGeodesic = {
        guard let library = SharedLibrary(firstOf: libraryNames),
              let initialise = library.function("geod_init", as: Initialise.self),
              let inverse = library.function("geod_inverse", as: Inverse.self),
              let direct = library.function("geod_direct", as: Direct.self) else {
            fatalError("Cairn needs PROJ's libproj for WGS84 distances (Debian: apt install libproj25): \(SharedLibrary.loadError)")
        }
        let g = UnsafeMutablePointer<geod_geodesic>.allocate(capacity: 1)
        // geod_init(g, a, f): a = equatorial radius in metres, f = flattening; returns nothing, cannot fail.
        initialise(g, WGS84.equatorialRadiusMeters, WGS84.flattening)
        return PROJGeodesic(wgs84: UnsafePointer(g), inverse: inverse, direct: direct)
    }()
}

/// Thin internal wrappers over PROJ's implementation of Karney's geodesic algorithms (`geodesic.h`).
enum Geodesic {
    /// The ellipsoidal geodesic distance in metres from (lat1, lon1) to (lat2, lon2), degrees.
    ///
    /// Corresponding C function: `geod_inverse`. Convention: outputs through pointers, NULL for the ones
    /// not wanted (here both azimuths); latitudes must be in [-90, 90]; no error reporting (NaN in, NaN out).
    @inline(__always)
    static func inverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let proj = PROJGeodesic.shared
        var s12 = 0.0
        proj.inverse(proj.wgs84, lat1, lon1, lat2, lon2, &s12, nil, nil)
        return s12
    }

    /// The point reached from (lat1, lon1) going `s12` metres along the geodesic with initial azimuth `azi1`
    /// (degrees clockwise from north). Returns (latitude, longitude) in degrees, longitude in [-180, 180].
    ///
    /// Corresponding C function: `geod_direct`. Convention: outputs through pointers, NULL for the final
    /// azimuth; no error reporting (NaN in, NaN out).
    static func direct(_ lat1: Double, _ lon1: Double, azimuthDegrees azi1: Double, meters s12: Double) -> (Double, Double) {
        let proj = PROJGeodesic.shared
        var lat2 = 0.0, lon2 = 0.0
        proj.direct(proj.wgs84, lat1, lon1, azi1, s12, &lat2, &lon2, nil)
        return (lat2, lon2)
    }
}
