/// Why a circle was refused.
public enum CircleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The radius is negative, NaN or infinite.
    case invalidRadius(Double)

    public var description: String {
        switch self {
        case .invalidRadius(let r): "radius must be a finite distance >= 0 in metres, got \(r)"
        }
    }
}
