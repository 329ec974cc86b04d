import CairnCore

/// The features drawn as their shape in vector tiles (`ClusterVectorTileWriter`'s `shapes` layer): those whose
/// `Feature.shape` is a LineString, Polygon, MultiLineString, MultiPolygon or MultiPoint, each projected once to
/// the Web Mercator unit square, with its extent there, so a tile finds the shapes it crosses without
/// re-projecting. Built once per feature list (a store's, a served state's) and shared by every tile of it.
///
/// A shape is drawn in a tile, clipped to the tile plus the buffer the clusters use (`ClusterOptions.radiusPixels
/// / extent` of a tile), when its extent meets that square; tiles at the antimeridian also draw the shapes across
/// it, shifted by the world's width, as the clusters' tiles do. Shapes split at ±180 (as GeoJSON writes them) are
/// drawn piece by piece. A tile finds its shapes through a packed R-tree over the extents of the shapes' parts
/// (`ShapeExtentIndex`), so its cost follows the shapes near it, not all of them, and clips only the parts that
/// reach it; the export writes only the tiles the shapes reach (`coveredTiles`, `TileShapeCover`).
public struct TileShapes: Sendable {
    /// Positions in the feature list of the features drawn as shapes, in list order.
    let featureIndices: [Int]
    /// Per shape, its projected vertices as unit-square x, y pairs, in `ShapeParts.positions` order.
    let projected: [[Double]]
    /// Per shape, its rings and polygons (`Shape.parts`, shared, not copied), for the export's cover.
    let layouts: [ShapeParts]
    /// Per shape, its unit-square extent: west, north, east, south (x grows east, y south).
    let extents: [(west: Double, north: Double, east: Double, south: Double)]
    /// Per shape, the unit-square extent of each of its parts (a polygon with its holes, else a ring: a line or a
    /// point): west, north, east, south per part, so that a tile clips only the parts that reach it.
    let partBoxes: [[Double]]
    /// The extent of every part (a polygon with its holes, a line, a point of a MultiPoint) of every shape, its item
    /// the shape's number: the unit square scaled onto the degrees' box (`indexed(x:)`, `indexed(y:)`) so that the
    /// index's Hilbert order spreads them as it does longitudes and latitudes. Per part, not per shape: a country
    /// split at ±180 is two small boxes, not one as wide as the world.
    let partExtents: ShapeExtentIndex

    /// No shapes: tiles have no `shapes` layer.
    public static let none = TileShapes(featureIndices: [], projected: [], layouts: [], extents: [], partBoxes: [], partExtents: ShapeExtentIndex([]))

    private init(featureIndices: [Int], projected: [[Double]], layouts: [ShapeParts], extents: [(west: Double, north: Double, east: Double, south: Double)],
                 partBoxes: [[Double]], partExtents: ShapeExtentIndex) {
        self.featureIndices = featureIndices
        self.projected = projected
        self.layouts = layouts
        self.extents = extents
        self.partBoxes = partBoxes
        self.partExtents = partExtents
    }

