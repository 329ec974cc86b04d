/// Why a bounding box was refused.
public enum BoundingBoxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The four edges.
    public enum Edge: String, Sendable { case west, south, east, north }

    /// An edge is NaN or infinite.
    case notFinite(edge: Edge, value: Double)
    /// An edge is outside [-180, 180] (west, east) or [-90, 90] (south, north).
    case outOfRange(edge: Edge, value: Double)
    /// The southern edge is north of the northern one (swap them).
    case southAboveNorth(south: Double, north: Double)

    public var description: String {
        switch self {
        case .notFinite(let edge, let value): "\(edge.rawValue) edge must be a finite number, got \(value)"
        case .outOfRange(let edge, let value):
            "\(edge.rawValue) edge \(formatNumber(value)) is out of range \(edge == .west || edge == .east ? "[-180, 180]" : "[-90, 90]")"
        case .southAboveNorth(let south, let north):
            "south edge \(formatNumber(south)) is north of north edge \(formatNumber(north)) (swap them)"
        }
    }
}
