/// A point on the WGS84 ellipsoid, in degrees.
///
/// Latitude is in [-90, 90] and longitude in [-180, 180] (180 and -180 name the same meridian).
/// The throwing initialiser is the boundary check: NaN, infinity and out-of-range values are errors,
/// never clamped.
public struct Coordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, in [-90, 90].
    public let latitude: Double
    /// Degrees east of Greenwich, in [-180, 180].
    public let longitude: Double

    /// Creates a coordinate, checking both values.
    /// - Throws: `CoordinateError` naming the field and what was expected.
    /// - Complexity: O(1).
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite else { throw .notFinite(field: .latitude, value: latitude) }
        guard longitude.isFinite else { throw .notFinite(field: .longitude, value: longitude) }
        guard (-90.0...90.0).contains(latitude) else {
            throw .outOfRange(field: .latitude, value: latitude, swapSuspected: (-90.0...90.0).contains(longitude) && abs(latitude) <= 180)
        }
        guard (-180.0...180.0).contains(longitude) else {
            throw .outOfRange(field: .longitude, value: longitude, swapSuspected: false)
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate without checking; the caller guarantees the ranges (internal fast paths only).
    @inlinable
    init(uncheckedLatitude latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

/// Formats a double without a trailing ".0" for integral values (used in messages).
func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
