import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// Lines and polygons in cluster tiles: the `shapes` layer, clipped to the tile plus the clusters' buffer, with MVT
/// 2.1's winding, closed rings, no repeated or degenerate parts, and the same edges in neighbouring tiles.
@Suite struct TileShapesTests {
    /// A feature whose shape is `rings` (longitude, latitude; the first the exterior) as one polygon, or a line.
    static func feature(_ id: String, polygon rings: [[(Double, Double)]]) throws -> Feature {
        var parts = ShapeParts(kind: .polygon)
        for ring in rings {
            for (lon, lat) in ring { parts.append(longitude: lon, latitude: lat) }
            parts.endRing()
        }
        parts.endPolygon()
        let shape = try Shape(checking: parts)
        return try Feature(id: id, kind: .park, location: shape.representativePoint, attributes: ["name": .string(id)], shape: shape)
    }

    static func feature(_ id: String, line: [(Double, Double)]) throws -> Feature {
        var parts = ShapeParts(kind: .lineString)
        for (lon, lat) in line { parts.append(longitude: lon, latitude: lat) }
        parts.endRing()
        let shape = try Shape(checking: parts)
        return try Feature(id: id, kind: .trailhead, location: shape.representativePoint, shape: shape)
    }

    /// The exact tile position of a longitude and latitude in tile (z, x, y) at `extent` units.
    static func exact(_ lon: Double, _ lat: Double, z: Int, x: Int, y: Int, extent: Double = 4096) -> (x: Double, y: Double) {
        let n = Double(1 << z)
        return ((WebMercator.x(longitude: lon) * n - Double(x)) * extent, (WebMercator.y(latitude: lat) * n - Double(y)) * extent)
    }

