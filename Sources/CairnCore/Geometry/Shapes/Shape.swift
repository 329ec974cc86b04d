/// A checked geometry: a point, line, polygon (holes included) or a collection of one of them, in WGS84 degrees.
///
/// The positions sit flat in `parts` (see `ShapeParts`); the value types `LineString` and `Polygon` are views of
/// them for callers that walk a shape part by part. A point is a `Coordinate`, a MultiPoint `points`, a
/// MultiLineString `lineStrings` and a MultiPolygon `polygons`. No GEOS type appears here: `CairnGEOS` builds its
/// geometries from these positions.
public struct Shape: Hashable, Sendable {
    /// The checked parts: every position in range, every part with enough positions.
    public let parts: ShapeParts
    /// How many positions `init(checking:)` moved onto the edge of the valid range (see there). Not part of the
    /// value: equality, hashing and WKB ignore it; an import sums it for its summary.
    public let clampedVertexCount: Int

    /// How far outside the valid range, in degrees, a coordinate is still taken as the edge: rounding noise in real
    /// files (Natural Earth's Russia has a vertex at longitude 180.00000000000006), far below any real distance
    /// (1e-9 degrees is about 0.1 mm).
    public static let edgeToleranceDegrees = 1e-9

    /// Checks `parts` and keeps them: this is the one place every vertex of an imported geometry passes.
    ///
    /// Checked: the structure fits the kind (one position for a point, at least 2 per line, at least 4 per ring,
    /// at least one ring per polygon), and every position is finite and in range. A latitude or longitude at most
    /// `edgeToleranceDegrees` beyond its range is taken as the edge (±90, ±180) and counted in
    /// `clampedVertexCount`; beyond that it is an error. Not checked here: whether rings are closed and simple
    /// (validity is GEOS's, at import).
    /// - Throws: `ShapeError` naming the part (`[0][3]`, GeoJSON's nesting) and what was expected.
    /// - Complexity: O(n) in the number of positions.
    public init(checking parts: ShapeParts) throws(ShapeError) {
        try Shape.checkStructure(parts)
        // Most shapes have every position in range: one pass of comparisons (NaN fails them) shows it, and then
        // the loop below would neither clamp nor throw, so it is skipped.
        if Shape.allInRange(parts.positions) {
            self.parts = parts
            clampedVertexCount = 0
            return
        }
        var checked = parts
        var ring = 0, clamped = 0
        for position in 0..<parts.positionCount {
            while parts.ringEnds[ring] <= position { ring += 1 }
            let longitude = Shape.nearEdge(parts.positions[2 * position], limit: 180)
            let latitude = Shape.nearEdge(parts.positions[2 * position + 1], limit: 90)
            do {
                _ = try Coordinate(latitude: latitude, longitude: longitude)
            } catch {
                throw .invalidPosition(path: Shape.path(of: position, ring: ring, in: parts), error: error)
            }
            if longitude != parts.positions[2 * position] || latitude != parts.positions[2 * position + 1] {
                checked.positions[2 * position] = longitude
                checked.positions[2 * position + 1] = latitude
                clamped += 1
            }
        }
        self.parts = checked
        clampedVertexCount = clamped
    }

    /// Whether every longitude, latitude pair lies in [-180, 180] × [-90, 90] (NaN does not).
    /// - Complexity: O(n) in the positions.
    private static func allInRange(_ positions: [Double]) -> Bool {
        positions.withUnsafeBufferPointer { positions in
            var index = 0
            while index &+ 1 < positions.count {
                let longitude = positions[index], latitude = positions[index &+ 1]
                guard longitude >= -180, longitude <= 180, latitude >= -90, latitude <= 90 else { return false }
                index &+= 2
            }
            return true
        }
    }

    /// `value`, or ±`limit` when it lies beyond it by at most `edgeToleranceDegrees`.
    @inline(__always)
    private static func nearEdge(_ value: Double, limit: Double) -> Double {
        if value > limit, value <= limit + edgeToleranceDegrees { return limit }
        if value < -limit, value >= -limit - edgeToleranceDegrees { return -limit }
        return value
    }

    public static func == (a: Shape, b: Shape) -> Bool { a.parts == b.parts }

    public func hash(into hasher: inout Hasher) { hasher.combine(parts) }

    /// A shape whose parts were checked when they were stored (a snapshot whose checksum matched).
    /// - Complexity: O(1).
    init(unchecked parts: ShapeParts) {
        self.parts = parts
        clampedVertexCount = 0
    }

    /// The geometry type.
    /// - Complexity: O(1).
    public var kind: ShapeKind { parts.kind }

    /// The number of positions.
    /// - Complexity: O(1).
    public var vertexCount: Int { parts.positionCount }

    /// Position `index` (0..<vertexCount).
    /// - Complexity: O(1).
    public func vertex(_ index: Int) -> Coordinate {
        Coordinate(uncheckedLatitude: parts.positions[2 * index + 1], longitude: parts.positions[2 * index])
    }

    /// The positions of ring or line `ring`.
    /// - Complexity: O(k) for its k positions.
    func vertices(ofRing ring: Int) -> [Coordinate] {
        parts.positionRange(ofRing: ring).map(vertex)
    }

