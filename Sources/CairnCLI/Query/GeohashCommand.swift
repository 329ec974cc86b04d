import ArgumentParser
import CairnCore
import CairnIO

/// `cairn geohash ...`: encode, decode, neighbours, box cover, and a prefix query on the store.
struct GeohashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geohash",
        abstract: "Geohash cells: encode, decode, neighbors, cover a box, and find features by prefix.",
        subcommands: [Encode.self, Decode.self, Neighbors.self, Cover.self, Prefix.self]
    )

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "encode", abstract: "The geohash of a point.")

        @Option(name: [.customLong("lat"), .customLong("latitude")], parsing: .unconditional, help: "Latitude in degrees.")
        var latitude: Double
        @Option(name: [.customLong("long"), .customLong("lon"), .customLong("lng"), .customLong("longitude")], parsing: .unconditional, help: "Longitude in degrees.")
        var longitude: Double
        @Option(parsing: .unconditional, help: "Characters, 1...12.")
        var precision = 9

        func validate() throws { try OptionRange.check("--precision", precision, in: Geohash.precisionRange) }

        func run() throws {
            print(try Geohash.encode(try parseCoordinate(latitude: latitude, longitude: longitude), precision: precision))
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "decode", abstract: "A geohash's cell: its centre and bounds, as JSON.")

        @Argument(help: "The geohash.")
        var hash: String

        func run() throws {
            print(GeohashText.json(try Geohash.decode(hash)), terminator: "")
        }
    }

    struct Neighbors: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "neighbors", abstract: "The 8 neighbouring cells (fewer at the poles), one per line: DIRECTION HASH.")

        @Argument(help: "The geohash.")
        var hash: String

        func run() throws {
            print(GeohashText.neighborLines(try Geohash.neighbors(hash)), terminator: "")
        }
    }

    struct Cover: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cover", abstract: "The cells, at the finest precision that fits, covering a box; one per line.")

        @Option(parsing: .unconditional, help: ArgumentHelp("The box in degrees.", valueName: "west,south,east,north"))
        var bbox: String
        @Option(name: .customLong("max-cells"), parsing: .unconditional, help: "At most this many cells (1 to 1000000).")
        var maxCells = 32

        /// The most cells `--max-cells` may ask for: the cover holds them all in memory.
        static let maxCellsLimit = 1_000_000

        func validate() throws { try OptionRange.check("--max-cells", maxCells, in: 1...Self.maxCellsLimit) }

        func run() throws {
            let v = try parseNumbers(bbox, count: 4, option: "--bbox", shape: "west,south,east,north")
            for cell in try Geohash.cover(west: v[0], south: v[1], east: v[2], north: v[3], maxCells: maxCells) { print(cell) }
        }
    }

    struct Prefix: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "prefix", abstract: "Features whose location's geohash starts with a prefix.")

        @Argument(help: "The geohash prefix.")
        var prefix: String
        @OptionGroup var query: QueryOptions

        func validate() throws {
            do { _ = try Geohash.decode(prefix) } catch { throw ValidationError("\(error)") }
        }

        func run() throws {
            try query.run { index, filter, stats in try index.withGeohashPrefix(prefix, filter: filter, stats: &stats) }
        }
    }
}
