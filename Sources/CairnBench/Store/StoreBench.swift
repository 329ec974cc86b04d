import CairnCore
import Foundation

/// `cairn bench --db`: the store's own queries through the index the query commands use (`FeatureIndex`, its
/// allocating calls as an application makes them), on one thread or several sharing the index.
///
/// Each thread takes every `threads`-th query of an operation (so one run answers each query once whatever the
/// thread count, and the results add up to the same total), runs a few untimed, then times each of its queries
/// into its own latency histogram; the histograms are merged. With a duration every thread cycles through its
/// share until the time is up.
public enum StoreBench {
    /// Runs `operations` on `index`.
    /// - Parameter progress: told what starts, for a terminal (stderr); not part of the report.
    /// - Complexity: O(operations · queries · query) spread over the threads (or the duration per operation).
    public static func run(
        index: FeatureIndex, operations: [StoreOperation], configuration: StoreBenchConfiguration,
        progress: (String) -> Void = { _ in }
    ) -> [StoreBenchRow] {
        operations.map { operation in
            progress("\(operation.name): \(operation.queries.count) queries on \(configuration.threads) thread\(configuration.threads == 1 ? "" : "s")")
            return run(operation, on: index, configuration)
        }
    }

    /// Runs one operation on every thread and merges what they measured.
    static func run(_ operation: StoreOperation, on index: FeatureIndex, _ configuration: StoreBenchConfiguration) -> StoreBenchRow {
        let threads = max(1, configuration.threads)
        let tallies = StoreThreadTallies()
        let done = DispatchGroup()
        let begin = monotonicNanoseconds()
        for thread in 0..<threads {
            done.enter()
            // Threads of their own (not a pool): `--threads 8` on two cores is 8 threads contending, as 8 clients would.
            let worker = Thread {
                tallies.append(runShare(thread, of: threads, operation, index, configuration))
                done.leave()
            }
            worker.stackSize = 1 << 20
            worker.start()
        }
        done.wait()
        let wallSeconds = Double(monotonicNanoseconds() - begin) / 1e9
        var merged = StoreThreadTally()
        for tally in tallies.all {
            merged.latency.add(tally.latency)
            merged.queries += tally.queries
            merged.results += tally.results
        }
        return StoreBenchRow(operation: operation.name, distinctQueries: operation.queries.count, queries: merged.queries,
                             results: merged.results, latency: merged.latency, wallSeconds: wallSeconds)
    }

    /// One thread's part: queries `thread`, `thread + threads`, … of the operation.
    static func runShare(
        _ thread: Int, of threads: Int, _ operation: StoreOperation, _ index: FeatureIndex, _ configuration: StoreBenchConfiguration
    ) -> StoreThreadTally {
        let share = Array(stride(from: thread, to: operation.queries.count, by: threads))
        var tally = StoreThreadTally()
        guard !share.isEmpty else { return tally }
        var scratch = NearestScratch()
        let model = configuration.model
        for position in share.prefix(max(0, configuration.warmupQueries)) {
            _ = answer(operation.queries[position], index, model, &scratch)
        }
        let deadline = configuration.durationSeconds.map { monotonicNanoseconds() &+ UInt64(max(0, $0) * 1e9) }
        var next = 0
        while true {
            let query = operation.queries[share[next]]
            let start = monotonicNanoseconds()
            let found = answer(query, index, model, &scratch)
            let end = monotonicNanoseconds()
            tally.latency.record(nanoseconds: end &- start)
            tally.queries += 1
            tally.results += found
            next += 1
            if let deadline {
                if end >= deadline { break }
                if next == share.count { next = 0 }
            } else if next == share.count {
                break
            }
        }
        return tally
    }

    /// Asks `query` of `index` as the query commands do and returns how many results it gave.
    /// - Complexity: the query's.
    @inline(__always)
    static func answer(_ query: StoreQuery, _ index: FeatureIndex, _ model: DistanceModel, _ scratch: inout NearestScratch) -> Int {
        var stats = QueryStats()
        switch query {
        case .box(let box):
            return index.search(in: box, stats: &stats).count
        case .radius(let center, let meters):
            return index.within(radiusMeters: meters, of: center, model: model, stats: &stats).count
        case .nearest(let point, let count):
            return index.nearest(to: point, count: count, model: model, scratch: &scratch, stats: &stats).count
        case .containing(let point):
            return index.containing(point, model: model, stats: &stats).count
        }
    }
}
