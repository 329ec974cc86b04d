import Foundation
import Testing
@testable import CairnCore

/// Incremental edits against rebuilds: after every single edit the index's tables (entries, ids, children, zoom
/// ranges, the query tree's item order) must be exactly those of a fresh build over the same points in the same order
/// (after in-place moves, which leave entries in the tree's overlay, the entries the tree finds at each zoom as sets).
@Suite("ClusterIndex incremental edits")
struct ClusterIncrementalEditTests {
    /// Table differences between two hierarchies (doubles compared bit for bit); empty when identical.
    func differences(_ a: ClusterHierarchy, _ b: ClusterHierarchy) -> [String] {
        func bits(_ v: [Double]) -> [UInt64] { v.map(\.bitPattern) }
        var result: [String] = []
        if a.leafCount != b.leafCount { result.append("leafCount") }
        if bits(a.leafPositions.map(\.x)) != bits(b.leafPositions.map(\.x)) || bits(a.leafPositions.map(\.y)) != bits(b.leafPositions.map(\.y)) { result.append("leaf positions") }
        if bits(a.clusters.map(\.x)) != bits(b.clusters.map(\.x)) || bits(a.clusters.map(\.y)) != bits(b.clusters.map(\.y)) {
            result.append("cluster positions")
        }
        if a.clusters.map(\.extent) != b.clusters.map(\.extent) { result.append("cluster extents") }
        if a.clusters.map(\.weight) != b.clusters.map(\.weight) { result.append("weight") }
        if a.topZoom != b.topZoom { result.append("topZoom") }
        if a.lowZoom != b.lowZoom { result.append("lowZoom") }
        if a.parent != b.parent { result.append("parent") }
        if a.clusters.map(\.origin) != b.clusters.map(\.origin) { result.append("origin") }
        if a.byOrigin != b.byOrigin { result.append("byOrigin") }
        if a.clusters.map(\.childEnd) != b.clusters.map(\.childEnd) || a.children != b.children { result.append("children") }
        if a.clustersAtZoom.map({ $0.isEmpty ? 0..<0 : $0 }) != b.clustersAtZoom.map({ $0.isEmpty ? 0..<0 : $0 }) {
            result.append("clustersAtZoom")
        }
        if a.tree.isEdited || b.tree.isEdited {
            // In-place moves left entries in the tree's overlay: its order is no longer a rebuild's, so compare what
            // it finds over the whole world at every zoom, as sets (each entry once).
            for zoom in 0..<32 {
                var found: [[Int]] = [[], []]
                for (k, h) in [a, b].enumerated() {
                    h.tree.search(x: UnitXRanges(0, 1), y0: -1, y1: 2, zoom: zoom, hierarchy: h) { found[k].append($0) }
                }
                if found[0].sorted() != found[1].sorted() { result.append("tree entries at zoom \(zoom)") }
            }
        } else if a.tree.canonicalItems() != b.tree.canonicalItems() {
            result.append("tree order")
        }
        return result
    }

    enum Layout { case clumped, uniform, antimeridian, nearRadius }

