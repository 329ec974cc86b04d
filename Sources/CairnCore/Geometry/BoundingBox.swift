/// A latitude/longitude rectangle in WGS84 degrees: the map viewfinder.
///
/// Edges are inclusive. When `west > east` the box crosses the antimeridian and means the wrap-around region
/// (from `west` eastwards across 180° to `east`). Longitudes 180 and -180 are the same meridian, so a point at
/// -180 is inside a box whose east edge is 180, and vice versa.
public struct BoundingBox: Hashable, Sendable, CustomStringConvertible {
    /// Western edge, degrees in [-180, 180].
    public let west: Double
    /// Southern edge, degrees in [-90, 90].
    public let south: Double
    /// Eastern edge, degrees in [-180, 180]; less than `west` for a box across the antimeridian.
    public let east: Double
    /// Northern edge, degrees in [-90, 90], not below `south`.
    public let north: Double

    /// Creates a box from its four edges, checking each.
    /// - Throws: `BoundingBoxError` naming the edge at fault.
    /// - Complexity: O(1).
    public init(west: Double, south: Double, east: Double, north: Double) throws(BoundingBoxError) {
        func check(_ edge: BoundingBoxError.Edge, _ value: Double, limit: Double) throws(BoundingBoxError) {
            guard value.isFinite else { throw .notFinite(edge: edge, value: value) }
            guard value >= -limit, value <= limit else { throw .outOfRange(edge: edge, value: value) }
        }
        try check(.west, west, limit: 180)
        try check(.south, south, limit: 90)
        try check(.east, east, limit: 180)
        try check(.north, north, limit: 90)
        guard south <= north else { throw .southAboveNorth(south: south, north: north) }
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Creates a box from its south-west and north-east corners (a west corner east of the north-east one
    /// gives a box across the antimeridian).
    /// - Throws: `BoundingBoxError.southAboveNorth` when the south-west corner is north of the north-east one.
    /// - Complexity: O(1).
    public init(southWest: Coordinate, northEast: Coordinate) throws(BoundingBoxError) {
        try self.init(west: southWest.longitude, south: southWest.latitude,
                      east: northEast.longitude, north: northEast.latitude)
    }

    /// A box as map clients give it when world copies show (`getBounds()` in Leaflet and Mapbox GL): a longitude
    /// beyond ±180 names the same meridian as its value moved by whole turns, so west 170, east 190 is the box across
    /// the antimeridian from 170 to -170, and a span of 360° or more is every longitude. Longitudes within ±180 are
    /// kept as given (so a box that is valid for `init(west:south:east:north:)` means the same here).
    /// - Throws: `BoundingBoxError` for a non-finite edge, a latitude out of range, or south above north.
    /// - Complexity: O(1).
    public init(unwrappedWest west: Double, south: Double, east: Double, north: Double) throws(BoundingBoxError) {
        guard west.isFinite else { throw .notFinite(edge: .west, value: west) }
        guard east.isFinite else { throw .notFinite(edge: .east, value: east) }
        if west <= east, east - west >= 360 {
            try self.init(west: -180, south: south, east: 180, north: north)
        } else {
            try self.init(west: BoundingBox.wrapped(west), south: south, east: BoundingBox.wrapped(east), north: north)
        }
    }

    /// `longitude` moved by whole turns into [-180, 180]; a value already there is kept as it is.
    static func wrapped(_ longitude: Double) -> Double {
        guard longitude < -180 || longitude > 180 else { return longitude }
        // fmod is exact, so 190 becomes exactly -170.
        let turned = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (turned < 0 ? turned + 360 : turned) - 180
    }

    /// The box covering the whole Earth: west -180, south -90, east 180, north 90.
    public static let world = BoundingBox(unchecked: -180, -90, 180, 90)

    init(unchecked west: Double, _ south: Double, _ east: Double, _ north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// Whether the box crosses the antimeridian (`west > east`).
    /// - Complexity: O(1).
    public var crossesAntimeridian: Bool { west > east }

    /// Whether the coordinate is inside the box or on its edge.
    /// - Complexity: O(1).
    public func contains(_ coordinate: Coordinate) -> Bool {
        coordinate.latitude >= south && coordinate.latitude <= north
            && longitudeRanges.contains(coordinate.longitude)
    }

    /// The box's longitudes as at most two disjoint closed ranges, with 180 and -180 identified.
    var longitudeRanges: LongitudeRanges { LongitudeRanges(west: west, east: east) }

    public var description: String { "[west \(west), south \(south), east \(east), north \(north)]" }
}
