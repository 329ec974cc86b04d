import CairnCore

/// Runs the workload through every engine, timing each query and checking that all engines agree.
public enum BenchRunner {
    /// Runs the bench.
    /// - Parameter progress: told what starts, for a terminal (stderr); not part of the report.
    /// - Throws: `BenchError` when a dataset cannot be read or an engine cannot start.
    /// - Complexity: O(engines · (build + operations · queries · query)).
    public static func run(_ configuration: BenchConfiguration, progress: (String) -> Void = { _ in }) throws -> BenchReport {
        let start = monotonicNanoseconds()
        var rows: [BenchRow] = []
        var mismatches: [BenchMismatch] = []
        var datasets: [(name: String, points: Int)] = []
        var summaries: [String] = []
        for source in configuration.datasets {
            switch source {
            case .uniform(let count): progress("generating \(count) uniform points")
            case .places(let path, _): progress("reading \(path)")
            case .points: break
            }
            let dataset = try source.load(seed: configuration.seed)
            datasets.append((dataset.name, dataset.points.count))
            let engines = try configuration.engines.map { try $0.makeEngine() } + configuration.extraEngines.map { $0() }
            if summaries.isEmpty { summaries = engines.map { "\($0.name): \($0.summary)" } }
            try run(dataset, engines, configuration, rows: &rows, mismatches: &mismatches, progress: progress)
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        return BenchReport(configuration: configuration, engineSummaries: summaries, datasets: datasets, rows: rows, mismatches: mismatches, seconds: seconds)
    }

    private static func run(
        _ dataset: BenchDataset, _ engines: [any BenchEngine], _ configuration: BenchConfiguration,
        rows: inout [BenchRow], mismatches: inout [BenchMismatch], progress: (String) -> Void
    ) throws {
        let points = dataset.points

        for engine in engines {
            progress("\(dataset.name): building \(engine.name) over \(points.count) points")
            let heapBefore = heapBytesInUse()
            let reportedBefore = engine.reportedMemoryBytes
            let begin = monotonicNanoseconds()
            try engine.build(points: points)
            let nanoseconds = monotonicNanoseconds() - begin
            let heapAfter = heapBytesInUse()
            let perPoint = { (bytes: Int) in points.isEmpty ? 0 : Double(bytes) / Double(points.count) }
            let reported = engine.reportedMemoryBytes.map { $0 - (reportedBefore ?? 0) }
            rows.append(BenchRow(
                dataset: dataset.name, operation: "build", engine: engine.name,
                stats: LatencyStats(singleMicroseconds: Double(nanoseconds) / 1_000), meanResults: 0,
                bytesPerPoint: heapBefore.flatMap { before in heapAfter.map { perPoint($0 - before) } },
                reportedBytesPerPoint: reported.map(perPoint), verified: true))
        }

        let calibration = (engines.first { $0 is CairnEngine } as? CairnEngine)?.index ?? PointIndex(points)
        progress("\(dataset.name): generating \(configuration.queriesPerOperation) queries per operation")
        let workload = BenchWorkload.make(points: points, calibration: calibration,
                                          queriesPerOperation: configuration.queriesPerOperation,
                                          seed: configuration.seed, kinds: configuration.operations)
        var containmentEngines: Set<String> = []
        if configuration.operations.contains(.containment) {
            for engine in engines {
                progress("\(dataset.name): building \(engine.name) over \(workload.circles.count) circles")
                if try engine.buildCircles(workload.circles, model: configuration.model) { containmentEngines.insert(engine.name) }
            }
        }

        for (kind, queries) in workload.operations {
            let participants = kind == .containment ? engines.filter { containmentEngines.contains($0.name) } : engines
            var measured: [(engine: any BenchEngine, timing: Timing)] = []
            for engine in participants {
                progress("\(dataset.name): \(kind.name) on \(engine.name)")
                measured.append((engine, time(kind, queries, on: engine, configuration)))
            }
            var disagreeing: Set<String> = []
            if let reference = measured.first {
                for other in measured.dropFirst() {
                    let digests = (reference.timing.digests, other.timing.digests)
                    guard let index = digests.0.indices.first(where: { digests.0[$0] != digests.1[$0] }) else { continue }
                    disagreeing.insert(other.engine.name)
                    mismatches.append(BenchMismatch(
                        dataset: dataset.name, operation: kind.name, queryIndex: index, engine: other.engine.name,
                        reference: reference.engine.name,
                        detail: describeDifference(kind, queries, index, reference.engine, other.engine, configuration.model)))
                }
            }
            for (engine, timing) in measured {
                rows.append(BenchRow(
                    dataset: dataset.name, operation: kind.name, engine: engine.name,
                    stats: LatencyStats(nanoseconds: timing.samples),
                    meanResults: timing.samples.isEmpty ? 0 : Double(timing.results) / Double(timing.samples.count),
                    bytesPerPoint: nil, reportedBytesPerPoint: nil, verified: !disagreeing.contains(engine.name)))
            }
        }
    }

    /// One operation's samples (nanoseconds), answer digests and total result count on one engine.
    struct Timing {
        var samples: [UInt64] = []
        var digests: [UInt64] = []
        var results = 0
    }

    /// Times every query of one operation on one engine, after an untimed warm-up.
    private static func time(
        _ kind: BenchOperationKind, _ queries: BenchQueries, on engine: any BenchEngine, _ configuration: BenchConfiguration
    ) -> Timing {
        let model = configuration.model
        switch (kind, queries) {
        case (.box, .boxes(let boxes)):
            return timeItems(boxes.count, configuration.warmupQueries) { engine.search(in: boxes[$0], into: &$1) }
        case (.radius(let meters), .centers(let centers)):
            return timeItems(centers.count, configuration.warmupQueries) {
                engine.within(radiusMeters: meters, of: centers[$0], model: model, into: &$1)
            }
        case (.containment, .centers(let points)):
            return timeItems(points.count, configuration.warmupQueries) { engine.containing(points[$0], model: model, into: &$1) }
        case (.nearest(let count), .centers(let points)):
            var buffer: [Neighbor] = []
            buffer.reserveCapacity(count)
            var timing = Timing()
            for query in 0..<min(configuration.warmupQueries, points.count) {
                buffer.removeAll(keepingCapacity: true)
                engine.nearest(to: points[query], count: count, model: model, into: &buffer)
            }
            timing.samples.reserveCapacity(points.count)
            for query in points.indices {
                buffer.removeAll(keepingCapacity: true)
                let begin = monotonicNanoseconds()
                engine.nearest(to: points[query], count: count, model: model, into: &buffer)
                let end = monotonicNanoseconds()
                timing.samples.append(end - begin)
                timing.results += buffer.count
                timing.digests.append(digest(buffer))
            }
            return timing
        default:
            return Timing()
        }
    }

    /// Times `count` item queries; each answer is sorted (untimed) and digested.
    private static func timeItems(_ count: Int, _ warmup: Int, _ query: (Int, inout [Int]) -> Void) -> Timing {
        var buffer: [Int] = []
        buffer.reserveCapacity(1 << 14)
        for index in 0..<min(warmup, count) {
            buffer.removeAll(keepingCapacity: true)
            query(index, &buffer)
        }
        var timing = Timing()
        timing.samples.reserveCapacity(count)
        for index in 0..<count {
            buffer.removeAll(keepingCapacity: true)
            let begin = monotonicNanoseconds()
            query(index, &buffer)
            let end = monotonicNanoseconds()
            timing.samples.append(end - begin)
            timing.results += buffer.count
            buffer.sort()
            timing.digests.append(digest(buffer))
        }
        return timing
    }

    /// FNV-1a over the count and the items.
    static func digest(_ items: [Int]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100_0000_01B3 }
        mix(UInt64(items.count))
        for item in items { mix(UInt64(bitPattern: Int64(item))) }
        return hash
    }