    func coordinate(_ layout: Layout, _ random: inout ClusterRandom) -> Coordinate {
        switch layout {
        case .clumped:
            return random.clumpedCoordinates(1)[0]
        case .uniform:
            return Coordinate(uncheckedLatitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
        case .antimeridian:
            // Within a few degrees of 180 on both sides, 180 itself included.
            let lon = random.below(8) == 0 ? 180 : random.uniform(-3, 3) + 180
            return Coordinate(uncheckedLatitude: random.uniform(-2, 2), longitude: lon > 180 ? lon - 360 : lon)
        case .nearRadius:
            // An 8×8 lattice one zoom-16 radius apart, jittered by 2 %: neighbours sit within a float32 step of
            // the radius, where the rounding decides.
            let r = ClusterOptions.standard.unitRadius(zoom: 16)
            return WebMercator.coordinate(x: 0.5 + r * (Double(random.below(8)) + random.uniform(-0.02, 0.02)),
                                          y: 0.4 + r * (Double(random.below(8)) + random.uniform(-0.02, 0.02)))
        }
    }

    /// Many random single edits (appends, appends of an existing location, removals, moves, moves onto an
    /// existing location); after each, the tables equal a rebuild's.
    func run(seed: UInt64, layout: Layout, options: ClusterOptions, count: Int, edits: Int) throws {
        var random = ClusterRandom(seed: seed)
        var points = (0..<count).map { _ in coordinate(layout, &random) }
        // Some exact duplicates from the start.
        for _ in 0..<(count / 10) { points[random.below(points.count)] = points[random.below(points.count)] }
        var index = ClusterIndex(coordinates: points, options: options)
        for step in 0..<edits {
            switch random.below(5) {
            case 0:
                let p = coordinate(layout, &random)
                points.append(p)
                index.insert(p)
            case 1:
                let p = points[random.below(points.count)]
                points.append(p)
                index.insert(p)
            case 2 where points.count > 1:
                let i = random.below(points.count)
                points.remove(at: i)
                try index.remove(at: i)
            case 3:
                let i = random.below(points.count)
                let p = points[random.below(points.count)]
                points[i] = p
                try index.move(at: i, to: p)
            default:
                let i = random.below(points.count)
                let p = coordinate(layout, &random)
                points[i] = p
                try index.move(at: i, to: p)
            }
            let rebuilt = ClusterIndex(coordinates: points, options: options)
            let problems = differences(index.hierarchy, rebuilt.hierarchy)
            #expect(problems.isEmpty, "seed \(seed) step \(step): \(problems)")
            if !problems.isEmpty { return }
            if step % 16 == 0 {
                for zoom in [options.minZoom, options.maxZoom / 2, options.maxZoom + 1] {
                    // As sets: in-place moves leave the order unspecified.
                    #expect(Set(index.clusters(in: .world, zoom: zoom)) == Set(rebuilt.clusters(in: .world, zoom: zoom)))
                }
            }
        }
    }

    @Test("clumped points with duplicates, minPoints 2: single edits equal a rebuild", arguments: [1, 2, 3])
    func clumped(seed: UInt64) throws {
        try run(seed: seed, layout: .clumped, options: try ClusterOptions(maxZoom: 18), count: 300, edits: 120)
    }

    @Test("minPoints 1: single edits equal a rebuild")
    func minPointsOne() throws {
        try run(seed: 7, layout: .clumped, options: try ClusterOptions(maxZoom: 18, minPoints: 1), count: 300, edits: 100)
    }

    @Test("minPoints 3 (rebuilt on each edit): single edits equal a rebuild")
    func minPointsThree() throws {
        try run(seed: 8, layout: .clumped, options: try ClusterOptions(maxZoom: 18, minPoints: 3), count: 200, edits: 40)
    }

    @Test("uniform points over the world, default options: single edits equal a rebuild")
    func uniform() throws {
        try run(seed: 9, layout: .uniform, options: .standard, count: 2000, edits: 80)
    }

    @Test("points across the antimeridian, large radius, wrapped or not: single edits equal a rebuild",
          arguments: [(4, true), (5, true), (6, false)])
    func antimeridian(seed: UInt64, wraps: Bool) throws {
        try run(seed: seed, layout: .antimeridian,
                options: try ClusterOptions(radiusPixels: 60, minZoom: 2, maxZoom: 12, wrapsAntimeridian: wraps), count: 400, edits: 100)
    }

    @Test("points a radius apart, where float32 rounding decides: single edits equal a rebuild",
          arguments: [ClusterPrecision.float32, .float64])
    func nearRadius(precision: ClusterPrecision) throws {
        try run(seed: 11, layout: .nearRadius, options: try ClusterOptions(precision: precision), count: 60, edits: 100)
    }

    @Test("editing down to no points and back up equals a rebuild")
    func emptyAndBack() throws {
        var random = ClusterRandom(seed: 10)
        var points = random.clumpedCoordinates(20)
        let options = try ClusterOptions(maxZoom: 18)
        var index = ClusterIndex(coordinates: points, options: options)
        while !points.isEmpty {
            let i = random.below(points.count)
            points.remove(at: i)
            try index.remove(at: i)
            #expect(differences(index.hierarchy, ClusterIndex(coordinates: points, options: options).hierarchy).isEmpty)
        }
        for p in random.clumpedCoordinates(20) {
            points.append(p)
            index.insert(p)
            #expect(differences(index.hierarchy, ClusterIndex(coordinates: points, options: options).hierarchy).isEmpty)
        }
        #expect(throws: ClusterError.pointOutOfRange(20, count: 20)) { try index.move(at: 20, to: points[0]) }
    }

    @Test("feature edits keep aggregates equal to a rebuild's; a failing batch keeps its earlier edits")
    func features() throws {
        var random = ClusterRandom(seed: 11)
        let sports = ["football", "tennis", "padel"]
        func feature(_ i: Int) throws -> Feature {
            var attributes: [String: AttributeValue] = ["rating": .number(Double(random.below(50)) / 10)]
            if random.below(3) != 0 { attributes["category"] = .string(sports[random.below(sports.count)]) }
            return try Feature(id: "f\(i)", kind: .place, location: random.clumpedCoordinates(1)[0], attributes: attributes)
        }
        var features = try (0..<150).map { try feature($0) }
        let options = try ClusterOptions(maxZoom: 18, numericAttributes: ["rating"], categoryAttribute: "category")
        var index = ClusterIndex(features: features, options: options)
        for step in 0..<40 {
            if random.below(2) == 0 {
                let f = try feature(1000 + step)
                features.append(f)
                index.insert(f)
            } else {
                let i = random.below(features.count)
                features.remove(at: i)
                try index.remove(at: i)
            }
            let rebuilt = ClusterIndex(features: features, options: options)
            #expect(differences(index.hierarchy, rebuilt.hierarchy).isEmpty, "step \(step)")
            for zoom in [0, 9, 19] {
                let nodes = index.clusters(in: .world, zoom: zoom)
                // As sets: spliced edits leave the order unspecified.
                #expect(Set(nodes) == Set(rebuilt.clusters(in: .world, zoom: zoom)))
                for node in nodes { #expect(try index.aggregates(of: node) == rebuilt.aggregates(of: node)) }
            }
        }
        let f = try feature(5000)
        #expect(throws: ClusterError.pointOutOfRange(999, count: features.count + 1)) {
            try index.apply([.insertFeature(f), .remove(at: 999), .remove(at: 0)])
        }
        features.append(f)
        #expect(differences(index.hierarchy, ClusterIndex(features: features, options: options).hierarchy).isEmpty)
    }

    @Test("a batch past the incremental limit (one rebuild) and one within it give the same tables as a rebuild")
    func batches() throws {
        var random = ClusterRandom(seed: 12)
        var points = random.clumpedCoordinates(200)
        let options = try ClusterOptions(maxZoom: 18)
        var index = ClusterIndex(coordinates: points, options: options)
        for size in [ClusterIndex.incrementalBatchLimit + 4, 3, ClusterIndex.incrementalBatchLimit] {
            var batch: [ClusterEdit] = []
            for _ in 0..<size {
                if random.below(2) == 0 {
                    let p = random.clumpedCoordinates(1)[0]
                    points.append(p)
                    batch.append(.insert(p))
                } else {
                    let i = random.below(points.count)
                    points.remove(at: i)
                    batch.append(.remove(at: i))
                }
            }
            try index.apply(batch)
            #expect(differences(index.hierarchy, ClusterIndex(coordinates: points, options: options).hierarchy).isEmpty, "batch of \(size)")
        }
    }
}
