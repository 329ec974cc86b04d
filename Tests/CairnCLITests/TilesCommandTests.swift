import ArgumentParser
import CairnCore
import CairnIO
import CairnTestSupport
import Foundation
import GRDB
import Testing
@testable import CairnCLI

/// `cairn tiles`: an archive of every non-empty tile whose tiles are `cluster --tile --format mvt`'s bytes for the
/// same options, and the refusals (an unknown extension, an existing file without --force, the store as output,
/// nothing to write), none of which leaves a file.
@Suite struct TilesCommandTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path("cairn.sqlite")
        let csv = try folder.write("events.csv", """
            id,name,lat,lon,category,price
            1,Match A,60.1700,24.9400,football,10
            2,Match B,60.1700,24.9400,football,20.5
            3,Run,60.1710,24.9410,running,5
            e,Padel,60.1690,24.9390,padel,15
            f,Fiji east,-16.8,179.99,football,1
            g,Fiji west,-16.8,-179.99,tennis,2
            7,Far,-33.9,151.2,football,3

            """)
        try run(["import", csv, "--db", db, "--no-progress"])
    }

    func run(_ arguments: [String]) throws {
        var command = try CairnCommand.parseAsRoot(arguments)
        try command.run()
    }

    func gunzip(_ bytes: [UInt8]) throws -> [UInt8] { try #require(Gunzip.decompressed(bytes)) }

    @Test func everyTileIsTheClusterCommandsTile() throws {
        let options = ["--max-zoom", "6", "--sum", "price", "--count-by", "category", "--radius", "60"]
        let out = folder.path("t.mbtiles")
        try run(["tiles", "--db", db, "--out", out] + options)
        let tiles = try DatabaseQueue(path: out).read { db in
            try Row.fetchAll(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles").map {
                (z: $0[0] as Int, x: $0[1] as Int, y: (1 << ($0[0] as Int)) - 1 - ($0[2] as Int), data: [UInt8]($0[3] as Data))
            }
        }
        // Every zoom: the two spots (Helsinki, Sydney) and the antimeridian pair, which the tiles on both edges hold.
        #expect(Set(tiles.map(\.z)) == Set(0...6))
        for tile in tiles {
            let single = folder.path("one.mvt")
            try run(["cluster", "--db", db, "--tile", "\(tile.z)/\(tile.x)/\(tile.y)", "--format", "mvt", "--out", single] + options)
            #expect(try gunzip(tile.data) == [UInt8](try Data(contentsOf: URL(fileURLWithPath: single))), "\(tile.z)/\(tile.x)/\(tile.y)")
        }
        // The tiles are exactly the non-empty ones: at zoom 2, every tile, asked one by one.
        var nonEmpty: Set<[Int]> = []
        for x in 0..<4 {
            for y in 0..<4 {
                let single = folder.path("z2.mvt")
                try run(["cluster", "--db", db, "--tile", "2/\(x)/\(y)", "--format", "mvt", "--out", single] + options)
                if try Data(contentsOf: URL(fileURLWithPath: single)).count > 0 { nonEmpty.insert([x, y]) }
            }
        }
        #expect(Set(tiles.filter { $0.z == 2 }.map { [$0.x, $0.y] }) == nonEmpty)
        #expect(!nonEmpty.isEmpty)
    }

    @Test func pmtilesAndTheFilters() throws {
        let all = folder.path("all.pmtiles"), tennis = folder.path("tennis.pmtiles")
        try run(["tiles", "--db", db, "--out", all, "--max-zoom", "4"])
        try run(["tiles", "--db", db, "--out", tennis, "--max-zoom", "4", "--where", "category=tennis"])
        let header = { (path: String) throws -> (tiles: UInt64, minZoom: UInt8, maxZoom: UInt8) in
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            return ((0..<8).reduce(0) { $0 | UInt64(bytes[72 + $1]) << (8 * UInt64($1)) }, bytes[100], bytes[101])
        }
        let (allTiles, minZoom, maxZoom) = try header(all)
        #expect(allTiles > 5 && minZoom == 0 && maxZoom == 4)
        #expect(try header(tennis).tiles < allTiles) // one point (Fiji west): fewer tiles
    }

    @Test func refusalsLeaveNoFile() throws {
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["tiles", "--db", db, "--out", folder.path("t.mvt")]) }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["tiles", "--db", db, "--out", folder.path("t.pmtiles"), "--tile-extent", "100.5"]) }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["tiles", "--db", db, "--out", folder.path("t.pmtiles"), "--tile-extent", "0"]) }
        let existing = try folder.write("old.pmtiles", "old")
        #expect { try run(["tiles", "--db", db, "--out", existing, "--max-zoom", "2"]) } throws: { error in
            "\(error)".contains("exists: give --force to replace it")
        }
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "old")
        try run(["tiles", "--db", db, "--out", existing, "--max-zoom", "2", "--force"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: existing)).prefix(7) == Data("PMTiles".utf8))
        #expect { try run(["tiles", "--db", db, "--out", folder.path("none.mbtiles"), "--kind", "park"]) } throws: { error in
            "\(error)".contains("no features to write as tiles") && "\(error)".contains("that --kind and --where accept")
        }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["tiles", "--db", db, "--out", db, "--force"]) }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains("old.pmtiles") && !names.contains("none.mbtiles"))
        #expect(names.allSatisfy { !$0.contains(".tmp-") && !$0.contains(".scratch-") }, "\(names)")
    }
}
