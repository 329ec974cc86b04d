/// Why a coordinate system could not be used or a transform could not be made: PROJ's own message, with the
/// coordinate system as the user wrote it.
public struct CoordinateTransformError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The coordinate system as given (`EPSG:3067`, a PROJ string, WKT), nil when PROJ itself is unusable.
    public let coordinateSystem: String?
    /// What went wrong, in PROJ's words where it gave some.
    public let message: String

    /// Creates an error.
    /// - Complexity: O(1).
    public init(coordinateSystem: String?, message: String) {
        self.coordinateSystem = coordinateSystem
        self.message = message
    }

    /// `coordinate system 'EPSG:99999': crs not found`, or the message alone when no coordinate system is at fault.
    public var description: String {
        guard let coordinateSystem else { return message }
        let shown = coordinateSystem.count > 80 ? String(coordinateSystem.prefix(77)) + "..." : coordinateSystem
        return "coordinate system '\(shown)': \(message)"
    }
}