    /// The shapes of `features` (a feature with no shape, or a Point, is a pin only).
    /// - Complexity: O(n + v + p log p) for n features, v vertices of their shapes and p parts.
    public init(features: [Feature]) {
        var indices: [Int] = [], projected: [[Double]] = [], layouts: [ShapeParts] = []
        var extents: [(west: Double, north: Double, east: Double, south: Double)] = []
        var parts: [ShapeExtentIndex.Entry] = [], partBoxes: [[Double]] = []
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
            let boxes = Self.partBoxes(of: shape.parts, projected: xy)
            for b in stride(from: 0, to: boxes.count, by: 4) where boxes[b] <= boxes[b + 2] {
                parts.append(ShapeExtentIndex.Entry(item: indices.count, west: Self.indexed(x: boxes[b]), south: Self.indexed(y: boxes[b + 3]),
                                                    east: Self.indexed(x: boxes[b + 2]), north: Self.indexed(y: boxes[b + 1])))
            }
            partBoxes.append(boxes)
            indices.append(i)
            projected.append(xy)
            layouts.append(shape.parts)
            extents.append((west, north, east, south))
        }
        self.init(featureIndices: indices, projected: projected, layouts: layouts, extents: extents, partBoxes: partBoxes,
                  partExtents: ShapeExtentIndex(parts))
    }

    /// The unit-square extent of each part of `parts` (projected to `xy`): west, north, east, south per part, the
    /// parts being the polygons of a (multi)polygon, else the rings (lines, points).
    private static func partBoxes(of parts: ShapeParts, projected xy: [Double]) -> [Double] {
        var boxes: [Double] = []
        func append(rings: Range<Int>) {
            var west = Double.infinity, east = -Double.infinity, north = Double.infinity, south = -Double.infinity
            for ring in rings {
                for p in parts.positionRange(ofRing: ring) {
                    west = min(west, xy[2 * p]); east = max(east, xy[2 * p])
                    north = min(north, xy[2 * p + 1]); south = max(south, xy[2 * p + 1])
                }
            }
            boxes += [west, north, east, south]
        }
        switch parts.kind {
        case .polygon, .multiPolygon:
            for polygon in parts.polygonEnds.indices { append(rings: parts.ringRange(ofPolygon: polygon)) }
        case .point, .multiPoint, .lineString, .multiLineString:
            for ring in parts.ringEnds.indices { append(rings: ring..<ring + 1) }
        }
        return boxes
    }

    /// A unit-square x as the part index holds it: -180 at the west edge, 180 at the east.
    @inline(__always)
    static func indexed(x: Double) -> Double { x * 360 - 180 }

    /// A unit-square y as the part index holds it: 90 at the north edge (y = 0), -90 at the south.
    @inline(__always)
    static func indexed(y: Double) -> Double { 90 - y * 180 }

    /// How far, in the part index's degrees, a tile's window is widened before asking the index: far above the
    /// rounding of `indexed(x:)` (~1e-14) and of tile units at any zoom, so a part the index leaves out misses the
    /// window in tile units too and would clip to nothing.
    static let indexMargin = 1e-9

    /// How many features are drawn as shapes.
    /// - Complexity: O(1).
    public var count: Int { featureIndices.count }

    /// Whether no feature is drawn as a shape.
    /// - Complexity: O(1).
    public var isEmpty: Bool { featureIndices.isEmpty }

    /// The shapes that meet tile (z, x, y) widened by `bufferTiles` tile widths, each with the shift (in world
    /// widths: -1, 0 or 1) at which it is drawn there, in shape order.
    ///
    /// The part index gives the candidates (the shapes with a part near the window, per shift); each is then kept
    /// by the test `shapesByScan` applies to every shape, so the answer is the scan's less the shapes no part of
    /// which comes near the tile (those clip to nothing there, and are not drawn either way).
    /// - Complexity: O(log p + k log k) for p parts and k candidate parts.
    func shapes(z: Int, x: Int, y: Int, bufferTiles: Double) -> [(shape: Int, shift: Double)] {
        guard !extents.isEmpty else { return [] }
        let window = Self.window(z: z, x: x, y: y, bufferTiles: bufferTiles)
        var candidates: [Int] = []
        for shift in window.shifts {
            let m = Self.indexMargin
            partExtents.search(west: Self.indexed(x: window.west - shift) - m, south: Self.indexed(y: window.south) - m,
                               east: Self.indexed(x: window.east - shift) + m, north: Self.indexed(y: window.north) + m,
                               into: &candidates)
        }
        candidates.sort()
        var found: [(shape: Int, shift: Double)] = []
        var previous = -1
        for s in candidates where s != previous {
            previous = s
            appendDrawn(s, in: window, to: &found)
        }
        return found
    }

    /// `shapes(z:x:y:bufferTiles:)` by testing every shape's extent: the reference the indexed answer is checked
    /// against.
    /// - Complexity: O(s) for s shapes.
    func shapesByScan(z: Int, x: Int, y: Int, bufferTiles: Double) -> [(shape: Int, shift: Double)] {
        let window = Self.window(z: z, x: x, y: y, bufferTiles: bufferTiles)
        var found: [(shape: Int, shift: Double)] = []
        for s in extents.indices { appendDrawn(s, in: window, to: &found) }
        return found
    }

    /// Tile (z, x, y) widened by `bufferTiles` in the unit square, and the shifts at which shapes are drawn in it:
    /// 0, and ±1 world width at the antimeridian's tiles, as the clusters' tiles do.
    private static func window(z: Int, x: Int, y: Int, bufferTiles: Double)
        -> (west: Double, north: Double, east: Double, south: Double, shifts: [Double]) {
        let z2 = Double(1 << z)
        var shifts: [Double] = [0]
        if x == 0 { shifts.append(-1) }
        if Double(x) == z2 - 1 { shifts.append(1) }
        return ((Double(x) - bufferTiles) / z2, (Double(y) - bufferTiles) / z2,
                (Double(x) + 1 + bufferTiles) / z2, (Double(y) + 1 + bufferTiles) / z2, shifts)
    }

    /// Appends shape `s` at each shift at which its extent meets `window`.
    @inline(__always)
    private func appendDrawn(_ s: Int, in window: (west: Double, north: Double, east: Double, south: Double, shifts: [Double]),
                             to found: inout [(shape: Int, shift: Double)]) {
        let e = extents[s]
        guard e.north <= window.south, e.south >= window.north else { return }
        for shift in window.shifts where e.west + shift <= window.east && e.east + shift >= window.west {
            found.append((s, shift))
        }
    }

    /// The tiles of `zoom` whose square widened by `bufferTiles` a shape reaches: those its edges or points meet,
    /// and for a polygon those inside it (`TileShapeCover`), across the antimeridian as tiles draw them. A superset
    /// of the tiles whose `shapes` layer is not empty, and no more than those plus a sliver along edges where a
    /// piece rounds to nothing.
    /// - Complexity: O(v + t) for the v vertices of the shapes and the t tiles returned.
    public func coveredTiles(zoom: Int, bufferTiles: Double) -> Set<TileAddress> {
        guard zoom >= 0, zoom <= TileAddress.maxZoom else { return [] }
        var cover = TileShapeCover(zoom: zoom, bufferTiles: bufferTiles)
        let scale = Double(1 << zoom)
        for (s, xy) in projected.enumerated() {
            let parts = layouts[s]
            switch parts.kind {
            case .point, .multiPoint:
                for p in 0..<parts.positionCount { cover.addPoint(x: xy[2 * p] * scale, y: xy[2 * p + 1] * scale) }
            case .lineString, .multiLineString:
                for ring in parts.ringEnds.indices {
                    let range = parts.positionRange(ofRing: ring)
                    for p in range.dropFirst() {
                        cover.addSegment(ax: xy[2 * p - 2] * scale, ay: xy[2 * p - 1] * scale,
                                         bx: xy[2 * p] * scale, by: xy[2 * p + 1] * scale)
                    }
                    if range.count == 1, let p = range.first { cover.addPoint(x: xy[2 * p] * scale, y: xy[2 * p + 1] * scale) }
                }
            case .polygon, .multiPolygon:
                for polygon in parts.polygonEnds.indices {
                    let rings = parts.ringRange(ofPolygon: polygon)
                    var north = Double.infinity, south = -Double.infinity
                    for ring in rings {
                        for p in parts.positionRange(ofRing: ring) {
                            north = min(north, xy[2 * p + 1] * scale)
                            south = max(south, xy[2 * p + 1] * scale)
                        }
                    }
                    guard north <= south else { continue }
                    cover.beginPolygon(low: north, high: south)
                    for ring in rings {
                        let range = parts.positionRange(ofRing: ring)
                        guard let last = range.last else { continue }
                        // Each edge, the closing one included (nothing when the ring repeats its first vertex).
                        var a = last
                        for b in range {
                            let (ax, ay) = (xy[2 * a] * scale, xy[2 * a + 1] * scale)
                            let (bx, by) = (xy[2 * b] * scale, xy[2 * b + 1] * scale)
                            cover.addSegment(ax: ax, ay: ay, bx: bx, by: by)
                            cover.addCrossings(ax: ax, ay: ay, bx: bx, by: by)
                            a = b
                        }
                    }
                    cover.fillInterior()
                }
            }
        }
        return cover.tiles
    }

    /// The tiles of `zoom` whose square widened by `bufferTiles` meets some shape's extent, at shifts -1, 0 and 1:
    /// the export's cover before `coveredTiles(zoom:bufferTiles:)`, kept as the brute-force reference.
    /// - Complexity: O(s + t) for s shapes and t tiles their extents cover.
    func extentTiles(zoom: Int, bufferTiles: Double) -> Set<TileAddress> {
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
        let boxes = partBoxes[s]
        // Whether part `part` lies wholly beyond an edge of the window. Tile units are computed as `position` does,
        // which is monotone in the input, so a part beyond by its extent is beyond by every vertex: it would clip
        // to nothing, and skipping it changes no byte.
        func misses(_ part: Int) -> Bool {
            let b = 4 * part
            return ((boxes[b + 2] + shift) * z2 - Double(x)) * size < low || ((boxes[b] + shift) * z2 - Double(x)) * size > high
                || (boxes[b + 3] * z2 - Double(y)) * size < low || (boxes[b + 1] * z2 - Double(y)) * size > high
        }
        do throws(VectorTileError) {
            switch shape.kind {
            case .point, .multiPoint:
                var points: [VectorTilePoint] = []
                for p in 0..<parts.positionCount where !misses(p) {
                    let t = position(p)
                    if t.x >= low, t.x <= high, t.y >= low, t.y <= high { points.append(TileShapeClipper.quantised(t)) }
                }
                guard !points.isEmpty else { return nil }
                return try VectorTileGeometry.multiPoint(points)
            case .lineString, .multiLineString:
                var lines: [[VectorTilePoint]] = []
                for ring in parts.ringEnds.indices where !misses(ring) {
                    let line = parts.positionRange(ofRing: ring).map(position)
                    for piece in TileShapeClipper.clipLine(line, low: low, high: high) {
                        lines.append(piece.map(TileShapeClipper.quantised))
                    }
                }
                return try VectorTileGeometry.lineString(lines)
            case .polygon, .multiPolygon:
                var polygons: [[[VectorTilePoint]]] = []
                for polygon in parts.polygonEnds.indices where !misses(polygon) {
                    var rings: [[VectorTilePoint]] = []
                    var inHole = false
                    for ring in parts.ringRange(ofPolygon: polygon) {
                        let clipped = TileShapeClipper.clipRing(parts.positionRange(ofRing: ring).map(position), low: low, high: high)
                        // A hole around the whole window leaves nothing of its polygon here (not the window
                        // twice, once each way round: a polygon of no area the tile would still carry).
                        if !rings.isEmpty, TileShapeClipper.isWindow(clipped, low: low, high: high) {
                            inHole = true
                            break
                        }
                        // A ring wholly outside is gone; an exterior gone takes its holes (polygon(_:) drops them).
                        rings.append(clipped.count >= 3 ? clipped.map(TileShapeClipper.quantised) : [])
                    }
                    if !inHole { polygons.append(rings) }
                }
                return try VectorTileGeometry.polygon(polygons)
            }
        } catch .emptyGeometry {
            return nil
        }
    }
}
