import ArgumentParser
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCLI

/// `cairn cluster --tile Z/X/Y --format mvt`: the JSON tile's features as a Mapbox Vector Tile, and the refusals.
@Suite struct ClusterVectorTileCommandTests {
    let folder: TemporaryFolder
    let csv: String

    init() throws {
        folder = try TemporaryFolder()
        csv = try folder.write("events.csv", """
            id,name,lat,lon,category,price,indoor
            1,Match A,60.1700,24.9400,football,10,false
            2,Match B,60.1700,24.9400,football,20.5,true
            c,Match C,60.1700,24.9400,tennis,,
            4,Run,60.1710,24.9410,running,5,false
            e,Padel,60.1690,24.9390,padel,15,true
            f,Fiji east,-16.8,179.99,football,1,
            g,Fiji west,-16.8,-179.99,tennis,2,
            007,Far,-33.9,151.2,football,3,false

            """)
    }

    func output(_ arguments: [String], name: String) throws -> [UInt8] {
        let out = folder.path + "/" + name
        var command = try CairnCommand.parseAsRoot(["cluster", "--input", csv] + arguments + ["--out", out])
        try command.run()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
    }

    /// The vector tile holds what the JSON tile holds, tile for tile, at several zooms and with aggregates.
    @Test(arguments: ["0/0/0", "3/0/4", "3/7/4", "3/4/2", "5/18/9", "5/31/17", "10/582/296", "10/0/560", "18/149232/75878"])
    func sameTileAsTheJSON(address: String) throws {
        let options = ["--tile", address, "--sum", "price", "--count-by", "category"]
        let json = try output(options, name: "t.json")
        let mvt = try output(options + ["--format", "mvt"], name: "t.mvt")
        let tile = try VectorTileTestDecoder(mvt)
        #expect(try tile.mismatches(againstJSONTile: json) == [], "\(address)")
        #expect(tile.layers.allSatisfy { $0.extent == 4096 && $0.version == 2 })
        if address == "0/0/0" {
            #expect(tile.layers.map(\.name) == ["clusters", "points"])
            #expect(tile.layer("points")?.features.first?.property("id") == .string("007"))
        }
    }

    /// An empty tile is an empty file; --tile-extent is the layers' extent (4096 by default, whatever the
    /// clustering's --extent); a .gz name is compressed as for JSON.
    @Test func emptyTilesExtentsAndCompression() throws {
        #expect(try output(["--tile", "4/0/15", "--format", "mvt"], name: "empty.mvt").isEmpty)
        let tile = try VectorTileTestDecoder(try output(["--tile", "0/0/0", "--format", "mvt", "--extent", "4096"], name: "4096.mvt"))
        #expect(tile.layers.map(\.extent) == [4096, 4096])
        let small = try VectorTileTestDecoder(try output(["--tile", "0/0/0", "--format", "mvt", "--tile-extent", "256"], name: "256.mvt"))
        #expect(small.layers.map(\.extent) == [256, 256])
        let fractional = try VectorTileTestDecoder(try output(["--tile", "0/0/0", "--format", "mvt", "--extent", "512.5"], name: "f.mvt"))
        #expect(fractional.layers.map(\.extent) == [4096, 4096])
        let gz = try output(["--tile", "0/0/0", "--format", "mvt"], name: "t.mvt.gz")
        #expect(gz.starts(with: [0x1F, 0x8B]))
    }

    /// mvt only with --tile, only a whole --tile-extent in range, and never to a terminal: each with its own message.
    @Test func refusals() throws {
        func message(_ arguments: [String]) -> String {
            do {
                var command = try CairnCommand.parseAsRoot(["cluster", "--input", csv] + arguments)
                try command.run()
                return ""
            } catch {
                return CairnCommand.message(for: error)
            }
        }
        #expect(message(["--zoom", "3", "--format", "mvt"]).contains("--format mvt writes one map tile: give --tile Z/X/Y"))
        #expect(message(["--format", "mvt"]).contains("give --tile Z/X/Y"))
        #expect(message(["--expand", "1", "--format", "mvt"]).contains("give --tile Z/X/Y"))
        #expect(message(["--tile", "0/0/0", "--format", "mvt", "--tile-extent", "0"])
            .contains("--tile-extent is a vector tile's units per side, a whole number from 1 to 1073741824, got 0"))
        #expect(message(["--tile", "0/0/0", "--format", "mvt", "--tile-extent", "512.5"]).contains("512.5"))
        #expect(message(["--tile", "0/0/0", "--format", "pbf"]).contains("pbf"))
        #expect(throws: CLIError.self) {
            try ClusterCommand.refuseBinaryOnTerminal(format: .mvt, out: nil, standardOutputIsTerminal: true)
        }
        #expect(throws: CLIError.self) {
            try ClusterCommand.refuseBinaryOnTerminal(format: .mvt, out: "-", standardOutputIsTerminal: true)
        }
        #expect(throws: Never.self) {
            try ClusterCommand.refuseBinaryOnTerminal(format: .mvt, out: "t.mvt", standardOutputIsTerminal: true)
            try ClusterCommand.refuseBinaryOnTerminal(format: .mvt, out: nil, standardOutputIsTerminal: false)
            try ClusterCommand.refuseBinaryOnTerminal(format: .geojson, out: nil, standardOutputIsTerminal: true)
        }
        let help = ClusterCommand.helpMessage()
        #expect(help.contains("--format <format>") && help.contains("mvt") && help.contains("with --tile"))
    }
}