    /// The points of a Point or MultiPoint (empty for other kinds).
    /// - Complexity: O(n).
    public var points: [Coordinate] {
        guard kind == .point || kind == .multiPoint else { return [] }
        return (0..<vertexCount).map(vertex)
    }

    /// The lines of a LineString or MultiLineString (empty for other kinds).
    /// - Complexity: O(n).
    public var lineStrings: [LineString] {
        guard kind.isLinear else { return [] }
        return parts.ringEnds.indices.map { LineString(vertices: vertices(ofRing: $0)) }
    }

    /// The polygons of a Polygon or MultiPolygon (empty for other kinds).
    /// - Complexity: O(n).
    public var polygons: [Polygon] {
        guard kind.isAreal else { return [] }
        return parts.polygonEnds.indices.map { polygon in
            let rings = parts.ringRange(ofPolygon: polygon)
            return Polygon(exterior: vertices(ofRing: rings.lowerBound),
                           holes: rings.dropFirst().map { vertices(ofRing: $0) })
        }
    }

    /// The smallest box holding every position: longitudes as they are (GeoJSON splits a shape that crosses the
    /// antimeridian into parts on each side, so the box never wraps; a split shape's box spans the map).
    /// - Complexity: O(n).
    public var extent: BoundingBox {
        var west = Double.infinity, east = -Double.infinity, south = Double.infinity, north = -Double.infinity
        for position in 0..<vertexCount {
            let longitude = parts.positions[2 * position], latitude = parts.positions[2 * position + 1]
            west = min(west, longitude)
            east = max(east, longitude)
            south = min(south, latitude)
            north = max(north, latitude)
        }
        return BoundingBox(unchecked: west, south, east, north)
    }

    // MARK: - Checks

    /// The structure rules of `init(checking:)`.
    private static func checkStructure(_ parts: ShapeParts) throws(ShapeError) {
        let kind = parts.kind
        guard parts.positions.count % 2 == 0 else { throw .malformedParts(kind: kind, detail: "an odd number of ordinates") }
        guard parts.positionCount > 0, !parts.ringEnds.isEmpty else { throw .empty(kind: kind) }
        guard parts.ringEnds.last == parts.positionCount else {
            throw .malformedParts(kind: kind, detail: "the last part ends at \(parts.ringEnds.last ?? 0) of \(parts.positionCount) positions")
        }
        var start = 0
        for (ring, end) in parts.ringEnds.enumerated() {
            guard end > start else { throw .malformedParts(kind: kind, detail: "part \(ring) is empty or out of order") }
            let needed = kind.isAreal ? 4 : (kind.isLinear ? 2 : 1)
            guard end - start >= needed else {
                throw .tooFewPositions(kind: kind, path: path(ofRing: ring, in: parts), count: end - start, needed: needed)
            }
            if !kind.isAreal, !kind.isLinear, end - start != 1 {
                throw .malformedParts(kind: kind, detail: "point \(ring) has \(end - start) positions")
            }
            start = end
        }
        switch kind {
        case .point, .lineString:
            guard parts.ringEnds.count == 1 else { throw .malformedParts(kind: kind, detail: "\(parts.ringEnds.count) parts, expected 1") }
            guard parts.polygonEnds.isEmpty else { throw .malformedParts(kind: kind, detail: "polygon ends on a non-polygon") }
        case .multiPoint, .multiLineString:
            guard parts.polygonEnds.isEmpty else { throw .malformedParts(kind: kind, detail: "polygon ends on a non-polygon") }
        case .polygon, .multiPolygon:
            guard !parts.polygonEnds.isEmpty else { throw .empty(kind: kind) }
            guard kind == .multiPolygon || parts.polygonEnds.count == 1 else {
                throw .malformedParts(kind: kind, detail: "\(parts.polygonEnds.count) polygons, expected 1")
            }
            guard parts.polygonEnds.last == parts.ringEnds.count else {
                throw .malformedParts(kind: kind, detail: "the polygons hold \(parts.polygonEnds.last ?? 0) of \(parts.ringEnds.count) rings")
            }
            var previous = 0
            for end in parts.polygonEnds {
                guard end > previous else { throw .malformedParts(kind: kind, detail: "a polygon without rings") }
                previous = end
            }
        }
    }

    /// Where ring `ring` sits in GeoJSON's nesting of `coordinates` (`[2]`, `[1][0]`, or "" for a lone part).
    static func path(ofRing ring: Int, in parts: ShapeParts) -> String {
        switch parts.kind {
        case .point, .lineString: return ""
        case .multiPoint, .multiLineString, .polygon: return "[\(ring)]"
        case .multiPolygon:
            let polygon = parts.polygonEnds.firstIndex { $0 > ring } ?? 0
            return "[\(polygon)][\(ring - (polygon == 0 ? 0 : parts.polygonEnds[polygon - 1]))]"
        }
    }

    /// Where position `position` of ring `ring` sits in GeoJSON's nesting of `coordinates` (`[0][3]`).
    static func path(of position: Int, ring: Int, in parts: ShapeParts) -> String {
        switch parts.kind {
        case .point: return ""
        case .multiPoint: return "[\(ring)]"
        default: return path(ofRing: ring, in: parts) + "[\(position - parts.positionRange(ofRing: ring).lowerBound)]"
        }
    }
}
