import ArgumentParser
import CairnBench
import CairnCore
import Foundation

/// `cairn bench`: the same seeded workload through Cairn and, in the same process and run, through SQLite's
/// R*Tree and GEOS's STRtree, each answering exactly; the bench checks that all engines agree.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time Cairn against SQLite's R*Tree and GEOS's STRtree on one seeded workload, checking they all agree.",
        discussion: """
            Operations: index build, box queries sized for about 10, 100 and 1,000 results, radius 1 km, 25 km \
            and 150 km, nearest 1, 20 and 100, and containment (which circles of 100 m to 1 km contain a point). \
            Each is timed query by query on one thread; the report gives p50/p95/p99 latency, queries per \
            second, build time, bytes per point and how many times faster Cairn is than each peer. \
            Build a release binary first (swift build -c release): debug timings mean nothing. \
            Exits with status 1 when the engines disagree on any query.

            With --db STORE it benchmarks your own data instead: the store's index, as the query commands load it, \
            answers queries drawn from its own features (boxes sized to hold about 10, 100 and 1,000 of them, \
            radius and nearest around them, containment around the circles of features with a radius), or the \
            queries of a file (--queries FILE: a CSV of box,WEST,SOUTH,EAST,NORTH / radius,LAT,LON,RADIUS / \
            nearest,LAT,LON,K / containing,LAT,LON lines; bad lines are reported with their line and field, the \
            good ones run). --threads N queries from N threads at once, --duration S runs each operation S seconds; \
            p50/p95/p99/p99.9 come from a latency histogram that holds runs of any length.

            With --polygons it times polygon containment instead: --polygon-count seeded star-shaped polygons \
            (8-64 vertices, some with a hole, 150 m to 3 km across) around the places, and which of them contain \
            each query point, through Cairn's containing and through GEOS's STRtree with prepared geometries \
            (GEOSPreparedCovers_r: the boundary is inside), both answers compared query by query.
            """
    )

    /// Which datasets to run.
    enum DatasetChoice: String, ExpressibleByArgument, CaseIterable {
        case uniform, places, both
    }

    /// How to print the report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Option(parsing: .unconditional, help: "Uniform random points to index (default 1000000; 20000 with --quick).")
    var points: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Timed queries per operation and engine (default 1000; 100 with --quick); with --db, a queries file (CSV) runs that file's queries instead.",
        valueName: "count|file"))
    var queries: String?

    @Option(name: .customLong("db"), help: ArgumentHelp("Benchmark this store's own data (see above) instead of the seeded datasets.", valueName: "path"))
    var db: String?

    @Option(parsing: .unconditional, help: "With --db: threads querying at once, 1 to 256.")
    var threads: Int = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("With --db: run each operation this many seconds, cycling through its queries (default: each query once).", valueName: "seconds"))
    var duration: Double?

    @Option(parsing: .unconditional, help: "Seed of the uniform points, the queries and the containment circles (default: 42).", transform: OptionRange.unsigned)
    var seed: UInt64 = 42

    @Option(help: "The GeoNames places file (CSV with latitude and longitude columns, gzip or plain).")
    var places: String = "Data/geonames-cities500.csv.gz"

    @Option(help: "Which datasets to run.")
    var dataset: DatasetChoice = .both

    @Option(help: "Comma-separated engines; the first is the reference the others must agree with.")
    var engines: String = BenchEngineName.allCases.map(\.rawValue).joined(separator: ",")

    @Option(help: "Comma-separated operations (default all): \(BenchOperationKind.all.map(\.name).joined(separator: ",")).")
    var ops: String?

    @Option(help: "Distance model of radius, nearest and containment queries: wgs84 or sphere.")
    var model: String = DistanceModel.wgs84.rawValue

    @Option(help: "Report format.")
    var format: Format = .text

    @Flag(help: "A small fast run: 20000 uniform points, 20000 of the places, 100 queries per operation.")
    var quick = false

    @Flag(help: "Run the clustering workload instead: hierarchy build, a 1024x768 viewport at zooms 0-16, grid mode, a move, an insert and a remove.")
    var clusters = false

    @Flag(help: "Run the polygon workload instead: which of --polygon-count seeded polygons around the places contain a point, Cairn against GEOS's STRtree and prepared geometries.")
    var polygons = false

    @Option(name: .customLong("polygon-count"), parsing: .unconditional, help: "With --polygons: polygons to generate (default 100000; 10000 with --quick).")
    var polygonCount: Int?

    func validate() throws {
        if let points { try OptionRange.check("--points", points, in: 1...Int(UInt32.max)) }
        _ = try queryCount()
        try OptionRange.check("--threads", threads, in: 1...256)
        if let duration { try OptionRange.checkPositive("--duration", duration) }
        if db == nil {
            if queryFile != nil { throw ValidationError("--queries \(queries ?? ""): a queries file needs --db STORE (a number of queries otherwise)") }
            if threads != 1 || duration != nil { throw ValidationError("--threads and --duration need --db STORE") }
        } else if clusters || points != nil || polygons {
            throw ValidationError("--db benchmarks the store's own features: --clusters, --polygons and --points do not apply")
        }
        if clusters && polygons { throw ValidationError("--clusters and --polygons are two workloads: choose one") }
        if let polygonCount {
            guard polygons else { throw ValidationError("--polygon-count needs --polygons") }
            try OptionRange.check("--polygon-count", polygonCount, in: 1...10_000_000)
        }
        _ = try engineNames()
        _ = try operationKinds()
        guard DistanceModel(rawValue: model) != nil else { throw ValidationError("--model must be wgs84 or sphere, not \(model).") }
    }

    /// `--queries` as a number of queries, when it is one.
    func queryCount() throws -> Int? {
        guard let queries, let count = Int(queries) else { return nil }
        try OptionRange.check("--queries", count, atLeast: 1)
        return count
    }

    /// `--queries` as a queries file, when it is not a number.
    var queryFile: String? {
        guard let queries, Int(queries) == nil else { return nil }
        return queries
    }

    func engineNames() throws -> [BenchEngineName] {
        let names = try engines.split(separator: ",").map { text in
            let name = text.trimmingCharacters(in: .whitespaces)
            guard let engine = BenchEngineName(rawValue: name) else {
                throw ValidationError("unknown engine \(name); choose from \(BenchEngineName.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return engine
        }
        guard !names.isEmpty else { throw ValidationError("--engines needs at least one engine.") }
        return names
    }

    func operationKinds() throws -> [BenchOperationKind] {
        guard let ops else { return BenchOperationKind.all }
        let wanted = try ops.split(separator: ",").map { text in
            let name = text.trimmingCharacters(in: .whitespaces)
            guard let kind = BenchOperationKind.all.first(where: { $0.name == name }) else {
                throw ValidationError("unknown operation \(name); choose from \(BenchOperationKind.all.map(\.name).joined(separator: ", ")).")
            }
            return kind
        }
        return BenchOperationKind.all.filter(wanted.contains)
    }

    func run() throws {
        if let db {
            try runStore(db)
            return
        }
        let queries = try queryCount()
        var configuration = BenchConfiguration()
        configuration.engines = try engineNames()
        configuration.operations = try operationKinds()
        configuration.seed = seed
        configuration.model = DistanceModel(rawValue: model) ?? .wgs84
        configuration.queriesPerOperation = queries ?? (quick ? 100 : 1_000)
        configuration.warmupQueries = quick ? 20 : 100
        let uniformCount = points ?? (quick ? 20_000 : 1_000_000)
        var datasets: [BenchDatasetSource] = []
        if dataset != .places { datasets.append(.uniform(count: uniformCount)) }
        if dataset != .uniform {
            if dataset == .both, !FileManager.default.isReadableFile(atPath: places) {
                FileHandle.standardError.write(Data("cairn bench: no places file at \(places); running the uniform dataset only (pass --places PATH)\n".utf8))
            } else {
                datasets.append(.places(path: places, limit: quick ? 20_000 : nil))
            }
        }
        configuration.datasets = datasets

        if polygons {
            try runPolygons(datasets: datasets, queries: queries)
            return
        }

        if clusters {
            var rows: [ClusterBench.Row] = []
            for source in datasets {
                rows += ClusterBench.run(try source.load(seed: seed), queries: queries ?? (quick ? 50 : 500), seed: seed)
            }
            print(format == .json ? ClusterBench.json(rows) : ClusterBench.text(rows))
            return
        }

        let terminal = isatty(STDERR_FILENO) == 1
        let report = try BenchRunner.run(configuration) { message in
            // On a terminal, one overwritten status line; elsewhere (logs, CI) nothing.
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K\(message)".utf8)) }
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }

        switch format {
        case .json: print(report.json())
        case .text: print(report.text())
        }
        if !report.mismatches.isEmpty {
            if format == .json {
                for mismatch in report.mismatches { FileHandle.standardError.write(Data("cairn bench: \(mismatch)\n".utf8)) }
            }
            throw ExitCode(1)
        }
    }
}