    /// Twice the signed area of a ring by the surveyor's formula in tile coordinates.
    static func doubledArea(_ ring: [(x: Int, y: Int)]) -> Int {
        zip(ring, ring.dropFirst() + ring.prefix(1)).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }
    }

    /// The rings of a polygon feature: each MoveTo, LineTo..., ClosePath.
    static func rings(_ f: VectorTileTestDecoder.Feature) throws -> [[(x: Int, y: Int)]] {
        let commands = try VectorTileTestDecoder.commands(f.geometry)
        var rings: [[(x: Int, y: Int)]] = []
        var i = 0
        while i < commands.count {
            try #require(i + 2 < commands.count && commands[i].id == 1 && commands[i].points.count == 1
                         && commands[i + 1].id == 2 && commands[i + 1].points.count >= 2 && commands[i + 2].id == 7)
            rings.append(commands[i].points + commands[i + 1].points)
            i += 3
        }
        return rings
    }

    /// A park with a hole across the edge between two tiles at zoom 14, given in either winding: each tile draws
    /// the part within its buffered square, exterior clockwise (positive area, y down) and hole counter-clockwise,
    /// closed by ClosePath, no vertex twice in a row; every vertex of the input inside a tile is within half a unit
    /// of its exact position; the two tiles draw the same vertices one extent apart.
    @Test(arguments: [false, true])
    func polygonWithAHoleAcrossATileEdge(reversed: Bool) throws {
        let z = 14
        let (column, row) = (9325, 4742) // Helsinki
        let edge = WebMercator.longitude(x: Double(column + 1) / Double(1 << z)) // the tiles' shared edge
        let lat = WebMercator.latitude(y: (Double(row) + 0.5) / Double(1 << z))
        var exterior = [(edge - 0.01, lat - 0.003), (edge + 0.01, lat - 0.003), (edge + 0.01, lat + 0.003), (edge - 0.01, lat + 0.003)]
        var hole = [(edge - 0.001, lat - 0.001), (edge - 0.001, lat + 0.001), (edge + 0.001, lat + 0.001), (edge + 0.001, lat - 0.001)]
        if reversed { exterior.reverse(); hole.reverse() }
        let park = try Self.feature("900", polygon: [exterior + [exterior[0]], hole + [hole[0]]])
        let features = [park]
        let index = ClusterIndex(features: features)
        let writer = try ClusterVectorTileWriter(index: index, features: features, shapes: TileShapes(features: features))
        let buffer = 40.0 / 512 * 4096
        var drawn: [[[(x: Int, y: Int)]]] = []
        for x in [column, column + 1] {
            let tile = try VectorTileTestDecoder(try writer.encodeTile(z: z, x: x, y: row))
            let layer = try #require(tile.layer("shapes"))
            #expect(layer.extent == 4096 && layer.features.count == 1)
            let f = try #require(layer.features.first)
            #expect(f.type == 3 && f.id == 900 && f.property("name") == .string("900") && f.property("kind") == .string("park"))
            let rings = try Self.rings(f)
            try #require(rings.count == 2)
            #expect(Self.doubledArea(rings[0]) > 0 && Self.doubledArea(rings[1]) < 0, "winding \(rings.map(Self.doubledArea))")
            for ring in rings {
                for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1)) { #expect(a != b, "a vertex twice in a row") }
                for p in ring { #expect(Double(p.x) >= -buffer && Double(p.x) <= 4096 + buffer && Double(p.y) >= -buffer && Double(p.y) <= 4096 + buffer) }
            }
            for (lon, lat) in exterior + hole {
                let e = Self.exact(lon, lat, z: z, x: x, y: row)
                guard e.x >= -buffer, e.x <= 4096 + buffer else { continue }
                #expect(rings.joined().contains { abs(Double($0.x) - e.x) <= 0.5 && abs(Double($0.y) - e.y) <= 0.5 }, "\(lon), \(lat)")
            }
            // The park is also a pin at its representative point (a single point here: it is alone).
            #expect(tile.layer("points")?.features.count == 1)
            drawn.append(rings)
        }
        // The hole lies in both tiles' buffered squares whole: drawn at the same place, one extent apart.
        let west = Set(drawn[0][1].map { [$0.x - 4096, $0.y] }), east = Set(drawn[1][1].map { [$0.x, $0.y] })
        #expect(west == east)
    }

    /// A line that leaves the buffered tile and comes back is two parts; each part is MoveTo then LineTo, in range.
    @Test func lineLeavingAndReenteringIsTwoParts() throws {
        let z = 12, (x, y) = (2331, 1185)
        let n = Double(1 << z)
        func lon(_ fx: Double) -> Double { WebMercator.longitude(x: (Double(x) + fx) / n) }
        func lat(_ fy: Double) -> Double { WebMercator.latitude(y: (Double(y) + fy) / n) }
        // In at the west, out through the north, back in, out at the east.
        let trail = try Self.feature("t-1", line: [(lon(-0.5), lat(0.5)), (lon(0.3), lat(0.5)), (lon(0.4), lat(-0.6)),
                                                   (lon(0.6), lat(-0.6)), (lon(0.7), lat(0.5)), (lon(1.5), lat(0.5))])
        let writer = try ClusterVectorTileWriter(index: ClusterIndex(features: [trail]), features: [trail], shapes: TileShapes(features: [trail]))
        let tile = try VectorTileTestDecoder(try writer.encodeTile(z: z, x: x, y: y))
        let f = try #require(tile.layer("shapes")?.features.first)
        #expect(f.type == 2 && f.id == nil && f.property("id") == .string("t-1"))
        let commands = try VectorTileTestDecoder.commands(f.geometry)
        #expect(commands.map(\.id) == [1, 2, 1, 2])
        let low = -40.0 / 512 * 4096, high = 4096 - low
        for p in commands.flatMap(\.points) { #expect(Double(p.x) >= low && Double(p.x) <= high && Double(p.y) >= low && Double(p.y) <= high) }
        // The parts end and start on the buffer's north edge.
        #expect(commands[1].points.last?.y == Int(low) && commands[2].points.first?.y == Int(low))
        // A tile the line's extent misses has no shapes layer.
        #expect(try VectorTileTestDecoder(try writer.encodeTile(z: z, x: x + 3, y: y)).layer("shapes") == nil)
    }

    /// Parts that round to nothing are dropped: a park smaller than a tile unit at zoom 0 draws no shape (and no
    /// empty layer), but stays a pin; a ring repeating its first vertex is written once, closed by ClosePath.
    @Test func degeneratePartsAreDropped() throws {
        let tiny = try Self.feature("1", polygon: [[(24.9, 60.1), (24.9001, 60.1), (24.9001, 60.1001), (24.9, 60.1)]])
        let writer = try ClusterVectorTileWriter(index: ClusterIndex(features: [tiny]), features: [tiny], shapes: TileShapes(features: [tiny]))
        let world = try VectorTileTestDecoder(try writer.encodeTile(z: 0, x: 0, y: 0))
        #expect(world.layers.map(\.name) == ["points"])
        #expect(throws: VectorTileError.emptyGeometry) {
            try VectorTileGeometry.polygon([[[VectorTilePoint(x: 1, y: 1), VectorTilePoint(x: 2, y: 2), VectorTilePoint(x: 3, y: 3)]]])
        }
        #expect(throws: VectorTileError.emptyGeometry) {
            try VectorTileGeometry.lineString([[VectorTilePoint(x: 1, y: 1), VectorTilePoint(x: 1, y: 1)]])
        }
        // Counter-clockwise given, clockwise written; the closing vertex left to ClosePath: 9 integers + ClosePath.
        let square = [VectorTilePoint(x: 0, y: 0), VectorTilePoint(x: 0, y: 10), VectorTilePoint(x: 10, y: 10),
                      VectorTilePoint(x: 10, y: 0), VectorTilePoint(x: 0, y: 0)]
        let g = try VectorTileGeometry.polygon([[square]])
        #expect(g.commands.count == 1 + 2 + 1 + 6 + 1 && g.commands.last == 15)
        let ring = try VectorTileTestDecoder.commands(g.commands).dropLast().flatMap(\.points)
        #expect(Self.doubledArea(ring) > 0)
        // A hole whose exterior is gone goes with it.
        let lost = try VectorTileGeometry.polygon([[[VectorTilePoint(x: 0, y: 0), VectorTilePoint(x: 5, y: 0)], square],
                                                   [square.reversed()]])
        #expect(try VectorTileTestDecoder.commands(lost.commands).count == 3)
    }

    /// The clipper alone: a square half outside keeps its inside half, closed on the window's edge; a segment
    /// wholly outside is gone; an inside end is kept exactly.
    @Test func clipper() {
        let ring = TileShapeClipper.clipRing([(-10, 0), (10, 0), (10, 10), (-10, 10), (-10, 0)], low: 0, high: 100)
        #expect(Set(ring.map { [$0.x, $0.y] }) == [[0, 0], [10, 0], [10, 10], [0, 10]])
        #expect(TileShapeClipper.clipRing([(-10, 0), (-5, 0), (-5, 5)], low: 0, high: 100).isEmpty)
        #expect(TileShapeClipper.clipSegment((-10, -10), (-5, 200), low: 0, high: 100) == nil)
        let s = TileShapeClipper.clipSegment((50, 50), (150, 50), low: 0, high: 100)
        #expect(s.map { [$0.0.x, $0.0.y, $0.1.x, $0.1.y] } == [50, 50, 100, 50])
        #expect(TileShapeClipper.rounded(2.5) == 3 && TileShapeClipper.rounded(-2.5) == -2 && TileShapeClipper.rounded(-2.6) == -3)
    }

    /// The export writes the tiles a shape crosses even where no pin is, and only those the shape itself reaches.
    @Test func exportCoversTheShapesTiles() throws {
        let trail = try Self.feature("7", line: [(20, 10), (30, 10)])
        let export = try ClusterTileExport(index: ClusterIndex(features: [trail]), features: [trail])
        let covered = export.shapes.coveredTiles(zoom: 6, bufferTiles: 40.0 / 512)
        #expect(covered.count >= 2 && export.index.occupiedTiles(zoom: 6).count < covered.count)
        #expect(covered.contains(TileAddress(zoom: 6, x: 35, y: 30)!)) // 20°E, 10°N
        #expect(export.metadata(name: "t", zooms: 0...6).layers.map(\.id) == ["clusters", "points", "shapes"])
    }
}
