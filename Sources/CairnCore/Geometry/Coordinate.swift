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

/// Why a latitude or longitude was refused.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Which of the two numbers is at fault.
    public enum Field: String, Sendable { case latitude, longitude }

    /// The value is NaN or infinite.
    case notFinite(field: Field, value: Double)
    /// The value is outside [-90, 90] (latitude) or [-180, 180] (longitude).
    /// `swapSuspected` is true when the pair would be valid with latitude and longitude exchanged.
    case outOfRange(field: Field, value: Double, swapSuspected: Bool)

    /// The field at fault.
    public var field: Field {
        switch self {
        case .notFinite(let field, _), .outOfRange(let field, _, _): field
        }
    }

    public var description: String {
        switch self {
        case .notFinite(let field, let value):
            return "\(field.rawValue) must be a finite number, got \(value)"
        case .outOfRange(let field, let value, let swapSuspected):
            let range = field == .latitude ? "[-90, 90]" : "[-180, 180]"
            let hint = swapSuspected ? " (are latitude and longitude swapped?)" : ""
            return "\(field.rawValue) \(formatNumber(value)) is out of range \(range)\(hint)"
        }
    }
}

/// Formats a double without a trailing ".0" for integral values (used in messages).
func formatNumber(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
