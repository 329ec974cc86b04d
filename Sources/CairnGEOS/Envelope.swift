/// An axis-aligned rectangle in a plane, edges included: what GEOS indexes and queries by. Cairn's callers use
/// x for longitude and y for latitude, in degrees, with `minX <= maxX` (a region across the antimeridian is two
/// envelopes: GEOS knows no wrap-around).
public struct Envelope: Hashable, Sendable {
    /// The smallest x.
    public var minX: Double
    /// The smallest y.
    public var minY: Double
    /// The largest x.
    public var maxX: Double
    /// The largest y.
    public var maxY: Double

    /// The rectangle from (`minX`, `minY`) to (`maxX`, `maxY`).
    /// - Complexity: O(1).
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The degenerate rectangle of one point.
    /// - Complexity: O(1).
    public init(x: Double, y: Double) {
        self.init(minX: x, minY: y, maxX: x, maxY: y)
    }

    /// Whether the two rectangles share at least one point (edges included).
    /// - Complexity: O(1).
    @inlinable
    public func intersects(_ other: Envelope) -> Bool {
        other.maxX >= minX && other.minX <= maxX && other.maxY >= minY && other.minY <= maxY
    }
}
