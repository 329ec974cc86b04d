import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// Tiles find their shapes through the part index (`TileShapes.shapes`) and the export writes only the tiles a shape
/// reaches (`TileShapes.coveredTiles`): both checked against brute force, the scan of every shape and every tile
/// of the shape's extent tested with the clipper, on seeded random shapes and on the Natural Earth countries
/// (Fiji, Russia and Antarctica split at ±180).
@Suite struct TileShapeIndexTests {
    /// The countries, as features with their shapes.
    static func countries() throws -> [Feature] {
        let path = try RepositoryData.path("Data/naturalearth-countries.geojson")
        return try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions(kind: .park))).compactMap {
            if case .feature(let feature, _) = $0 { feature } else { nil }
        }
    }

    /// `count` seeded shapes of every kind, of sizes from a tenth of a degree to 40 degrees, some at ±180 and the poles.
    static func randomFeatures(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        let kinds: [ShapeKind] = [.polygon, .multiPolygon, .lineString, .multiLineString, .multiPoint, .point]
        return try (0..<count).map { n in
            let lon = random.chance(0.15) ? (random.chance(0.5) ? 179.5 : -179.5) : random.uniform(-180...180)
            let lat = random.chance(0.05) ? (random.chance(0.5) ? 84 : -84) : random.uniform(-80...80)
            let size = [0.1, 1, 5, 40][random.below(4)]
            let shape = try SyntheticShapes.shape(kinds[random.below(kinds.count)], around: Coordinate(latitude: lat, longitude: lon),
                                                  sizeDegrees: size, random: &random)
            return try Feature(id: String(n), kind: .park, location: shape.representativePoint, shape: shape)
        }
    }

    /// The tiles to compare: every tile of zooms 0–3, then for zooms 4–9 the tiles around `samples` seeded vertices
    /// of the shapes (each with its eight neighbours, so edges, buffers and interiors are all met).
    static func tiles(of features: [Feature], samples: Int, seed: UInt64) -> [TileAddress] {
        var tiles: [TileAddress] = []
        for z in 0...3 {
            for x in 0..<(1 << z) { for y in 0..<(1 << z) { tiles.append(TileAddress(zoom: z, x: x, y: y)!) } }
        }
        var random = SplitMix64(seed: seed)
        let shaped = features.compactMap(\.shape)
        for _ in 0..<samples {
            let parts = shaped[random.below(shaped.count)].parts
            let p = random.below(parts.positionCount)
            let z = 4 + random.below(6), n = Double(1 << z)
            let x = Int(WebMercator.x(longitude: parts.positions[2 * p]) * n), y = Int(WebMercator.y(latitude: parts.positions[2 * p + 1]) * n)
            for dx in -1...1 {
                for dy in -1...1 {
                    // Wrapped across the antimeridian, so the first and last columns are both met.
                    let column = ((x + dx) % (1 << z) + (1 << z)) % (1 << z)
                    if let tile = TileAddress(zoom: z, x: column, y: y + dy) { tiles.append(tile) }
                }
            }
        }
        return tiles
    }

    /// Every tile's bytes, shapes found through the index, equal the bytes with shapes found by scanning them all;
    /// and the index never finds a shape the scan does not.
    static func expectIndexedEqualsScan(_ features: [Feature], tiles: [TileAddress]) throws {
        let shapes = TileShapes(features: features)
        let writer = try ClusterVectorTileWriter(index: ClusterIndex(features: features), features: features, shapes: shapes)
        var withShapes = 0
        for tile in tiles {
            let indexed = try writer.encodeTile(z: tile.zoom, x: tile.x, y: tile.y)
            let scanned = try writer.encodeTile(z: tile.zoom, x: tile.x, y: tile.y, scanningShapes: true)
            #expect(indexed == scanned, "tile \(tile.zoom)/\(tile.x)/\(tile.y)")
            let found = shapes.shapes(z: tile.zoom, x: tile.x, y: tile.y, bufferTiles: 40.0 / 512).map { "\($0.shape) \($0.shift)" }
            let all = Set(shapes.shapesByScan(z: tile.zoom, x: tile.x, y: tile.y, bufferTiles: 40.0 / 512).map { "\($0.shape) \($0.shift)" })
            #expect(found.allSatisfy(all.contains))
            if try VectorTileTestDecoder(indexed).layer("shapes") != nil { withShapes += 1 }
        }
        // The comparison is not vacuous: most tiles compared draw shapes.
        #expect(withShapes > tiles.count / 3, "\(withShapes) of \(tiles.count) tiles draw shapes")
    }

    @Test func indexedTilesEqualTheScanOnRandomShapes() throws {
        let features = try Self.randomFeatures(count: 400, seed: 19)
        try Self.expectIndexedEqualsScan(features, tiles: Self.tiles(of: features, samples: 150, seed: 7))
    }

    @Test func indexedTilesEqualTheScanOnTheCountries() throws {
        let countries = try Self.countries()
        #expect(countries.count == 177)
        try Self.expectIndexedEqualsScan(countries, tiles: Self.tiles(of: countries, samples: 80, seed: 11))
    }

    /// The tiles of `zoom` in which `shapes` draws something, by brute force: every tile of the shapes' extents
    /// (at shifts -1, 0, 1, as before the cover) clipped.
    static func drawnTiles(_ shapes: TileShapes, features: [Feature], zoom: Int, among tiles: Set<TileAddress>) throws -> Set<TileAddress> {
        try tiles.filter { tile in
            try shapes.shapesByScan(z: zoom, x: tile.x, y: tile.y, bufferTiles: 40.0 / 512).contains { s, shift in
                let shape = try #require(features[shapes.featureIndices[s]].shape)
                return try shapes.geometry(ofShape: s, shape: shape, z: zoom, x: tile.x, y: tile.y, shift: shift,
                                           bufferTiles: 40.0 / 512, extent: 4096) != nil
            }
        }
    }

    /// The export's cover of one shape holds every tile brute force draws it in, and hardly more (a tile the
    /// cover takes that draws nothing is one where a sliver rounded away): so the export, which leaves empty tiles
    /// out, writes the brute force's tiles, at a cost of the tiles written, not of the shape's extent.
    @Test(arguments: [("Fiji", 9), ("South Africa", 9), ("Russia", 7), ("Antarctica", 7), ("Canada", 6), ("Chile", 9)])
    func exportCoverIsTheBruteForce(country: String, maxZoom: Int) throws {
        let feature = try #require(try Self.countries().first { $0.attributes["name"] == .string(country) })
        try Self.expectCoverIsTheBruteForce([feature], zooms: 0...maxZoom)
    }

    @Test func exportCoverIsTheBruteForceOnRandomShapes() throws {
        let features = try Self.randomFeatures(count: 40, seed: 23)
        for feature in features { try Self.expectCoverIsTheBruteForce([feature], zooms: 0...7) }
    }

    static func expectCoverIsTheBruteForce(_ features: [Feature], zooms: ClosedRange<Int>) throws {
        let shapes = TileShapes(features: features)
        guard !shapes.isEmpty else { return }
        for zoom in zooms {
            let cover = shapes.coveredTiles(zoom: zoom, bufferTiles: 40.0 / 512)
            let extentTiles = shapes.extentTiles(zoom: zoom, bufferTiles: 40.0 / 512)
            let drawn = try drawnTiles(shapes, features: features, zoom: zoom, among: extentTiles)
            let id = features.first?.attributes["name"].map { "\($0)" } ?? features.first?.id ?? ""
            #expect(drawn.isSubset(of: cover), "\(id) z\(zoom): \(drawn.subtracting(cover).count) drawn tiles not covered")
            #expect(cover.count - drawn.count <= max(2, drawn.count / 50),
                    "\(id) z\(zoom): cover \(cover.count) tiles, drawn \(drawn.count), extent \(extentTiles.count)")
        }
    }

    /// A tile wholly inside a polygon's hole draws nothing of it (it used to draw the tile's square twice, once each
    /// way round: a polygon of no area), and the cover leaves it out; a tile wholly inside the polygon draws the
    /// whole buffered square and is covered.
    @Test func aHoleCrossedByAStripOfLandIsNotTheWindow() {
        // A C-shaped lake whose inner edge runs across the whole window (land at y 4-6): clipped, every vertex lies
        // on the window's edge and all four corners are there, but the strip of land must still be drawn.
        let lake: [TileShapeClipper.Position] = [(-5, -5), (15, -5), (15, 15), (-5, 15), (-5, 6), (12, 6), (12, 4), (-5, 4)]
        let clipped = TileShapeClipper.clipRing(lake, low: 0, high: 10)
        #expect(clipped.allSatisfy { $0.x == 0 || $0.x == 10 || $0.y == 0 || $0.y == 10 })
        #expect(!TileShapeClipper.isWindow(clipped, low: 0, high: 10))
        let around: [TileShapeClipper.Position] = [(-5, -5), (15, -5), (15, 15), (-5, 15)]
        #expect(TileShapeClipper.isWindow(TileShapeClipper.clipRing(around, low: 0, high: 10), low: 0, high: 10))
    }

    @Test func aTileInsideAHoleDrawsNothing() throws {
        func ring(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> [(Double, Double)] {
            [(west, south), (east, south), (east, north), (west, north), (west, south)]
        }
        let park = try TileShapesTests.feature("5", polygon: [ring(0, 0, 20, 20), ring(5, 5, 15, 15)])
        let shapes = TileShapes(features: [park])
        let writer = try ClusterVectorTileWriter(index: ClusterIndex(features: [park]), features: [park], shapes: shapes)
        let z = 8, n = Double(1 << z)
        func tile(_ lon: Double, _ lat: Double) -> TileAddress {
            TileAddress(zoom: z, x: Int(WebMercator.x(longitude: lon) * n), y: Int(WebMercator.y(latitude: lat) * n))!
        }
        let inHole = tile(10, 10), inside = tile(2.5, 17.5)
        #expect(try VectorTileTestDecoder(try writer.encodeTile(z: z, x: inHole.x, y: inHole.y)).layer("shapes") == nil)
        let square = try #require(try VectorTileTestDecoder(try writer.encodeTile(z: z, x: inside.x, y: inside.y)).layer("shapes"))
        let rings = try TileShapesTests.rings(try #require(square.features.first))
        #expect(rings.count == 1 && rings[0].count == 4)
        let cover = shapes.coveredTiles(zoom: z, bufferTiles: 40.0 / 512)
        #expect(!cover.contains(inHole) && cover.contains(inside))
    }
}
