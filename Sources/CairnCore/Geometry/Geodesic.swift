/// The WGS84 geodesic, by Cairn's own implementation of Karney's algorithms (`GeodesicSolver`): no WGS84
/// distance loads PROJ (opening libproj and its 36 dependencies cost a one-off query about 9 ms).
enum Geodesic {
    /// The ellipsoidal geodesic distance in metres from (lat1, lon1) to (lat2, lon2), degrees.
    /// Latitudes must be in [-90, 90] (else NaN); longitudes may be any finite value; NaN in, NaN out.
    /// - Complexity: O(1), Newton's method with 2–3 steps on average (see `GeodesicSolver`).
    @inline(__always)
    static func inverseMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        GeodesicSolver.wgs84.inverseMeters(lat1, lon1, lat2, lon2)
    }

    /// The point reached from (lat1, lon1) going `s12` metres along the geodesic with initial azimuth `azi1`
    /// (degrees clockwise from north). Returns (latitude, longitude) in degrees, longitude in [-180, 180].
    /// NaN in, NaN out.
    /// - Complexity: O(1), no iteration.
    static func direct(_ lat1: Double, _ lon1: Double, azimuthDegrees azi1: Double, meters s12: Double) -> (Double, Double) {
        GeodesicSolver.wgs84.direct(lat1, lon1, azimuthDegrees: azi1, meters: s12)
    }
}