    /// FNV-1a over the count and the distances' bits: nearest answers agree when their distance lists do
    /// (items at equal distances may differ between engines).
    static func digest(_ neighbors: [Neighbor]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        func mix(_ value: UInt64) { hash = (hash ^ value) &* 0x100_0000_01B3 }
        mix(UInt64(neighbors.count))
        for neighbor in neighbors { mix(neighbor.distanceMeters.bitPattern) }
        return hash
    }

    /// Runs one query again on two engines and says how their answers differ.
    static func describeDifference(
        _ kind: BenchOperationKind, _ queries: BenchQueries, _ index: Int,
        _ reference: any BenchEngine, _ other: any BenchEngine, _ model: DistanceModel
    ) -> String {
        func items(_ engine: any BenchEngine) -> [Int] {
            var results: [Int] = []
            switch (kind, queries) {
            case (.box, .boxes(let boxes)): engine.search(in: boxes[index], into: &results)
            case (.radius(let meters), .centers(let centers)):
                engine.within(radiusMeters: meters, of: centers[index], model: model, into: &results)
            case (.containment, .centers(let points)): engine.containing(points[index], model: model, into: &results)
            default: break
            }
            return results.sorted()
        }
        let query: String = switch queries {
        case .boxes(let boxes): "box \(boxes[index])"
        case .centers(let centers): "at \(centers[index])"
        }
        if case .nearest(let count) = kind, case .centers(let points) = queries {
            var expected: [Neighbor] = [], found: [Neighbor] = []
            reference.nearest(to: points[index], count: count, model: model, into: &expected)
            other.nearest(to: points[index], count: count, model: model, into: &found)
            let shorter = min(expected.count, found.count)
            let position = (0..<shorter).first { expected[$0].distanceMeters != found[$0].distanceMeters } ?? shorter
            let show = { (list: [Neighbor]) in position < list.count ? "\(list[position])" : "nothing" }
            return "\(query): \(found.count) neighbours against \(expected.count); first difference at rank \(position + 1): "
                + "\(show(found)) against \(show(expected))"
        }
        let expected = Set(items(reference)), found = Set(items(other))
        let extra = found.subtracting(expected).sorted().prefix(5), missing = expected.subtracting(found).sorted().prefix(5)
        return "\(query): \(found.count) items against \(expected.count); extra \(Array(extra)), missing \(Array(missing))"
    }
}
