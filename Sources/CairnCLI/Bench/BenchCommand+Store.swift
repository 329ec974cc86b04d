import ArgumentParser
import CairnBench
import CairnCore
import CairnStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension BenchCommand {
    /// `cairn bench --db STORE`: prints the store bench's report; exits with status 1 when a queries file had bad
    /// lines (after running its good ones and printing the report), so that a script notices.
    func runStore(_ path: String) throws {
        let terminal = isatty(STDERR_FILENO) == 1
        let report = try storeReport(path) { message in
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K\(message)".utf8)) }
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        print(format == .json ? report.json() : report.text())
        if report.rejectedLines > 0 { throw ExitCode(1) }
    }

    /// Loads the store's index (its snapshot when current, as the query commands do), draws or reads the queries and
    /// runs them. A queries file's bad lines are printed on stderr, one per line, as they are found.
    func storeReport(_ path: String, progress: (String) -> Void = { _ in }) throws -> StoreBenchReport {
        guard access(path, F_OK) == 0 else {
            throw CLIError("no store at '\(path)'; import data first (cairn import FILE --db \(path)) or pass --db PATH")
        }
        progress("loading \(path)")
        let index = try StoreIndex(store: try FeatureStore(path: path)).current().index
        var configuration = StoreBenchConfiguration()
        configuration.threads = threads
        configuration.durationSeconds = duration
        configuration.model = DistanceModel(rawValue: model) ?? .wgs84
        configuration.warmupQueries = quick ? 20 : 100
        let operations: [StoreOperation], notes: [String], source: String, rejected: Int
        if let queryFile {
            let file = try StoreQueryFile.read(path: queryFile)
            for problem in file.problems { Terminal.printError("cairn bench: \(problem)") }
            operations = file.operations
            rejected = file.problems.count
            notes = rejected == 0 ? [] : ["\(rejected) line\(rejected == 1 ? "" : "s") of \(queryFile) refused (see stderr); the others ran"]
            source = "\(queryFile), \(file.operations.reduce(0) { $0 + $1.queries.count }) queries"
        } else {
            let count = try queryCount() ?? (quick ? 100 : 1_000)
            progress("drawing \(count) queries per operation from \(index.count) features")
            (operations, notes) = StoreWorkload.make(index: index, queriesPerOperation: count, seed: seed, kinds: try operationKinds())
            rejected = 0
            source = "\(count) per operation drawn from the store's features (seed \(seed))"
        }
        let rows = StoreBench.run(index: index, operations: operations, configuration: configuration, progress: progress)
        return StoreBenchReport(store: path, features: index.count, querySource: source, configuration: configuration,
                                rows: rows, notes: notes, rejectedLines: rejected)
    }
}
