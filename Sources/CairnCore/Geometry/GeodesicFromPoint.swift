/// Karney's inverse problem from one fixed point to many others (a query's centre to the candidates of an index):
/// the fixed point's reduced latitude and its longitude's reduction are computed once instead of per distance.
///
/// Each distance has the bits `Geodesic.inverseMeters(latitude, longitude, lat2, lon2)` gives (the fixed point
/// first, as `measure` is called): the same operations on the same values, with the fixed point's sine, cosine
/// and remainder read from here (`GeodesicLatitude` explains why its mirror image needs no second reduction).
/// `GeodesicFromPointTests` checks the bits on millions of seeded pairs.
struct GeodesicFromPoint: Sendable {
    /// The fixed point's longitude, degrees.
    let longitude: Double
    /// `(-longitude).remainder(dividingBy: 360)`.
    let reducedNegatedLongitude: Double
    /// The fixed point's latitude, rounded and reduced.
    let latitude: GeodesicLatitude

    /// The fixed point (latitude, longitude), degrees, on WGS84.
    /// - Complexity: O(1), a sine and a cosine.
    init(latitude: Double, longitude: Double) {
        self.longitude = longitude
        reducedNegatedLongitude = GeodesicAngles.reduced360(-longitude)
        self.latitude = GeodesicLatitude(GeodesicAngles.rounded(GeodesicAngles.checkedLatitude(latitude)), .wgs84)
    }

    /// The WGS84 geodesic distance in metres from the fixed point to (lat2, lon2), degrees.
    /// - Complexity: O(1), as `Geodesic.inverseMeters` less one sine, one cosine and a remainder.
    @inline(__always)
    func meters(toLatitude lat2: Double, longitude lon2: Double) -> Double {
        let solver = GeodesicSolver.wgs84
        let (lon12, lon12s) = GeodesicAngles.difference(from: longitude, reducedNegation: reducedNegatedLongitude, to: lon2)
        let other = GeodesicLatitude(GeodesicAngles.rounded(GeodesicAngles.checkedLatitude(lat2)), solver)
        return solver.inverseMeters(first: latitude, second: other, lon12: lon12, lon12s: lon12s)
    }
}
