import ArgumentParser
import CairnBench
import CairnCore
import CairnIO
import Foundation

/// `cairn generate`: seeded synthetic parks, trailheads, places, events, users and check-ins from real towns.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate realistic synthetic data from real places, the same files for the same seed.",
        discussion: """
            Writes parks.csv, trailheads.csv, places.csv, events.csv, users.csv, checkins.csv and \
            checkins-expected.csv (the verdict each check-in was built to get) into the output folder. \
            With --places-from-towns the places are the real towns themselves (the first --places of them, \
            with their GeoNames ids and names and a seeded radius of 30-300 m). \
            With --edge-load it writes the hard check-in load instead (places.csv, events.csv, checkins.csv): \
            every town a place with a radius of 50-2,000 m, --events events of 30 min to 4 h across 2026 and \
            --checkins check-ins within 1.5 radii of the place's centre (most near the edge), 1 % naming an \
            unknown event; issue #20 uses --events 1000000 --checkins 3000000. \
            With --park-load it writes check-ins at park polygons instead (places.csv, checkins.csv): --parks \
            star-shaped polygons of 8-64 vertices (15 % with a hole, 150 m to 3 km across) around the towns, as WKT, \
            and --checkins check-ins within 1.1 radii of a park's town naming that park (1 % an unknown park, 10 % \
            none); issue #19 uses --parks 100000 --checkins 1000000.
            """
    )

    @Option(parsing: .unconditional, help: "The seed; the same seed and sizes give byte-identical files (default: 42).", transform: OptionRange.unsigned)
    var seed: UInt64 = 42

    @Option(help: ArgumentHelp("Real towns to derive from (GeoNames CSV with a geonameid column).", valueName: "file"))
    var towns = "Data/geonames-cities500.csv.gz"

    @Option(help: ArgumentHelp("The output folder.", valueName: "dir"))
    var out = "Data/generated"

    @Option(parsing: .unconditional, help: "Parks to generate.") var parks = SyntheticSizes().parks
    @Option(parsing: .unconditional, help: "Trailheads to generate.") var trailheads = SyntheticSizes().trailheads
    @Option(parsing: .unconditional, help: "Places (venues with a check-in radius) to generate.") var places = SyntheticSizes().places
    @Option(parsing: .unconditional, help: "Events at places to generate.") var events = SyntheticSizes().events
    @Option(parsing: .unconditional, help: "Users to generate.") var users = SyntheticSizes().users
    @Option(name: .customLong("checkins"), parsing: .unconditional, help: "Check-ins to generate.") var checkIns = SyntheticSizes().checkIns

    @Flag(name: .customLong("places-from-towns"), help: "Use the real towns themselves as the places (each with a seeded radius).")
    var placesFromTowns = false

    @Flag(name: .customLong("edge-load"), help: "Write the hard check-in load (every town a place; --events, --checkins) instead.")
    var edgeLoad = false

    @Flag(name: .customLong("park-load"), help: "Write check-ins at park polygons (--parks, --checkins) instead.")
    var parkLoad = false

    func validate() throws {
        for (name, value) in [("parks", parks), ("trailheads", trailheads), ("places", places), ("events", events), ("users", users), ("checkins", checkIns)] where value < 0 {
            throw ValidationError("--\(name) must be 0 or more, got \(value)")
        }
        if edgeLoad && parkLoad { throw ValidationError("--edge-load and --park-load are two loads: choose one") }
        if parkLoad {
            if checkIns > 0, parks == 0 { throw ValidationError("--park-load --checkins \(checkIns) needs --parks 1 or more (give --checkins 0 for none)") }
            return
        }
        if edgeLoad {
            if checkIns > 0, events == 0 { throw ValidationError("--edge-load --checkins \(checkIns) needs --events 1 or more (give --checkins 0 for none)") }
            return
        }
        // Check-ins are made for users, at events (which need places) and in parks: without them there would
        // be none, silently.
        if checkIns > 0 {
            for (name, value) in [("users", users), ("events", events), ("places", places), ("parks", parks)] where value == 0 {
                throw ValidationError("--checkins \(checkIns) needs at least one of each of users, events, places and parks, got --\(name) 0 (give --checkins 0 for none)")
            }
        }
    }

    func run() throws {
        guard FileManager.default.fileExists(atPath: towns) else {
            let full = URL(fileURLWithPath: towns).standardizedFileURL.path
            let cwd = FileManager.default.currentDirectoryPath
            throw CLIError("no towns file at \(full) (--towns \(towns), relative to the current directory \(cwd)); "
                + "run from the repository root, where Data/geonames-cities500.csv.gz is, or give --towns FILE")
        }
        var guarded = OutputPathCheck()
        guarded.input(towns, option: "--towns")
        if edgeLoad {
            for name in EdgeCheckInLoad.fileNames { try guarded.check(out + "/" + name, option: "--out") }
            let load = EdgeCheckInLoad(towns: try Self.readTowns(path: towns), seed: seed, events: events, checkIns: checkIns)
            return try write(EdgeCheckInLoad.fileNames) { load.generate(write: $0) }
        }
        if parkLoad {
            for name in ParkCheckInLoad.fileNames { try guarded.check(out + "/" + name, option: "--out") }
            let towns = try Self.readTowns(path: towns).map(\.location)
            let load = ParkCheckInLoad(parks: PolygonSet.generate(around: towns, count: parks, seed: seed), seed: seed, checkIns: checkIns)
            return try write(ParkCheckInLoad.fileNames) { load.generate(write: $0) }
        }
        for name in SyntheticDataset.fileNames { try guarded.check(out + "/" + name, option: "--out") }
        let towns = try Self.readTowns(path: towns)
        if placesFromTowns, places > towns.count {
            throw CLIError("--places-from-towns: --places \(places) is more than the \(towns.count) towns in \(self.towns)")
        }
        let sizes = SyntheticSizes(parks: parks, trailheads: trailheads, places: places, events: events, users: users, checkIns: checkIns)
        try write(SyntheticDataset.fileNames) {
            SyntheticDataset(towns: towns, seed: seed, sizes: sizes, placesAreTowns: placesFromTowns).generate(write: $0)
        }
    }

    /// Creates the output folder, streams each named file to its own sink as `generate` hands out its pieces,
    /// and prints the rows written per file.
    private func write(_ names: [String], generate: ((String, String) -> Void) -> Void) throws {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var sinks: [String: OutputSink] = [:]
        var lines: [String: Int] = [:]
        var failure: Error?
        generate { name, text in
            guard failure == nil else { return }
            if sinks[name] == nil {
                do { sinks[name] = try OutputSink(path: out + "/" + name) } catch { failure = error; return }
            }
            sinks[name]?.write(text)
            lines[name, default: 0] += text.utf8.reduce(0) { $1 == 10 ? $0 + 1 : $0 }
        }
        if let failure { throw failure }
        for name in names {
            try sinks[name]?.close()
            print("wrote \(out)/\(name) (\(Terminal.grouped(max(0, (lines[name] ?? 0) - 1))) rows)")
        }
    }

    /// Reads the real towns; a bad row there is an error, since the generator's input must be clean.
    static func readTowns(path: String) throws -> [Feature] {
        var towns: [Feature] = []
        try openFeatureReader(path: path, options: ImportOptions(kind: .place, idColumn: "geonameid")).forEachRecord { town in
            towns.append(town)
        } rejected: { rejection in
            throw CLIError("the towns file has a bad row: \(rejection)")
        }
        guard !towns.isEmpty else { throw CLIError("\(path) has no towns to derive data from") }
        return towns
    }
}
