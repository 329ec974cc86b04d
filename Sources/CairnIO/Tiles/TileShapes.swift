import CairnCore

/// The features drawn as their shape in vector tiles (`ClusterVectorTileWriter`'s `shapes` layer): those whose
/// `Feature.shape` is a LineString, Polygon, MultiLineString, MultiPolygon or MultiPoint, each projected once to
/// the Web Mercator unit square, with its extent there, so a tile finds the shapes it crosses without
/// re-projecting. Built once per feature list (a store's, a served state's) and shared by every tile of it.
///
/// A shape is drawn in a tile, clipped to the tile plus the buffer the clusters use (`ClusterOptions.radiusPixels
/// / extent` of a tile), when its extent meets that square; tiles at the antimeridian also draw the shapes across
/// it, shifted by the world's width, as the clusters' tiles do. Shapes split at ±180 (as GeoJSON writes them) are
/// drawn piece by piece.
public struct TileShapes: Sendable {
    /// Positions in the feature list of the features drawn as shapes, in list order.
    let featureIndices: [Int]
    /// Per shape, its projected vertices as unit-square x, y pairs, in `ShapeParts.positions` order.
    let projected: [[Double]]
    /// Per shape, its unit-square extent: west, north, east, south (x grows east, y south).
    let extents: [(west: Double, north: Double, east: Double, south: Double)]

    /// No shapes: tiles have no `shapes` layer.
    public static let none = TileShapes(featureIndices: [], projected: [], extents: [])

    private init(featureIndices: [Int], projected: [[Double]], extents: [(west: Double, north: Double, east: Double, south: Double)]) {
        self.featureIndices = featureIndices
        self.projected = projected
        self.extents = extents
    }

    /// The shapes of `features` (a feature with no shape, or a Point, is a pin only).
    /// - Complexity: O(n + v) for n features and v vertices of their shapes.
    public init(features: [Feature]) {
        var indices: [Int] = [], projected: [[Double]] = []
        var extents: [(west: Double, north: Double, east: Double, south: Double)] = []
        for (i, feature) in features.enumerated() {
            guard let shape = feature.shape, shape.kind != .point else { continue }
            let positions = shape.parts.positions
            var xy = [Double](repeating: 0, count: positions.count)
            var west = Double.infinity, east = -Double.infinity, north = Double.infinity, south = -Double.infinity
            for v in stride(from: 0, to: positions.count, by: 2) {
                let x = WebMercator.x(longitude: positions[v]), y = WebMercator.y(latitude: positions[v + 1])
                xy[v] = x
                xy[v + 1] = y
                west = min(west, x); east = max(east, x); north = min(north, y); south = max(south, y)
            }
            indices.append(i)
            projected.append(xy)
            extents.append((west, north, east, south))
        }
        self.init(featureIndices: indices, projected: projected, extents: extents)
    }

    /// How many features are drawn as shapes.
    /// - Complexity: O(1).
    public var count: Int { featureIndices.count }

    /// Whether no feature is drawn as a shape.
    /// - Complexity: O(1).
    public var isEmpty: Bool { featureIndices.isEmpty }

    /// The shapes that meet tile (z, x, y) widened by `bufferTiles` tile widths, each with the shift (in world
    /// widths: -1, 0 or 1) at which it is drawn there, in shape order.
    /// - Complexity: O(s) for s shapes (a scan of their extents: shape layers are small next to the points).
    func shapes(z: Int, x: Int, y: Int, bufferTiles: Double) -> [(shape: Int, shift: Double)] {
        guard !extents.isEmpty else { return [] }
        let z2 = Double(1 << z)
        let west = (Double(x) - bufferTiles) / z2, east = (Double(x) + 1 + bufferTiles) / z2
        let north = (Double(y) - bufferTiles) / z2, south = (Double(y) + 1 + bufferTiles) / z2
        var shifts: [Double] = [0]
        if x == 0 { shifts.append(-1) }
        if Double(x) == z2 - 1 { shifts.append(1) }
        var found: [(shape: Int, shift: Double)] = []
        for (s, e) in extents.enumerated() where e.north <= south && e.south >= north {
            for shift in shifts where e.west + shift <= east && e.east + shift >= west {
                found.append((s, shift))
            }
        }
        return found
    }

