import CairnCore
import CairnTestSupport
import Foundation
import GRDB
import Testing
@testable import CairnIO

/// Tile archives: PMTiles tile ids along the Hilbert curve; a PMTiles archive read back by a reader written from
/// the specification (root and leaf directories, run lengths, identical tiles stored once, the header's counts);
/// an export of seeded clusters in both formats, every tile the bytes `ClusterVectorTileWriter` gives and the set
/// of tiles exactly the non-empty ones; and what a failed or refused archive leaves behind (nothing).
@Suite struct TileArchiveTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder() }

    func gunzip(_ bytes: [UInt8]) throws -> [UInt8] { try #require(Gunzip.decompressed(bytes)) }

    func contents(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test func tileIDsFollowTheHilbertCurveZoomByZoom() throws {
        #expect(try #require(TileAddress(zoom: 0, x: 0, y: 0)).pmtilesTileID == 0)
        // Zoom 1: the curve goes down the west half, then up the east half.
        let z1 = [(0, 0), (0, 1), (1, 1), (1, 0)].map { TileAddress(zoom: 1, x: $0.0, y: $0.1)!.pmtilesTileID }
        #expect(z1 == [1, 2, 3, 4])
        for zoom in 2...6 {
            let n = 1 << zoom
            var byID: [UInt64: (Int, Int)] = [:]
            for x in 0..<n { for y in 0..<n { byID[TileAddress(zoom: zoom, x: x, y: y)!.pmtilesTileID] = (x, y) } }
            let first = UInt64((n * n - 1) / 3)
            #expect(Set(byID.keys) == Set(first..<first + UInt64(n * n)), "zoom \(zoom): ids are the zoom's range")
            #expect(byID[first]! == (0, 0))
            for id in first..<first + UInt64(n * n) - 1 {
                let (a, b) = (byID[id]!, byID[id + 1]!)
                #expect(abs(a.0 - b.0) + abs(a.1 - b.1) == 1, "zoom \(zoom): id \(id) and the next are neighbours")
            }
        }
        #expect(TileAddress(zoom: 30, x: (1 << 30) - 1, y: 0)!.pmtilesTileID > TileAddress(zoom: 29, x: 0, y: 0)!.pmtilesTileID)
    }

    /// 70,000 tiles: too many entries for a root directory in 16 KiB, so leaves; runs of identical tiles are one
    /// entry, and identical tiles apart share their bytes.
    @Test func pmtilesDirectoriesRunsAndSharedTiles() throws {
        let path = folder.path("big.pmtiles")
        let writer = try PMTilesWriter(path: path)
        var expected: [UInt64: [UInt8]] = [:]
        var tiles: [TileAddress] = []
        for zoom in 0...8 {
            let n = 1 << zoom
            var level: [TileAddress] = []
            for x in 0..<n { for y in 0..<n where (x * 7 + y * 3) % 5 != 0 || zoom < 3 { level.append(TileAddress(zoom: zoom, x: x, y: y)!) } }
            tiles += level.sorted { $0.pmtilesTileID < $1.pmtilesTileID }
        }
        for (n, tile) in tiles.enumerated() {
            // Every tenth tile is "shared" (one content for all); tiles 100 to 149 repeat one content (a run when
            // their ids are consecutive); the rest are their own.
            let bytes: [UInt8] = n % 10 == 0 ? [1, 2, 3] : (100..<150).contains(n) ? [9, 9] : Array("tile \(n)".utf8)
            try writer.append(tile, gzippedBytes: bytes)
            expected[tile.pmtilesTileID] = bytes
        }
        let metadata = TileArchiveMetadata(name: "test \"q\"", minZoom: 0, maxZoom: 8, bounds: (-10, -20, 30, 40.5),
                                           center: (10, 10.25, 2), layers: [TileArchiveLayer(id: "points", fields: ["kind": "String"])])
        try writer.commit(metadata: metadata)
        let file = try contents(path)
        let archive = try PMTilesTestReader(file, gunzip: gunzip)
        #expect(archive.leafCount > 1)
        #expect(archive.header["rootLength"]! + 127 <= 16_384)
        #expect(try archive.tiles() == expected)
        #expect(archive.header["addressedTiles"] == UInt64(tiles.count))
        #expect(archive.header["tileEntries"] == UInt64(archive.entries.count))
        #expect(archive.entries.count < tiles.count)
        #expect(archive.entries.contains { $0.runLength > 1 })
        let distinct = Set(expected.values).count
        #expect(archive.header["tileContents"] == UInt64(distinct))
        #expect(archive.header["dataLength"] == UInt64(Set(expected.values).reduce(0) { $0 + $1.count }))
        #expect(archive.header["clustered"] == 1 && archive.header["internalCompression"] == 2)
        #expect(archive.header["tileCompression"] == 2 && archive.header["tileType"] == 1)
        #expect(archive.header["minZoom"] == 0 && archive.header["maxZoom"] == 8 && archive.header["centerZoom"] == 2)
        #expect(archive.bounds == [-100_000_000, -200_000_000, 300_000_000, 405_000_000])
        #expect(archive.center == [100_000_000, 102_500_000])
        #expect(archive.header["dataOffset"]! + archive.header["dataLength"]! == UInt64(file.count))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(archive.metadata.utf8)) as? [String: Any])
        #expect(json["name"] as? String == "test \"q\"")
        #expect((json["vector_layers"] as? [[String: Any]])?.first?["id"] as? String == "points")
        // Nothing is left beside the archive.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["big.pmtiles"])
    }

    @Test func outOfOrderAndEmptyTilesAreRefused() throws {
        let writer = try PMTilesWriter(path: folder.path("bad.pmtiles"))
        try writer.append(TileAddress(zoom: 1, x: 1, y: 0)!, gzippedBytes: [1])
        #expect(throws: TileArchiveError.tilesOutOfOrder(previous: TileAddress(zoom: 1, x: 1, y: 0)!, next: TileAddress(zoom: 1, x: 0, y: 0)!)) {
            try writer.append(TileAddress(zoom: 1, x: 0, y: 0)!, gzippedBytes: [1])
        }
        #expect(throws: TileArchiveError.emptyTile(TileAddress(zoom: 2, x: 0, y: 0)!)) {
            try writer.append(TileAddress(zoom: 2, x: 0, y: 0)!, gzippedBytes: [])
        }
        let metadata = TileArchiveMetadata(name: "none", minZoom: 0, maxZoom: 0, bounds: (0, 0, 0, 0), center: (0, 0, 0), layers: [])
        for path in [folder.path("none.pmtiles"), folder.path("none.mbtiles")] {
            #expect(throws: TileArchiveError.noTiles(path: path)) { try openTileArchive(path: path).commit(metadata: metadata) }
        }
        let mbtiles = try MBTilesWriter(path: folder.path("bad.mbtiles"))
        try mbtiles.append(TileAddress(zoom: 0, x: 0, y: 0)!, gzippedBytes: [1])
        mbtiles.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(throws: TileArchiveError.unknownExtension(path: "t.mvt")) { try openTileArchive(path: "t.mvt") }
        #expect(try TileArchiveFormat(path: "A.PMTiles") == .pmtiles)
        #expect(throws: TileArchiveError.self) { try openTileArchive(path: folder.path("no/such/folder/t.pmtiles")) }
        #expect(throws: TileArchiveError.self) { try openTileArchive(path: folder.path("no/such/folder/t.mbtiles")) }
    }

    /// Seeded towns, clustered: every tile of zooms 0-5 that holds anything, in both formats, each the writer's
    /// bytes for that tile; the tiles found equal asking all of them.
    @Test func exportHoldsExactlyTheNonEmptyTiles() throws {
        var features = try SyntheticTowns.make(count: 400, seed: 7)
        features.append(try Feature(id: "east", kind: .place, location: Coordinate(latitude: -16.8, longitude: 179.99)))
        features.append(try Feature(id: "west", kind: .place, location: Coordinate(latitude: -16.8, longitude: -179.99)))
        let index = ClusterIndex(features: features, options: try ClusterOptions(maxZoom: 4))
        let export = try ClusterTileExport(index: index, features: features)
        let writer = try ClusterVectorTileWriter(index: index, features: features)
        var expected: [UInt64: [UInt8]] = [:]
        var perZoom: [Int] = []
        for zoom in 0...5 {
            var count = 0
            for x in 0..<(1 << zoom) {
                for y in 0..<(1 << zoom) {
                    let bytes = try writer.encodeTile(z: zoom, x: x, y: y)
                    guard !bytes.isEmpty else { continue }
                    expected[TileAddress(zoom: zoom, x: x, y: y)!.pmtilesTileID] = bytes
                    count += 1
                }
            }
            perZoom.append(count)
        }
        var reports: [TileExportProgress] = []
        let pmtiles = folder.path("t.pmtiles"), mbtiles = folder.path("t.mbtiles")
        for path in [pmtiles, mbtiles] {
            let archive = try openTileArchive(path: path)
            let summary = try export.write(zooms: 0...5, to: archive) { reports.append($0) }
            try archive.commit(metadata: export.metadata(name: "cairn", zooms: 0...5))
            #expect(summary.tilesPerZoom == perZoom)
        }
        #expect(reports.last?.tilesWritten == expected.count)
        let archive = try PMTilesTestReader(try contents(pmtiles), gunzip: gunzip)
        let stored = try archive.tiles()
        #expect(Set(stored.keys) == Set(expected.keys))
        for (id, bytes) in stored { #expect(try gunzip(bytes) == expected[id], "tile id \(id)") }
        #expect(archive.header["minZoom"] == 0 && archive.header["maxZoom"] == 5)

        let queue = try DatabaseQueue(path: mbtiles)
        try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles")
            #expect(rows.count == expected.count)
            for row in rows {
                let z: Int = row[0], x: Int = row[1], tmsRow: Int = row[2]
                let data: Data = row[3]
                let tile = try #require(TileAddress(zoom: z, x: x, y: (1 << z) - 1 - tmsRow))
                #expect(try gunzip([UInt8](data)) == expected[tile.pmtilesTileID], "\(z)/\(x)/\(tmsRow) (TMS)")
            }
            let metadata = Dictionary(uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT name, value FROM metadata").map {
                ($0[0] as String, $0[1] as String)
            })
            #expect(metadata["format"] == "pbf" && metadata["minzoom"] == "0" && metadata["maxzoom"] == "5")
            #expect(metadata["name"] == "cairn" && metadata["bounds"]?.split(separator: ",").count == 4)
            let json = try #require(try JSONSerialization.jsonObject(with: Data((metadata["json"] ?? "").utf8)) as? [String: Any])
            let layers = try #require(json["vector_layers"] as? [[String: Any]])
            #expect(layers.map { $0["id"] as? String } == ["clusters", "points"])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["t.mbtiles", "t.pmtiles"])
    }
}
