import ArgumentParser
import CairnBench
import CairnCore
import Foundation

extension BenchCommand {
    /// `cairn bench --polygons`: the polygon workload around the first dataset's points (the places, or the uniform
    /// points with `--dataset uniform` or without a places file); exits with status 1 when the engines disagree.
    func runPolygons(datasets: [BenchDatasetSource], queries: Int?) throws {
        // The places when there are any: polygons are spread like the towns; otherwise the uniform points.
        let source = datasets.last ?? .uniform(count: points ?? (quick ? 20_000 : 1_000_000))
        let terminal = isatty(STDERR_FILENO) == 1
        let report = try PolygonBench.run(
            towns: try source.load(seed: seed), polygons: polygonCount ?? (quick ? 10_000 : 100_000),
            queryCount: queries ?? (quick ? 1_000 : 100_000), warmup: quick ? 100 : 1_000, seed: seed
        ) { message in
            if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K\(message)".utf8)) }
        }
        if terminal { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        print(format == .json ? PolygonBench.json(report) : PolygonBench.text(report))
        if report.mismatchCount > 0 {
            if format == .json {
                for mismatch in report.mismatches { FileHandle.standardError.write(Data("cairn bench: \(mismatch)\n".utf8)) }
            }
            throw ExitCode(1)
        }
    }
}
