// The workloads of `cairn bench` on Cairn alone, for regression tracking with ordo-one/benchmark: the same
// 1,000,000 seeded uniform points and the same queries as `cairn bench --seed 42` (CairnBench makes both):
// boxes of about 100 results, WGS84 radius 150 km, nearest 20, and the index build; and clustering as
// `cairn bench --clusters` runs it (the hierarchy build with supercluster's defaults, 1024x768-pixel viewports at
// zoom 6, the busiest, and exact grid clustering of viewports at zoom 4). Each query iteration runs 1,000 queries
// (scaling factor kilo), so the reported times are per query. Run: `swift package benchmark` in this folder.
import Benchmark
import CairnBench
import CairnCore

/// The seeded data and queries, built once on first use from CairnBench's dataset and workload.
struct Workload: Sendable {
    static let pointCount = 1_000_000
    static let queryCount = 1_000
    static let seed: UInt64 = 42

    let points: [Coordinate]
    let index: PointIndex
    /// The box-100 queries.
    let boxes: [BoundingBox]
    /// The radius-150km queries' centres.
    let radiusCenters: [Coordinate]
    /// The nearest-20 queries' origins.
    let nearestOrigins: [Coordinate]

    static let shared = Workload()

    init() {
        points = BenchDataset.uniform(count: Workload.pointCount, seed: Workload.seed).points
        index = PointIndex(points)
        let workload = BenchWorkload.make(
            points: points, calibration: index, queriesPerOperation: Workload.queryCount, seed: Workload.seed,
            kinds: [.box(targetResults: 100), .radius(meters: 150_000), .nearest(count: 20)])
        var boxes: [BoundingBox] = [], radiusCenters: [Coordinate] = [], nearestOrigins: [Coordinate] = []
        for (kind, queries) in workload.operations {
            switch (kind, queries) {
            case (.box, .boxes(let found)): boxes = found
            case (.radius, .centers(let found)): radiusCenters = found
            case (.nearest, .centers(let found)): nearestOrigins = found
            default: break
            }
        }
        self.boxes = boxes
        self.radiusCenters = radiusCenters
        self.nearestOrigins = nearestOrigins
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal, .peakMemoryResident],
        timeUnits: .nanoseconds,
        warmupIterations: 2,
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 1_000
    )

    Benchmark("build 1M points", configuration: .init(timeUnits: .milliseconds, scalingFactor: .one, maxIterations: 10)) { benchmark in
        let points = Workload.shared.points
        benchmark.startMeasurement()
        blackHole(PointIndex(points))
    }

    Benchmark("box-100") { benchmark in
        let workload = Workload.shared
        var results: [Int] = []
        results.reserveCapacity(4_096)
        benchmark.startMeasurement()
        for query in benchmark.scaledIterations {
            results.removeAll(keepingCapacity: true)
            blackHole(workload.index.search(in: workload.boxes[query % workload.boxes.count], into: &results))
        }
    }

    Benchmark("radius-150km") { benchmark in
        let workload = Workload.shared
        var results: [Int] = []
        results.reserveCapacity(4_096)
        benchmark.startMeasurement()
        for query in benchmark.scaledIterations {
            results.removeAll(keepingCapacity: true)
            blackHole(workload.index.within(radiusMeters: 150_000, of: workload.radiusCenters[query % workload.radiusCenters.count],
                                            into: &results))
        }
    }

    Benchmark("cluster build 1M points", configuration: .init(timeUnits: .milliseconds, scalingFactor: .one, maxIterations: 10)) { benchmark in
        let points = Workload.shared.points
        benchmark.startMeasurement()
        blackHole(ClusterIndex(coordinates: points))
    }

    Benchmark("clusters-z6") { benchmark in
        let workload = ClusterWorkload.shared
        benchmark.startMeasurement()
        for query in benchmark.scaledIterations {
            blackHole(workload.index.clusters(in: workload.viewportsZoom6[query % workload.viewportsZoom6.count].box, zoom: 6))
        }
    }

    var serial = GridClusterOptions.standard
    serial.parallel = false
    for (name, options) in [("grid-z4", GridClusterOptions.standard), ("grid-z4-1-thread", serial)] {
        Benchmark(name, configuration: .init(timeUnits: .microseconds, scalingFactor: .kilo, maxDuration: .seconds(30), maxIterations: 5)) { benchmark in
            let workload = ClusterWorkload.shared
            benchmark.startMeasurement()
            for query in benchmark.scaledIterations {
                blackHole(workload.index.gridClusters(in: workload.gridViewportsZoom4[query % workload.gridViewportsZoom4.count], options: options))
            }
        }
    }

    Benchmark("nearest-20") { benchmark in
        let workload = Workload.shared
        var results: [Neighbor] = []
        results.reserveCapacity(64)
        var scratch = NearestScratch()
        benchmark.startMeasurement()
        for query in benchmark.scaledIterations {
            results.removeAll(keepingCapacity: true)
            blackHole(workload.index.nearest(to: workload.nearestOrigins[query % workload.nearestOrigins.count], count: 20,
                                             into: &results, scratch: &scratch))
        }
    }
}

/// The clustering workload: the hierarchy over the same points, and viewports around seeded points (drawn
/// as `cairn bench --clusters` draws them).
struct ClusterWorkload: Sendable {
    let index: ClusterIndex
    let viewportsZoom6: [Viewport]
    let gridViewportsZoom4: [Viewport]

    static let shared = ClusterWorkload()

    init() {
        let points = Workload.shared.points
        index = ClusterIndex(coordinates: points)
        var random = SeededRandom(seed: Workload.seed &+ 0xC1_05_7E)
        viewportsZoom6 = ClusterBench.viewports(around: points, zoom: 6, count: Workload.queryCount, random: &random)
        gridViewportsZoom4 = ClusterBench.viewports(around: points, zoom: 4, count: Workload.queryCount, random: &random)
    }
}
