import Foundation
import Testing
@testable import CairnCore

/// Batches of edits (`ClusterIndex.apply` with two or more edits) are planned and applied in the numbering of the
/// batch's start and renumbered once at its end (`ClusterEditBatch`, `ClusterHierarchy.applyInBatch`,
/// `finishBatch`). Checked here: the batch's bookkeeping against a plain array model, and random batches of the
/// served mix (remove-and-insert pairs, often near the end, plain inserts, removes and moves, duplicates) against a
/// fresh build after every batch: every table, the tree, queries and aggregates.
@Suite("ClusterIndex batches of edits")
struct ClusterBatchEditTests {
    @Test("a batch's numbers follow input positions as a plain array of numbers does", arguments: [1, 2, 3])
    func numbering(seed: UInt64) {
        var random = ClusterRandom(seed: seed)
        for _ in 0..<50 {
            let start = random.below(40)
            let reserved = random.below(20)
            let points = ClusterPoints(coordinates: random.clumpedCoordinates(start), options: .standard)
            var batch = ClusterEditBatch(points: points, reserved: reserved, clusterRows: 0)
            // The model: the numbers of the points in input order.
            var model = Array(0..<start)
            var next = start
            for _ in 0..<60 {
                switch random.below(3) {
                case 0 where next < start + reserved:
                    #expect(batch.append(random.clumpedCoordinates(1)[0], numbers: [], category: nil) == next)
                    model.append(next)
                    next += 1
                case 1 where !model.isEmpty:
                    let i = random.below(model.count)
                    #expect(batch.number(ofPosition: i) == model[i])
                    batch.remove(number: model.remove(at: i))
                default:
                    break
                }
                #expect(batch.count == model.count)
                for (i, number) in model.enumerated() { #expect(batch.number(ofPosition: i) == number) }
                #expect(batch.removed == (0..<next).filter { !model.contains($0) })
            }
        }
    }

    @Test("a batch's points (coordinates, positions, numbers, category codes) equal the same edits applied one by one")
    func points() throws {
        var random = ClusterRandom(seed: 5)
        let options = try ClusterOptions(numericAttributes: ["rating", "size"], categoryAttribute: "sport")
        let sports = ["football", "tennis", "padel", "golf"]
        func feature(_ i: Int) throws -> Feature {
            var attributes: [String: AttributeValue] = ["rating": .number(Double(random.below(50)) / 10)]
            if random.below(3) != 0 { attributes["sport"] = .string(sports[random.below(sports.count)]) }
            return try Feature(id: "f\(i)", kind: .place, location: random.clumpedCoordinates(1)[0], attributes: attributes)
        }
        for round in 0..<20 {
            let start = try (0..<random.below(30)).map { try feature($0) }
            var expected = ClusterPoints(features: start, options: options)
            let inserts = random.below(12)
            var batch = ClusterEditBatch(points: expected, reserved: inserts, clusterRows: 0)
            var positions = expected.positions + repeatElement(ClusterPosition(x: 0, y: 0), count: inserts)
            var appended = 0
            for step in 0..<40 {
                switch random.below(3) {
                case 0 where appended < inserts:
                    // A feature, or a bare coordinate (no values: NaN for each attribute, no category).
                    let f = try feature(100 + step)
                    let v: (numbers: [Double], category: String?) = random.below(3) == 0 ? ([], nil) : ClusterPoints.values(of: f, options: options)
                    let number = batch.append(f.location, numbers: v.numbers, category: v.category)
                    positions[number] = ClusterPoints.position(of: f.location, precision: options.precision)
                    expected.append(f.location, numbers: v.numbers, category: v.category)
                    appended += 1
                case 1 where expected.count > 0:
                    let i = random.below(expected.count)
                    batch.remove(number: batch.number(ofPosition: i))
                    expected.remove(at: i)
                case 2 where expected.count > 0:
                    let i = random.below(expected.count)
                    let to = random.clumpedCoordinates(1)[0]
                    let number = batch.number(ofPosition: i)
                    batch.move(number: number, to: to)
                    positions[number] = ClusterPoints.position(of: to, precision: options.precision)
                    expected.move(at: i, to: to)
                default:
                    break
                }
            }
            let finished = ClusterPoints(features: start, options: options).finishing(batch, positions: positions)
            #expect(finished.coordinates == expected.coordinates, "round \(round)")
            #expect(finished.positions == expected.positions, "round \(round)")
            #expect(finished.numbers.map(\.bitPattern) == expected.numbers.map(\.bitPattern), "round \(round)")
            #expect(finished.categories == expected.categories, "round \(round)")
            #expect(finished.categoryNames == expected.categoryNames, "round \(round)")
        }
    }

    typealias Layout = ClusterIncrementalEditTests.Layout

    /// A point of the layout (as the single-edit tests draw them).
    func coordinate(_ layout: Layout, _ random: inout ClusterRandom) -> Coordinate {
        ClusterIncrementalEditTests().coordinate(layout, &random)
    }

    /// A feature at `location` with a rating and (mostly) a sport (as the spliced-edit tests make them).
    func feature(_ id: Int, at location: Coordinate, _ random: inout ClusterRandom) throws -> Feature {
        try ClusterSpliceTests().feature(id, at: location, &random)
    }

    /// Expects the index's tables to equal those of a fresh build over `points`.
    func expectRebuilt(_ index: ClusterIndex, _ points: [Coordinate], _ label: String) {
        let problems = ClusterIncrementalEditTests().differences(index.hierarchy, ClusterIndex(coordinates: points, options: index.options).hierarchy)
        #expect(problems.isEmpty, "\(label): \(problems)")
    }

    /// One random batch of `size` edits of the served mix, mirrored on `features`.
    func batch(size: Int, layout: Layout, features: inout [Feature], next id: inout Int, _ random: inout ClusterRandom) throws -> [ClusterEdit] {
        var edits: [ClusterEdit] = []
        while edits.count < size {
            let n = features.count
            id += 1
            let kind = n > 0 ? random.below(10) : 4
            switch kind {
            case 0...3:
                // An edited feature: removed, then appended a little (or far) away.
                let i = random.below(2) == 0 ? n - 1 - random.below(min(n, 10)) : random.below(n)
                let to = random.below(4) == 0 ? coordinate(layout, &random)
                    : try destination(from: features[i].location, bearingDegrees: random.uniform(0, 360),
                                      distanceMeters: [5.0, 200, 3_000][random.below(3)])
                let f = try feature(id, at: to, &random)
                features.remove(at: i)
                features.append(f)
                edits += [.remove(at: i), .insertFeature(f)]
            case 4, 5:
                let f = try feature(id, at: coordinate(layout, &random), &random)
                features.append(f)
                edits.append(.insertFeature(f))
            case 6:
                // A duplicate of a place: a group of identical points forms or grows.
                let f = try feature(id, at: features[random.below(n)].location, &random)
                features.append(f)
                edits.append(.insertFeature(f))
            case 7, 8:
                let i = random.below(n)
                features.remove(at: i)
                edits.append(.remove(at: i))
            default:
                let i = random.below(n)
                let to = random.below(2) == 0 ? features[random.below(n)].location : coordinate(layout, &random)
                features[i] = try Feature(id: features[i].id, kind: .place, location: to, attributes: features[i].attributes)
                edits.append(.move(at: i, to: to))
            }
        }
        return edits
    }

    /// Random batches (sizes 2 to 200) on one index; after each, every table equals a fresh build's, and every few
    /// batches every query and the aggregates do. `overlayLimit` small rebuilds the tree within batches;
    /// `buildDuration` stands for the last build's time, so that a batch that outlasts it goes on by rebuilding.
    func run(seed: UInt64, layout: Layout, aggregates: Bool, overlayLimit: Int?, count: Int, batches: Int,
             buildDuration: Duration? = nil) throws {
        var random = ClusterRandom(seed: seed)
        let options = try ClusterSpliceTests().options(aggregates: aggregates)
        var features = try (0..<count).map { try feature($0, at: coordinate(layout, &random), &random) }
        var index = ClusterIndex(features: features, options: options)
        var id = count
        for step in 0..<batches {
            if let limit = overlayLimit { index.hierarchy.tree.overlayLimit = limit }
            let size = [2, 3, 8, 40, 80, 200][random.below(6)]
            let edits = try batch(size: size, layout: layout, features: &features, next: &id, &random)
            if let buildDuration { index.lastBuildDuration = buildDuration }
            try index.apply(edits)
            let label = "seed \(seed) batch \(step) of \(size)"
            // A batch past its time rebuilt, and measured that build.
            if let buildDuration, buildDuration == .nanoseconds(1) { #expect(index.lastBuildDuration != buildDuration, "\(label)") }
            guard try ClusterSpliceTests().expectRebuilt(index, features, queries: step % 4 == 3, &random, label) else { return }
            #expect(index.points.coordinates == features.map(\.location), "\(label)")
        }
    }

    @Test("clumped places with duplicates: batches of the served mix equal a rebuild", arguments: [31, 32, 33])
    func clumped(seed: UInt64) throws {
        try run(seed: seed, layout: .clumped, aggregates: false, overlayLimit: nil, count: 400, batches: 12)
    }

    @Test("with aggregates (numbers and categories): batches equal a rebuild", arguments: [34, 35])
    func withAggregates(seed: UInt64) throws {
        try run(seed: seed, layout: .clumped, aggregates: true, overlayLimit: nil, count: 300, batches: 10)
    }

    @Test("across the antimeridian and over the world: batches equal a rebuild", arguments: [(UInt64(36), Layout.antimeridian), (37, .uniform)])
    func spread(seed: UInt64, layout: Layout) throws {
        try run(seed: seed, layout: layout, aggregates: seed == 36, overlayLimit: nil, count: 300, batches: 10)
    }

    @Test("a tiny overlay, rebuilt within batches: batches still equal a rebuild", arguments: [38, 39])
    func overlayRebuiltWithinBatches(seed: UInt64) throws {
        try run(seed: seed, layout: .clumped, aggregates: false, overlayLimit: 1, count: 300, batches: 10)
    }

    @Test("a batch that outlasts a build goes on by rebuilding: batches still equal a rebuild",
          arguments: [(UInt64(40), Duration.nanoseconds(1)), (41, .microseconds(300))])
    func outOfTime(seed: UInt64, buildDuration: Duration) throws {
        try run(seed: seed, layout: .clumped, aggregates: seed == 40, overlayLimit: nil, count: 300, batches: 10, buildDuration: buildDuration)
    }

    /// Seeded clumped points and their index (maxZoom 16).
    func start(seed: UInt64, count: Int) throws -> (ClusterRandom, [Coordinate], ClusterIndex) {
        var random = ClusterRandom(seed: seed)
        let points = random.clumpedCoordinates(count)
        return (random, points, ClusterIndex(coordinates: points, options: try ClusterOptions(maxZoom: 16)))
    }

    @Test("a batch that empties the index, then one that fills it again, equals a rebuild")
    func drainAndRefill() throws {
        var (random, points, index) = try start(seed: 40, count: 50)
        var edits: [ClusterEdit] = []
        while !points.isEmpty {
            let i = random.below(points.count)
            points.remove(at: i)
            edits.append(.remove(at: i))
        }
        try index.apply(edits)
        expectRebuilt(index, points, "drained")
        points = random.clumpedCoordinates(50)
        try index.apply(points.map { .insert($0) })
        expectRebuilt(index, points, "refilled")
    }

    @Test("a batch failing at a position out of range keeps the edits before it, unused reserved numbers dropped")
    func failingBatch() throws {
        var (random, points, index) = try start(seed: 41, count: 80)
        let added = random.clumpedCoordinates(3)
        let edits: [ClusterEdit] = [.remove(at: 79), .insert(added[0]), .move(at: 3, to: added[1]), .remove(at: 80), .insert(added[2])]
        #expect(throws: ClusterError.pointOutOfRange(80, count: 80)) { try index.apply(edits) }
        points.remove(at: 79)
        points.append(added[0])
        points[3] = added[1]
        expectRebuilt(index, points, "after the failing batch")
    }
}
