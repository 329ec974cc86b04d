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
