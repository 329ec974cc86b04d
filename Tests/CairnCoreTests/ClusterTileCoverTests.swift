import CairnCore
import CairnTestSupport
import Testing

/// `ClusterIndex.occupiedTiles(zoom:)` against the brute force: exactly the tiles of the zoom whose `tile(z:x:y:)`
/// holds something, on seeded points that crowd the antimeridian, the poles' Mercator limit and one spot, with
/// radii large and small, wrapping or not.
@Suite struct ClusterTileCoverTests {
    static func points(seed: UInt64) throws -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        var coordinates: [Coordinate] = []
        for n in 0..<600 {
            let longitude: Double
            switch n % 4 {
            case 0: longitude = random.uniform(179.5...180)   // at the antimeridian, east side
            case 1: longitude = random.uniform(-180 ... -179.5) // and west side
            default: longitude = random.uniform(-180...180)
            }
            let latitude = n % 10 == 0 ? random.uniform(84...85.06) : random.uniform(-85.06...85.06)
            coordinates.append(try Coordinate(latitude: latitude, longitude: longitude))
        }
        // A tile corner (zoom 3's tiles meet at longitude 0, latitude 0) and identical points.
        for _ in 0..<5 { coordinates.append(try Coordinate(latitude: 0, longitude: 0)) }
        coordinates.append(try Coordinate(latitude: 90, longitude: 180))
        coordinates.append(try Coordinate(latitude: -90, longitude: -180))
        return coordinates
    }

    /// Every tile `tile(z:x:y:)` answers, by asking all 4^z of them.
    static func bruteForce(_ index: ClusterIndex, zoom z: Int) -> [TileAddress] {
        var tiles: [TileAddress] = []
        for y in 0..<(1 << z) {
            for x in 0..<(1 << z) where !index.tile(z: z, x: x, y: y).isEmpty {
                if let tile = TileAddress(zoom: z, x: x, y: y) { tiles.append(tile) }
            }
        }
        return tiles
    }

    @Test(arguments: [(40.0, true), (40.0, false), (200.0, true), (2.0, true)])
    func sameTilesAsAskingEveryTile(radius: Double, wraps: Bool) throws {
        let options = try ClusterOptions(radiusPixels: radius, minZoom: 1, maxZoom: 5, wrapsAntimeridian: wraps)
        let index = ClusterIndex(coordinates: try Self.points(seed: 11), options: options)
        for zoom in 0...7 {
            #expect(index.occupiedTiles(zoom: zoom) == Self.bruteForce(index, zoom: zoom), "zoom \(zoom)")
        }
    }

    @Test func emptyIndexAndZoomsOutOfRange() throws {
        let empty = ClusterIndex(coordinates: [])
        #expect(empty.occupiedTiles(zoom: 0).isEmpty)
        #expect(empty.occupiedTiles(zoom: 12).isEmpty)
        let one = ClusterIndex(coordinates: [try Coordinate(latitude: 60.17, longitude: 24.94)])
        #expect(one.occupiedTiles(zoom: -1).isEmpty)
        #expect(one.occupiedTiles(zoom: 31).isEmpty)
        #expect(one.occupiedTiles(zoom: 0) == [TileAddress(zoom: 0, x: 0, y: 0)])
        // Deep zooms work without 4^z work: one point, one tile (or its neighbours when near an edge).
        let deep = one.occupiedTiles(zoom: 20)
        #expect(!deep.isEmpty && deep.count <= 4)
        for tile in deep { #expect(!one.tile(z: 20, x: tile.x, y: tile.y).isEmpty) }
    }

    @Test func addressesOutOfRangeAreRefused() {
        #expect(TileAddress(zoom: 2, x: 4, y: 0) == nil)
        #expect(TileAddress(zoom: 2, x: 0, y: -1) == nil)
        #expect(TileAddress(zoom: 31, x: 0, y: 0) == nil)
        #expect(TileAddress(zoom: 30, x: (1 << 30) - 1, y: 0) != nil)
    }
}
