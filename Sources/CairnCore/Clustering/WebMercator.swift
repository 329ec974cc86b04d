import Foundation

/// The spherical Web Mercator projection onto the unit square, as map tiles use it.
///
/// `x = longitude / 360 + 0.5` and `y = 0.5 - ln((1 + sin φ) / (1 - sin φ)) / (4π)`, with `y` clamped to [0, 1]
/// (latitudes beyond about ±85.0511° land on the square's edge). `x` grows eastwards, `y` southwards.
public enum WebMercator {
    /// The unit-square `x` of a longitude in degrees.
    /// - Complexity: O(1).
    @inlinable
    public static func x(longitude: Double) -> Double { longitude / 360 + 0.5 }

    /// The unit-square `y` of a latitude in degrees, clamped to [0, 1].
    /// - Complexity: O(1).
    @inlinable
    public static func y(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// The longitude in degrees of a unit-square `x` (an `x` of 1 gives 180).
    /// - Complexity: O(1).
    @inlinable
    public static func longitude(x: Double) -> Double { (x - 0.5) * 360 }

    /// The latitude in degrees of a unit-square `y`.
    /// - Complexity: O(1).
    @inlinable
    public static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * .pi / 180
        return 360 * atan(exp(y2)) / .pi - 90
    }

    /// The unit-square `x` of a box's west and east edges, the east one past 1 when the box crosses the
    /// antimeridian (so that east - west is the box's width).
    /// - Complexity: O(1).
    static func xArc(of box: BoundingBox) -> (west: Double, east: Double) {
        let west = x(longitude: box.west), east = x(longitude: box.east)
        return (west, box.crossesAntimeridian ? east + 1 : east)
    }

    /// The coordinate of a unit-square point, with `x` wrapped into [0, 1] and `y` into [0, 1].
    /// - Complexity: O(1).
    static func coordinate(x: Double, y: Double) -> Coordinate {
        let lon = min(180, max(-180, longitude(x: x)))
        let lat = min(90, max(-90, latitude(y: y)))
        return Coordinate(uncheckedLatitude: lat, longitude: lon)
    }
}
