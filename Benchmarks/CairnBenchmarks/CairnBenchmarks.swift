// The workloads of `cairn bench` on Cairn alone, for regression tracking with ordo-one/benchmark:
// 1,000,000 seeded uniform points (the same points as `cairn bench --seed 42`), boxes of about 100 results,
// WGS84 radius 150 km, nearest 20, and the index build; and clustering as `cairn bench --clusters` runs it (the
// hierarchy build with supercluster's defaults, 1024x768-pixel viewports at zoom 6, the busiest, and exact grid
// clustering of viewports at zoom 4). Each query iteration runs 1,000 queries (scaling factor kilo), so the reported
// times are per query. Run: `swift package benchmark` in this folder.
import Benchmark
import CairnCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seeded data and queries, built once on first use.
struct Workload: Sendable {
    static let pointCount = 1_000_000
    static let queryCount = 1_000
    static let seed: UInt64 = 42

    let points: [Coordinate]
    let index: PointIndex
    let boxes: [BoundingBox]
    let centers: [Coordinate]

    static let shared = Workload()

    init() {
        var random = SeededRandom(seed: Workload.seed)
        var points: [Coordinate] = []
        points.reserveCapacity(Workload.pointCount)
        while points.count < Workload.pointCount {
            let longitude = random.uniform(-180...180)
            let latitude = random.uniform(-90...90)
            if let point = try? Coordinate(latitude: latitude, longitude: longitude) { points.append(point) }
        }
        let index = PointIndex(points)
        var queries = SeededRandom(seed: Workload.seed &+ 0xBE7C)
        var buffer: [Int] = []
        var boxes: [BoundingBox] = []
        var centers: [Coordinate] = []
        for _ in 0..<Workload.queryCount {
            let center = points[queries.below(points.count)]
            centers.append(center)
            boxes.append(Workload.box(around: center, targetResults: 100, index: index, buffer: &buffer))
        }
        self.points = points
        self.index = index
        self.boxes = boxes
        self.centers = centers
    }

    /// A box around `center`, square on the ground, whose size is bisected until it holds about `target` points.
    static func box(around center: Coordinate, targetResults target: Int, index: PointIndex, buffer: inout [Int]) -> BoundingBox {
        func box(_ h: Double) -> BoundingBox {
            let halfWidth = min(h / max(cos(center.latitude * .pi / 180), 1e-3), 180)
            var west = center.longitude - halfWidth, east = center.longitude + halfWidth
            if halfWidth >= 180 { (west, east) = (-180, 180) }
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
            return (try? BoundingBox(west: west, south: max(-90, center.latitude - h), east: east,
                                     north: min(90, center.latitude + h))) ?? .world
        }
        func count(_ h: Double) -> Int {
            buffer.removeAll(keepingCapacity: true)
            index.search(in: box(h), into: &buffer)
            return buffer.count
        }
        var best = (h: 180.0, miss: Int.max)
        func consider(_ h: Double, _ found: Int) {
            if abs(found - target) < best.miss { best = (h, abs(found - target)) }
        }
        // Double the half-height until the box holds enough, then bisect.
        var low = 0.0, high = 1e-3
        var found = count(high)
        consider(high, found)
        while found < target, high < 180 {
            low = high
            high *= 2
            found = count(high)
            consider(high, found)
        }
        for _ in 0..<40 where best.miss > 0 {
            let middle = (low + high) / 2
            found = count(middle)
            consider(middle, found)
            if found < target { low = middle } else { high = middle }
        }
        return box(best.h)
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
            blackHole(workload.index.within(radiusMeters: 150_000, of: workload.centers[query % workload.centers.count],
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
            blackHole(workload.index.nearest(to: workload.centers[query % workload.centers.count], count: 20,
                                             into: &results, scratch: &scratch))
        }
    }
}

/// The clustering workload: the hierarchy over the same points, and viewports around seeded points.
struct ClusterWorkload: Sendable {
    let index: ClusterIndex
    let viewportsZoom6: [Viewport]
    let gridViewportsZoom4: [Viewport]

    static let shared = ClusterWorkload()

    init() {
        let points = Workload.shared.points
        index = ClusterIndex(coordinates: points)
        var random = SeededRandom(seed: Workload.seed &+ 0xC1_05_7E)
        viewportsZoom6 = (0..<Workload.queryCount).compactMap { _ in Self.viewport(around: points[random.below(points.count)], zoom: 6) }
        gridViewportsZoom4 = (0..<Workload.queryCount).compactMap { _ in Self.viewport(around: points[random.below(points.count)], zoom: 4) }
    }

    /// 1024x768 pixels of 256-pixel tiles at `zoom` around `center` (as `cairn bench --clusters` shows them).
    static func viewport(around center: Coordinate, zoom: Int) -> Viewport? {
        try? Viewport(center: center, zoom: Double(zoom), widthPixels: 1024, heightPixels: 768)
    }
}