    /// The tiles of `zoom` whose square widened by `bufferTiles` meets some shape's extent (a cover: the shape
    /// itself may miss a tile its extent meets; such a tile encodes to nothing).
    /// - Complexity: O(s + t) for s shapes and t tiles their extents cover.
    public func coveredTiles(zoom: Int, bufferTiles: Double) -> Set<TileAddress> {
        guard zoom >= 0, zoom <= TileAddress.maxZoom else { return [] }
        let n = 1 << zoom, z2 = Double(n)
        var tiles: Set<TileAddress> = []
        func range(_ low: Double, _ high: Double) -> ClosedRange<Int>? {
            let first = max(0, Int(max(-1, (low * z2 - 1 - bufferTiles).rounded(.up))))
            let last = min(n - 1, Int(min(z2, (high * z2 + bufferTiles).rounded(.down))))
            return first <= last ? first...last : nil
        }
        for e in extents {
            guard let rows = range(e.north, e.south) else { continue }
            for shift in [-1.0, 0, 1] {
                guard let columns = range(e.west + shift, e.east + shift) else { continue }
                for row in rows {
                    for column in columns {
                        if let tile = TileAddress(zoom: zoom, x: column, y: row) { tiles.insert(tile) }
                    }
                }
            }
        }
        return tiles
    }

    /// Shape `s` of `features` in tile (z, x, y), shifted by `shift` world widths, clipped to the tile widened by
    /// `bufferTiles`, in units of `extent` per tile side; nil when nothing of it is left after clipping and rounding.
    /// - Throws: `VectorTileError.coordinateOutOfRange` or `.tooManyPoints` from the encoding.
    /// - Complexity: O(v) for the shape's v vertices.
    func geometry(ofShape s: Int, shape: Shape, z: Int, x: Int, y: Int, shift: Double, bufferTiles: Double,
                  extent: UInt32) throws(VectorTileError) -> VectorTileGeometry? {
        let z2 = Double(1 << z), size = Double(extent)
        let xy = projected[s]
        let low = -bufferTiles * size, high = (1 + bufferTiles) * size
        // Tile units: exact scalings by powers of two where extent is one, as the points' positions are.
        func position(_ p: Int) -> TileShapeClipper.Position {
            (x: ((xy[2 * p] + shift) * z2 - Double(x)) * size, y: (xy[2 * p + 1] * z2 - Double(y)) * size)
        }
        let parts = shape.parts
        do throws(VectorTileError) {
            switch shape.kind {
            case .point, .multiPoint:
                var points: [VectorTilePoint] = []
                for p in 0..<parts.positionCount {
                    let t = position(p)
                    if t.x >= low, t.x <= high, t.y >= low, t.y <= high { points.append(TileShapeClipper.quantised(t)) }
                }
                guard !points.isEmpty else { return nil }
                return try VectorTileGeometry.multiPoint(points)
            case .lineString, .multiLineString:
                var lines: [[VectorTilePoint]] = []
                for ring in parts.ringEnds.indices {
                    let line = parts.positionRange(ofRing: ring).map(position)
                    for piece in TileShapeClipper.clipLine(line, low: low, high: high) {
                        lines.append(piece.map(TileShapeClipper.quantised))
                    }
                }
                return try VectorTileGeometry.lineString(lines)
            case .polygon, .multiPolygon:
                var polygons: [[[VectorTilePoint]]] = []
                for polygon in parts.polygonEnds.indices {
                    var rings: [[VectorTilePoint]] = []
                    for ring in parts.ringRange(ofPolygon: polygon) {
                        let clipped = TileShapeClipper.clipRing(parts.positionRange(ofRing: ring).map(position), low: low, high: high)
                        // A ring wholly outside is gone; an exterior gone takes its holes (polygon(_:) drops them).
                        rings.append(clipped.count >= 3 ? clipped.map(TileShapeClipper.quantised) : [])
                    }
                    polygons.append(rings)
                }
                return try VectorTileGeometry.polygon(polygons)
            }
        } catch .emptyGeometry {
            return nil
        }
    }
}
