/// `measure(model, latitude, longitude, lat2, lon2)` from one fixed point to many others, with what depends on
/// the fixed point alone computed once (`GeodesicFromPoint` for `.wgs84`): the same bits as `measure`.
struct DistanceFromPoint: Sendable {
    let model: DistanceModel
    /// The fixed point, degrees.
    let latitude: Double
    let longitude: Double
    let geodesic: GeodesicFromPoint

    /// Distances under `model` from (latitude, longitude), degrees.
    /// - Complexity: O(1), a sine and a cosine.
    init(_ model: DistanceModel, latitude: Double, longitude: Double) {
        self.model = model
        self.latitude = latitude
        self.longitude = longitude
        geodesic = GeodesicFromPoint(latitude: latitude, longitude: longitude)
    }

    /// The distance in metres from the fixed point to (lat2, lon2), degrees: `measure(model, latitude, longitude,
    /// lat2, lon2)` to the bit.
    /// - Complexity: O(1).
    @inline(__always)
    func meters(toLatitude lat2: Double, longitude lon2: Double) -> Double {
        switch model {
        case .wgs84: geodesic.meters(toLatitude: lat2, longitude: lon2)
        case .sphere: Spherical.haversineMeters(latitude, longitude, lat2, lon2)
        }
    }
}
