/// The latitude/longitude rectangle a geohash names, in degrees.
///
/// Edges are exact `Double`s. As a region the cell is half-open (its north and east edges belong to the next
/// cell) except in the top row and the last column, which keep latitude 90 and longitude 180; `contains(_:)`
/// tests the closed rectangle.
public struct GeohashCell: Hashable, Sendable, CustomStringConvertible {
    /// The geohash, lower case.
    public let hash: String
    /// Southern edge, degrees latitude.
    public let south: Double
    /// Western edge, degrees longitude.
    public let west: Double
    /// Northern edge, degrees latitude.
    public let north: Double
    /// Eastern edge, degrees longitude.
    public let east: Double

    init(hash: String, south: Double, west: Double, north: Double, east: Double) {
        self.hash = hash
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Number of characters in the hash.
    /// - Complexity: O(1) for the short ASCII strings geohashes are.
    public var precision: Int { hash.utf8.count }

    /// The cell's centre (exact: the mean of two edges that are exact dyadic numbers).
    /// - Complexity: O(1).
    public var center: Coordinate {
        Coordinate(uncheckedLatitude: (south + north) * 0.5, longitude: (west + east) * 0.5)
    }

    /// Height of the cell in degrees of latitude.
    /// - Complexity: O(1).
    public var latitudeSpanDegrees: Double { north - south }

    /// Width of the cell in degrees of longitude.
    /// - Complexity: O(1).
    public var longitudeSpanDegrees: Double { east - west }

    /// Whether `coordinate` lies in the closed rectangle (edges included).
    /// - Complexity: O(1).
    public func contains(_ coordinate: Coordinate) -> Bool {
        coordinate.latitude >= south && coordinate.latitude <= north
            && coordinate.longitude >= west && coordinate.longitude <= east
    }

    public var description: String {
        "\(hash) [south \(south), west \(west), north \(north), east \(east)]"
    }
}
