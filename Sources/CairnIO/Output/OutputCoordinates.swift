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

/// The positions of a result's features in an output coordinate system (`--t-srs`), one per row, the shapes of the
/// rows that have one in that system, and the name the GeoJSON output gives that system.
///
/// GeoJSON output then carries the legacy `crs` member of the 2008 GeoJSON specification, `"crs":{"type":"name",
/// "properties":{"name":"urn:ogc:def:crs:EPSG::3857"}}`, which GDAL, QGIS and PostGIS read (RFC 7946 allows only
/// WGS84 and has no member for another system). A location outside the system's domain is written as `null`; a
/// shape is written whole, every vertex transformed, or not at all (`init(features:transform:)` throws).
public struct OutputCoordinates: Sendable {
    /// The system's name as the `crs` member gives it (`CoordinateTransform.targetName`).
    public let systemName: String
    /// One position per row, in the rows' order.
    public let positions: [OutputPosition]
    /// One entry per row: the row's shape with its positions x, y in the system, nil for a row without a shape;
    /// empty when no row has one (point answers pay nothing).
    public let shapes: [ShapeParts?]

    /// Positions given as they are, and shapes in the system (one per row, or empty when no row has one).
    /// - Complexity: O(1).
    public init(systemName: String, positions: [OutputPosition], shapes: [ShapeParts?] = []) {
        precondition(shapes.isEmpty || shapes.count == positions.count, "one shape entry per row")
        self.systemName = systemName
        self.positions = positions
        self.shapes = shapes
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
        shapes = []
    }

    /// The `features`' locations and every vertex of their shapes transformed by `transform` (from WGS84
    /// degrees), all in one PROJ call for the whole answer (PROJ's cost is per call as much as per position).
    /// - Throws: `CoordinateTransformError` naming the system, the feature and the vertex when PROJ cannot
    ///   transform a vertex of a shape (outside the system's area): a shape is never written in part, nor as a
    ///   point in its place. A location it cannot transform is written as `null`, as for a point feature.
    /// - Complexity: O(n + v) for n features with v vertices in all, one call into PROJ.
    public init(features: some Collection<Feature>, transform: CoordinateTransform) throws(CoordinateTransformError) {
        var vertexCount = 0
        for feature in features { vertexCount += feature.shape?.vertexCount ?? 0 }
        let count = features.count
        var xs: [Double] = [], ys: [Double] = []
        xs.reserveCapacity(count + vertexCount)
        ys.reserveCapacity(count + vertexCount)
        for feature in features {
            xs.append(feature.location.longitude)
            ys.append(feature.location.latitude)
        }
        // The vertices follow the locations, shape after shape in row order, longitude and latitude apart.
        for feature in features {
            guard let positions = feature.shape?.parts.positions else { continue }
            for index in stride(from: 0, to: positions.count, by: 2) {
                xs.append(positions[index])
                ys.append(positions[index + 1])
            }
        }
        transform.transform(x: &xs, y: &ys)
        systemName = transform.targetName
        positions = (0..<count).map { OutputPosition(x: xs[$0], y: ys[$0]) }
        guard vertexCount > 0 else {
            shapes = []
            return
        }
        var rowShapes: [ShapeParts?] = []
        rowShapes.reserveCapacity(count)
        var next = count
        for feature in features {
            guard let shape = feature.shape else {
                rowShapes.append(nil)
                continue
            }
            var parts = shape.parts // kind and part ends shared (copy on write); only the positions are new
            for vertex in 0..<shape.vertexCount {
                let x = xs[next + vertex], y = ys[next + vertex]
                guard x.isFinite, y.isFinite else {
                    let source = shape.vertex(vertex)
                    throw CoordinateTransformError(coordinateSystem: transform.target, message: """
                        feature '\(feature.id)': vertex \(vertex) of its \(shape.kind.name) (longitude \(source.longitude), \
                        latitude \(source.latitude)) is outside the area PROJ can transform into this system
                        """)
                }
                parts.positions[2 * vertex] = x
                parts.positions[2 * vertex + 1] = y
            }
            next += shape.vertexCount
            rowShapes.append(parts)
        }
        shapes = rowShapes
    }

    /// Row `row`'s shape in the system, nil when it has none.
    /// - Complexity: O(1).
    func shape(ofRow row: Int) -> ShapeParts? {
        shapes.isEmpty ? nil : shapes[row]
    }

    /// Appends the GeoJSON `crs` member with its trailing comma: `"crs":{...},`.
    func appendGeoJSONMember(to out: inout [UInt8]) {
        out.append(literal: "\"crs\":{\"type\":\"name\",\"properties\":{\"name\":")
        TextEscaping.appendJSONString(systemName, to: &out)
        out.append(literal: "}},")
    }
}
