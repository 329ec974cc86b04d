import CairnCore
import CairnTestSupport
import Testing
@testable import CairnBench

/// The clustering workload: every row measured, viewports as a map shows them.
@Suite struct ClusterBenchTests {
    @Test func everyZoomAndEachEditAreMeasured() throws {
        let data = BenchDataset.uniform(count: 3_000, seed: 5)
        let rows = ClusterBench.run(data, queries: 5, seed: 5)
        #expect(rows.map(\.operation) == ["cluster-build"] + (0...16).map { "clusters-z\($0)" } + ["grid-z4", "grid-z10", "grid-z4-1-thread", "cluster-move-1", "cluster-insert-1", "cluster-remove-1", "cluster-remove-mid-1"]
                + ClusterBench.roundSizes.map { "cluster-round-\($0)" })
        #expect(rows.allSatisfy { $0.stats.p50Microseconds > 0 })
        let json = ClusterBench.json(rows)
        for key in ["\"op\":", "\"engine\":\"cairn\"", "\"p50_us\":", "\"p99_us\":", "\"qps\":"] { #expect(json.contains(key)) }
    }

    /// A served round holds `size` edits whose positions are within the points at their turn, and leaves the mirror
    /// equal to the points after it.
    @Test func servedRoundsMirrorTheirPoints() throws {
        var random = SeededRandom(seed: 6)
        var points = BenchDataset.uniform(count: 500, seed: 6).points
        var index = ClusterIndex(coordinates: points)
        for size in [1, 2, 80] {
            let edits = ClusterBench.servedRound(size: size, points: &points, random: &random)
            #expect(edits.count == size)
            try index.apply(edits)
            #expect((0..<index.count).map { index.coordinate(ofPoint: $0) } == points)
        }
    }

    @Test func viewportsSpan1024By768PixelsAndWrapTheAntimeridian() throws {
        let view = ClusterBench.viewport(around: try Coordinate(latitude: 0, longitude: 179.9), zoom: 10)
        let box = view.box
        #expect(box.crossesAntimeridian && view.widthPixels == 1024 && view.heightPixels == 768)
        let width = (box.east + 360 - box.west) / 360 * 1024 * 256
        #expect(abs(width - 1024) < 1e-6)
        let world = ClusterBench.viewport(around: try Coordinate(latitude: 10, longitude: 10), zoom: 0).box
        #expect(world.west == -180 && world.east == 180) // 1024 px at zoom 0 is wider than the world
    }
}
