import Foundation
import Testing
@testable import CairnCore

/// Inserts, removes and layout-changing moves rewrite the tables by splicing rows in and out and renumbering the
/// entries stored in them and in the query tree (`ClusterSplice`, `ClusterHierarchy.applySpliced`). Checked here:
/// the splice itself against a naive rebuild of a table, and long random sequences of edits without a rebuild in
/// between against a fresh build after every edit (every table, the tree's entries at every zoom, viewports, tiles
/// and grid clusters, aggregates).
@Suite("ClusterIndex edits spliced into the tables")
struct ClusterSpliceTests {
    /// Random changes over `count` rows, in row order: (position, inserted, deleted).
    func randomChanges(count: Int, _ random: inout ClusterRandom) -> [ClusterSplice.Change] {
        var changes: [ClusterSplice.Change] = []
        var cursor = 0
        while cursor <= count, random.below(4) != 0 {
            let position = cursor + random.below(max(1, (count - cursor) / 3 + 1))
            guard position <= count else { break }
            let inserted = random.below(3)
            let deleted = min(count - position, random.below(3))
            if inserted + deleted == 0 { continue }
            changes.append(.init(position: position, inserted: inserted, deleted: deleted))
            cursor = position + deleted
            if deleted == 0, random.below(2) == 0 { cursor += 1 } // at most one change per position without a deletion
        }
        return changes
    }

