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

    @Option(parsing: .unconditional, help: "Timed queries per operation and engine (default 1000; 100 with --quick).")
    var queries: Int?

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

    func validate() throws {
        if let points { try OptionRange.check("--points", points, in: 1...Int(UInt32.max)) }
        if let queries { try OptionRange.check("--queries", queries, atLeast: 1) }
        _ = try engineNames()
        _ = try operationKinds()
        guard DistanceModel(rawValue: model) != nil else { throw ValidationError("--model must be wgs84 or sphere, not \(model).") }
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
