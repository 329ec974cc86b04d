/// How distances on the Earth are measured. Every API that measures takes one; `.wgs84` is the default.
public enum DistanceModel: String, Hashable, Sendable, CaseIterable {
    /// The geodesic on the WGS84 ellipsoid (Karney's algorithm, in Cairn's own `GeodesicSolver`, which gives
    /// PROJ's `geod_inverse` results to the bit): the model PostGIS uses for `geography`. Accurate to about
    /// 15 nanometres.
    case wgs84
    /// The great circle on a sphere of radius `DistanceModel.sphereRadiusMeters`, by the haversine formula,
    /// for compatibility with spherical engines. Differs from `.wgs84` by up to about 0.5 %.
    case sphere

    /// The sphere model's radius: the IUGG mean Earth radius R1 = (2a + b) / 3 of WGS84, in metres.
    public static let sphereRadiusMeters = 6_371_008.8
}

/// The distance in metres from one coordinate to another under `model`.
///
/// The order of the arguments is part of the contract: the indexes measure from the query's centre to each
/// item, and the result is reproducible bit for bit by calling this function the same way.
/// - Complexity: O(1) (Karney's inverse problem for `.wgs84`: 2–3 Newton steps, about 4,400 instructions for a
///   short line; a few trigonometric calls for `.sphere`).
public func distanceMeters(from start: Coordinate, to end: Coordinate, model: DistanceModel = .wgs84) -> Double {
    measure(model, start.latitude, start.longitude, end.latitude, end.longitude)
}

/// The coordinate reached by going `distanceMeters` from `start` with the initial bearing `bearingDegrees`
/// (clockwise from north) along the geodesic of `model` (Karney's direct problem for `.wgs84`, equal to
/// PROJ's `geod_direct`).
/// Negative distances go backwards. The result's longitude is in [-180, 180].
/// - Throws: `CoordinateError.notFinite` when the bearing or the distance is NaN or infinite.
/// - Complexity: O(1).
public func destination(
    from start: Coordinate,
    bearingDegrees: Double,
    distanceMeters: Double,
    model: DistanceModel = .wgs84
) throws(CoordinateError) -> Coordinate {
    let (latitude, longitude): (Double, Double)
    switch model {
    case .wgs84:
        (latitude, longitude) = Geodesic.direct(start.latitude, start.longitude,
                                                azimuthDegrees: bearingDegrees, meters: distanceMeters)
    case .sphere:
        (latitude, longitude) = Spherical.direct(start.latitude, start.longitude,
                                                 bearingDegrees: bearingDegrees, meters: distanceMeters)
    }
    // Our own results, not input: keep them within range against the last rounding bit.
    return try Coordinate(latitude: latitude.clamped(to: -90...90), longitude: longitude.clamped(to: -180...180))
}

/// The one distance function the indexes and the public API share, on raw degrees (no checks).
@inline(__always)
func measure(_ model: DistanceModel, _ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    switch model {
    case .wgs84: Geodesic.inverseMeters(lat1, lon1, lat2, lon2)
    case .sphere: Spherical.haversineMeters(lat1, lon1, lat2, lon2)
    }
}

extension Double {
    /// The value limited to `range`; NaN stays NaN.
    @inline(__always)
    func clamped(to range: ClosedRange<Double>) -> Double {
        self < range.lowerBound ? range.lowerBound : (self > range.upperBound ? range.upperBound : self)
    }
}