    @Test("a splice moves rows and renumbers stored rows as a naive rebuild of the table does", arguments: [1, 2, 3, 4])
    func spliceAgainstNaive(seed: UInt64) {
        var random = ClusterRandom(seed: seed)
        for _ in 0..<200 {
            let count = [0, 1, 5, 255, 256, 257, 700, 1500][random.below(8)]
            let changes = randomChanges(count: count, &random)
            let splice = ClusterSplice(oldCount: count, changes: changes)
            // The naive result: old rows (as their numbers) and inserted rows (-1), and each kept row's new number.
            var expected: [Int] = []
            var newRow = [Int](repeating: -1, count: count)
            var cursor = 0
            var insertedAt: [Int] = []
            for c in changes {
                for r in cursor..<c.position {
                    newRow[r] = expected.count
                    expected.append(r)
                }
                insertedAt.append(expected.count)
                expected.append(contentsOf: repeatElement(-1, count: c.inserted))
                cursor = c.position + c.deleted
            }
            for r in cursor..<count {
                newRow[r] = expected.count
                expected.append(r)
            }
            #expect(splice.newCount == expected.count)
            #expect(splice.insertedAt == insertedAt)
            var table = Array(0..<count)
            splice.apply(to: &table, filler: -1)
            #expect(table == expected, "count \(count) changes \(changes.map { ($0.position, $0.inserted, $0.deleted) })")
            var stored = (0..<count).filter { newRow[$0] >= 0 }.map { UInt32($0) } + [UInt32.max, UInt32(count)]
            splice.renumber(&stored)
            #expect(stored == (0..<count).filter { newRow[$0] >= 0 }.map { UInt32(newRow[$0]) } + [UInt32.max, UInt32(count)])
            for r in 0..<count where newRow[r] >= 0 { #expect(splice.newRow(r) == newRow[r]) }
        }
    }

    enum Layout: CaseIterable { case clumped, antimeridian }

    /// A point of the layout.
    func coordinate(_ layout: Layout, _ random: inout ClusterRandom) -> Coordinate {
        switch layout {
        case .clumped:
            return random.clumpedCoordinates(1)[0]
        case .antimeridian:
            let lon = random.below(8) == 0 ? 180 : random.uniform(-2, 2) + 180
            return Coordinate(uncheckedLatitude: random.uniform(-1, 1), longitude: lon > 180 ? lon - 360 : lon)
        }
    }

    /// A feature at `location` with a rating and (mostly) a sport.
    func feature(_ id: Int, at location: Coordinate, _ random: inout ClusterRandom) throws -> Feature {
        var attributes: [String: AttributeValue] = ["rating": .number(Double(random.below(50)) / 10)]
        if random.below(4) != 0 { attributes["sport"] = .string(["football", "tennis", "padel"][random.below(3)]) }
        return try Feature(id: "f\(id)", kind: .place, location: location, attributes: attributes)
    }

    /// A long random sequence of single edits (inserts, duplicates of existing locations, removals of the first,
    /// middle, last or any point, moves small and large and onto existing locations) with no rebuild in between;
    /// after every edit the tables equal a fresh build's, and every few edits every query does. Returns how many
    /// edits left the tree with its nodes (spliced, not rebuilt).
    @discardableResult
    func run(seed: UInt64, layout: Layout, aggregates: Bool, overlayLimit: Int?, count: Int, edits: Int) throws -> Int {
        var random = ClusterRandom(seed: seed)
        let options = try self.options(aggregates: aggregates)
        var features: [Feature] = []
        for i in 0..<count {
            // Some exact duplicates from the start.
            let location = !features.isEmpty && random.below(10) == 0
                ? features[random.below(features.count)].location : coordinate(layout, &random)
            features.append(try feature(i, at: location, &random))
        }
        var index = ClusterIndex(features: features, options: options)
        var kept = 0
        for step in 0..<edits {
            if let limit = overlayLimit { index.hierarchy.tree.overlayLimit = limit }
            let label: String
            let n = features.count
            switch random.below(9) {
            case 0, 1:
                let f = try feature(10_000 + step, at: coordinate(layout, &random), &random)
                features.append(f)
                index.insert(f)
                label = "insert"
            case 2:
                let f = try feature(10_000 + step, at: features[random.below(max(1, n))].location, &random)
                features.append(f)
                index.insert(f)
                label = "insert a duplicate"
            case 3 where n > 1:
                let i = [0, n / 2, n - 1, random.below(n)][random.below(4)]
                features.remove(at: i)
                try index.remove(at: i)
                label = "remove \(i) of \(n)"
            case 4 where n > 1:
                let i = random.below(n)
                features.remove(at: i)
                try index.remove(at: i)
                label = "remove \(i) of \(n)"
            case 5 where n > 0:
                let i = random.below(n)
                let to = features[random.below(n)].location
                features[i] = try Feature(id: features[i].id, kind: .place, location: to, attributes: features[i].attributes)
                try index.move(at: i, to: to)
                label = "move \(i) onto a point"
            case 6 where n > 0:
                let i = random.below(n)
                let to = try destination(from: features[i].location, bearingDegrees: random.uniform(0, 360),
                                         distanceMeters: [5.0, 100, 2_000, 50_000][random.below(4)])
                features[i] = try Feature(id: features[i].id, kind: .place, location: to, attributes: features[i].attributes)
                try index.move(at: i, to: to)
                label = "small move \(i)"
            default:
                guard n > 0 else { continue }
                let i = random.below(n)
                let to = coordinate(layout, &random)
                features[i] = try Feature(id: features[i].id, kind: .place, location: to, attributes: features[i].attributes)
                try index.move(at: i, to: to)
                label = "move \(i)"
            }
            if index.hierarchy.tree.isEdited { kept += 1 }
            guard try expectRebuilt(index, features, queries: step % 10 == 9, &random, "seed \(seed) step \(step) (\(label))") else { return kept }
        }
        return kept
    }

    /// The options of the sequences: maxZoom 16, with or without aggregates (a rating and a sport).
    func options(aggregates: Bool) throws -> ClusterOptions {
        aggregates ? try ClusterOptions(maxZoom: 16, numericAttributes: ["rating"], categoryAttribute: "sport") : try ClusterOptions(maxZoom: 16)
    }

    /// Expects the index to equal a fresh build over `features`: every table, and with `queries` every query
    /// (`ClusterMoveOverlayTests.expectSameQueries`) and the aggregates at zooms 0, 8 and 17. Returns whether the
    /// tables were equal.
    func expectRebuilt(_ index: ClusterIndex, _ features: [Feature], queries: Bool, _ random: inout ClusterRandom, _ label: String) throws -> Bool {
        let rebuilt = ClusterIndex(features: features, options: index.options)
        let problems = ClusterIncrementalEditTests().differences(index.hierarchy, rebuilt.hierarchy)
        #expect(problems.isEmpty, "\(label): \(problems)")
        guard problems.isEmpty, queries else { return problems.isEmpty }
        try ClusterMoveOverlayTests().expectSameQueries(index, rebuilt, &random, label)
        if index.hierarchy.aggregates.isActive {
            for zoom in [0, 8, 17] {
                for node in index.clusters(in: .world, zoom: zoom) {
                    #expect(try index.aggregates(of: node) == rebuilt.aggregates(of: node), "\(label) zoom \(zoom)")
                }
            }
        }
        return true
    }

    @Test("clumped points with duplicates, no aggregates: long edit sequences equal a rebuild after every edit", arguments: [21, 22, 23])
    func clumped(seed: UInt64) throws {
        let kept = try run(seed: seed, layout: .clumped, aggregates: false, overlayLimit: .max, count: 300, edits: 150)
        #expect(kept > 100) // the tree kept its nodes throughout: edits went through the overlay
    }

    @Test("with aggregates (numbers and categories): long edit sequences equal a rebuild after every edit", arguments: [24, 25])
    func withAggregates(seed: UInt64) throws {
        try run(seed: seed, layout: .clumped, aggregates: true, overlayLimit: nil, count: 250, edits: 120)
    }

    @Test("across the antimeridian: long edit sequences equal a rebuild after every edit", arguments: [26, 27])
    func antimeridian(seed: UInt64) throws {
        try run(seed: seed, layout: .antimeridian, aggregates: seed == 27, overlayLimit: nil, count: 250, edits: 120)
    }

    @Test("a tiny overlay overflows often (the tree rebuilt mid-sequence): edits still equal a rebuild")
    func overlayOverflow() throws {
        let kept = try run(seed: 28, layout: .clumped, aggregates: false, overlayLimit: 6, count: 250, edits: 120)
        #expect(kept < 120) // some edits overflowed the overlay and rebuilt the tree
    }

    @Test("removing the first, middle and last points down to none, then inserting back, equals a rebuild")
    func drainAndRefill() throws {
        var random = ClusterRandom(seed: 29)
        let options = try ClusterOptions(maxZoom: 16)
        var points = random.clumpedCoordinates(60)
        var index = ClusterIndex(coordinates: points, options: options)
        index.hierarchy.tree.overlayLimit = .max
        var step = 0
        while !points.isEmpty {
            let i = [0, points.count / 2, points.count - 1][step % 3]
            points.remove(at: i)
            try index.remove(at: i)
            let problems = ClusterIncrementalEditTests().differences(index.hierarchy, ClusterIndex(coordinates: points, options: options).hierarchy)
            #expect(problems.isEmpty, "remove \(i) at step \(step): \(problems)")
            step += 1
        }
        for p in random.clumpedCoordinates(40) + [Coordinate(uncheckedLatitude: 0, longitude: 180)] {
            points.append(p)
            index.insert(p)
            let problems = ClusterIncrementalEditTests().differences(index.hierarchy, ClusterIndex(coordinates: points, options: options).hierarchy)
            #expect(problems.isEmpty, "insert at step \(step): \(problems)")
            step += 1
        }
    }
}
