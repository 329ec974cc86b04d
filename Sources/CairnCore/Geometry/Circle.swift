/// A centre and a radius in metres: a place's check-in area.
public struct Circle: Hashable, Sendable, CustomStringConvertible {
    /// The centre.
    public let center: Coordinate
    /// The radius in metres, finite and not negative.
    public let radiusMeters: Double

    /// Creates a circle, checking the radius.
    /// - Throws: `CircleError.invalidRadius` for a negative, NaN or infinite radius.
    /// - Complexity: O(1).
    public init(center: Coordinate, radiusMeters: Double) throws(CircleError) {
        guard radiusMeters.isFinite, radiusMeters >= 0 else { throw .invalidRadius(radiusMeters) }
        self.center = center
        self.radiusMeters = radiusMeters
    }

    /// Whether `point` is inside the circle or on its edge:
    /// `distanceMeters(from: center, to: point, model: model) <= radiusMeters`.
    /// - Complexity: O(1).
    public func contains(_ point: Coordinate, model: DistanceModel = .wgs84) -> Bool {
        distanceMeters(from: center, to: point, model: model) <= radiusMeters
    }

    public var description: String { "circle \(formatNumber(radiusMeters)) m around \(center)" }
}
