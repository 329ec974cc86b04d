import CairnCore

/// One position written in an output coordinate system: x (easting, or longitude) and y (northing, or latitude).
public struct OutputPosition: Hashable, Sendable {
    /// The easting or longitude; infinity when the location has no position in the system.
    public var x: Double
    /// The northing or latitude; infinity when the location has no position in the system.
    public var y: Double

    /// A position.
    /// - Complexity: O(1).
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The positions of a result's features in an output coordinate system (`--t-srs`), one per row, and the name the
/// GeoJSON output gives that system.
///
/// GeoJSON output then carries the legacy `crs` member of the 2008 GeoJSON specification, `"crs":{"type":"name",
/// "properties":{"name":"urn:ogc:def:crs:EPSG::3857"}}`, which GDAL, QGIS and PostGIS read (RFC 7946 allows only
/// WGS84 and has no member for another system). A location outside the system's domain is written as `null`.
public struct OutputCoordinates: Sendable {
    /// The system's name as the `crs` member gives it (`CoordinateTransform.targetName`).
    public let systemName: String
    /// One position per row, in the rows' order.
    public let positions: [OutputPosition]

    /// Positions given as they are.
    /// - Complexity: O(1).
    public init(systemName: String, positions: [OutputPosition]) {
        self.systemName = systemName
        self.positions = positions
    }

    /// The `locations` transformed by `transform` (from WGS84 degrees), in one PROJ call.
    /// - Complexity: O(n).
    public init(locations: some Collection<Coordinate>, transform: CoordinateTransform) {
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(locations.count)
        ys.reserveCapacity(locations.count)
        for location in locations {
            xs.append(location.longitude)
            ys.append(location.latitude)
        }
        transform.transform(x: &xs, y: &ys)
        systemName = transform.targetName
        positions = zip(xs, ys).map { OutputPosition(x: $0, y: $1) }
    }

    /// Appends the GeoJSON `crs` member with its trailing comma: `"crs":{...},`.
    func appendGeoJSONMember(to out: inout [UInt8]) {
        out.append(literal: "\"crs\":{\"type\":\"name\",\"properties\":{\"name\":")
        TextEscaping.appendJSONString(systemName, to: &out)
        out.append(literal: "}},")
    }
}
