import Foundation
import Testing
@testable import CairnCore

@Suite("ClusterIndex edge cases, aggregates and edits")
struct ClusterIndexTests {
    func c(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(uncheckedLatitude: lat, longitude: lon) }

    @Test("empty and one point")
    func emptyAndOne() throws {
        let empty = ClusterIndex(coordinates: [])
        #expect(empty.clusters(in: .world, zoom: 0).isEmpty)
        #expect(empty.tile(z: 0, x: 0, y: 0).isEmpty)
        let one = ClusterIndex(coordinates: [c(60, 25)])
        for zoom in [-3, 0, 7, 16, 17, 40] {
            #expect(one.clusters(in: .world, zoom: zoom).map(\.content) == [.point(0)])
        }
        #expect(one.clusterCount == 0)
    }

    @Test("identical points never split: one cluster at every zoom, expansion says so, leaves list them all")
    func identical() throws {
        let points = Array(repeating: c(60.17, 24.94), count: 25) + [c(-10, -10)]
        let index = ClusterIndex(coordinates: points)
        for zoom in [0, 5, 16, 17, 24, 99] {
            let found = index.clusters(in: .world, zoom: zoom)
            #expect(found.count == 2)
            let cluster = try #require(found.first { $0.clusterID != nil })
            #expect(cluster.pointCount == 25)
            // At the points' own coordinate, exactly (not at the inverse of its float32 projection).
            #expect(cluster.coordinate == c(60.17, 24.94))
            let id = try #require(cluster.clusterID)
            #expect(try index.expansionZoom(of: id) == .identicalPoints)
            #expect(try index.leaves(of: id, limit: 100) == Array(0..<25))
        }
        // With minPoints above the group's size the group still stays together.
        let strict = ClusterIndex(coordinates: Array(points.prefix(3)), options: try ClusterOptions(minPoints: 10))
        #expect(strict.clusters(in: .world, zoom: 20).map(\.pointCount) == [3])
        // Points beyond the Mercator limit at one longitude project to the same spot: they cluster at every zoom
        // built, but they are different places, so above it they show apart; the same place twice stays together.
        let polar = ClusterIndex(coordinates: [c(90, 10), c(89.9, 10), c(-90, 0), c(-86, 0), c(-86, 0)])
        #expect(polar.clusters(in: .world, zoom: 16).map(\.pointCount).sorted() == [2, 3])
        #expect(polar.clusters(in: .world, zoom: 24).map(\.pointCount).sorted() == [1, 1, 1, 2])
    }

    @Test("points at 179.99 and -179.99 cluster, with the centroid on the antimeridian; boxes across it find them")
    func antimeridian() throws {
        let index = ClusterIndex(coordinates: [c(10, 179.99), c(10, -179.99), c(10, 180), c(10, -180)])
        let atZero = index.clusters(in: .world, zoom: 0)
        #expect(atZero.count == 1)
        let cluster = try #require(atZero.first)
        #expect(cluster.pointCount == 4)
        #expect(abs(abs(cluster.coordinate.longitude) - 180) < 1e-5) // float32 positions: a step is 2e-5 degrees
        let across = try BoundingBox(west: 179, south: 0, east: -179, north: 20)
        #expect(index.clusters(in: across, zoom: 0).count == 1)
        #expect(index.clusters(in: try BoundingBox(west: 170, south: 0, east: 175, north: 20), zoom: 0).isEmpty)
        // 180 and -180 are identical: a group at the highest zoom; 179.99 and -179.99 stay apart there.
        #expect(index.clusters(in: .world, zoom: 20).map(\.pointCount).sorted() == [1, 1, 2])
        #expect(index.clusters(in: try BoundingBox(west: -180, south: 0, east: -179.995, north: 20), zoom: 20).map(\.pointCount) == [2])
        // Without wrapping, as supercluster: the two sides never meet (180 and -180 are still one place).
        let split = ClusterIndex(coordinates: [c(10, 179.99), c(10, -179.99), c(10, 180), c(10, -180)],
                                 options: try ClusterOptions(wrapsAntimeridian: false))
        #expect(split.clusters(in: .world, zoom: 0).map(\.pointCount).sorted() == [1, 3])
    }

    @Test("aggregates: sums, extremes, means and category counts equal brute force over the leaves")
    func aggregates() throws {
        var random = ClusterRandom(seed: 3)
        let sports = ["football", "tennis", "padel", "running"]
        let features = try random.clumpedCoordinates(300).enumerated().map { i, location -> Feature in
            var attributes: [String: AttributeValue] = [:]
            if random.below(5) != 0 { attributes["rating"] = .number(Double(random.below(50)) / 10) }
            if random.below(4) != 0 { attributes["category"] = .string(sports[random.below(sports.count)]) }
            return try Feature(id: "f\(i)", kind: .place, location: location, attributes: attributes)
        }
        let options = try ClusterOptions(numericAttributes: ["rating", "missing"], categoryAttribute: "category")
        let index = ClusterIndex(features: features, options: options)
        for zoom in [0, 4, 10, 17] {
            for node in index.clusters(in: .world, zoom: zoom) {
                let leaves = try node.clusterID.map { try index.leaves(of: $0, limit: .max) } ?? [node.pointIndex ?? -1]
                let a = try index.aggregates(of: node)
                #expect(a.pointCount == leaves.count)
                let ratings = leaves.compactMap { i -> Double? in
                    if case .number(let v) = features[i].attributes["rating"] { return v }
                    return nil
                }
                let summary = try #require(a.numeric["rating"])
                #expect(summary.count == ratings.count)
                #expect(abs(summary.sum - ratings.reduce(0, +)) < 1e-9)
                #expect(summary.min == ratings.min() && summary.max == ratings.max())
                #expect(a.numeric["missing"]?.count == 0 && a.numeric["missing"]?.mean == nil)
                var counts: [String: Int] = [:]
                for i in leaves { if let s = features[i].attributes["category"] { counts[s.description, default: 0] += 1 } }
                #expect(a.categories == counts)
            }
        }
    }

    @Test("inserts, removals and moves equal a rebuild over the same points in the same order", arguments: [11, 12, 13])
    func editsEqualRebuild(seed: UInt64) throws {
        var random = ClusterRandom(seed: seed)
        var points = random.clumpedCoordinates(200)
        let options = try ClusterOptions(maxZoom: 18, minPoints: seed == 12 ? 3 : 2)
        var index = ClusterIndex(coordinates: points, options: options)
        for step in 0..<30 {
            var batch: [ClusterEdit] = []
            for _ in 0..<(1 + random.below(3)) {
                switch random.below(3) {
                case 0:
                    let p = random.below(3) == 0 ? points[random.below(points.count)] : random.clumpedCoordinates(1)[0]
                    points.append(p)
                    batch.append(.insert(p))
                case 1:
                    let i = random.below(points.count)
                    points.remove(at: i)
                    batch.append(.remove(at: i))
                default:
                    let i = random.below(points.count)
                    let p = random.clumpedCoordinates(1)[0]
                    points[i] = p
                    batch.append(.move(at: i, to: p))
                }
            }
            try index.apply(batch)
            let rebuilt = ClusterIndex(coordinates: points, options: options)
            for zoom in [0, 3, 8, 13, 18, 19] {
                let a = try index.oracleShaped(zoom: zoom), b = try rebuilt.oracleShaped(zoom: zoom)
                #expect(clusterDifferences(a, Array(b.values), tolerance: 0).isEmpty, "step \(step) zoom \(zoom)")
            }
        }
        #expect(throws: ClusterError.pointOutOfRange(10_000, count: points.count)) { try index.remove(at: 10_000) }
    }

    @Test("cluster ids decode to zoom and origin and survive a round trip through their raw value")
    func ids() throws {
        let id = ClusterID(zoom: 24, origin: Int(UInt32.max))
        #expect(id.zoom == 24 && id.origin == Int(UInt32.max))
        #expect(ClusterID(rawValue: id.rawValue) == id)
        #expect(id.rawValue < 1 << 53)
        #expect(ClusterID(rawValue: 26) == nil)
        #expect(throws: ClusterOptionsError.self) { try ClusterOptions(maxZoom: 25) }
        #expect(throws: ClusterOptionsError.self) { try ClusterOptions(radiusPixels: 0) }
    }
}

extension Double {
    func isApproximately(_ other: Double, tolerance: Double = 1e-9) -> Bool { abs(self - other) <= tolerance }
}

@Suite("ClusterFilterCache")
struct ClusterFilterCacheTests {
    @Test("a filtered clustering equals a build over the passing features, and is kept for the same filter")
    func filtered() throws {
        var random = ClusterRandom(seed: 77)
        let kinds: [FeatureKind] = [.park, .place, .trailhead]
        let features = try random.clumpedCoordinates(250).enumerated().map { i, c in
            try Feature(id: "f\(i)", kind: kinds[i % 3], location: c, attributes: ["rating": .number(Double(i % 5))])
        }
        let options = try ClusterOptions(numericAttributes: ["rating"])
        let cache = ClusterFilterCache(features: features, options: options, capacity: 2)
        let filters = [FeatureFilter(kinds: [.park]),
                       FeatureFilter(predicates: [try AttributePredicate(parsing: "rating>=3")]),
                       FeatureFilter.all]
        for filter in filters {
            let filtered = cache.clusters(matching: filter)
            let passing = features.indices.filter { filter.matches(features[$0]) }
            #expect(filtered.sourceIndices == passing)
            let direct = ClusterIndex(features: passing.map { features[$0] }, options: options)
            for zoom in [0, 5, 10, 17] {
                #expect(clusterDifferences(try filtered.index.oracleShaped(zoom: zoom), Array(try direct.oracleShaped(zoom: zoom).values), tolerance: 0).isEmpty)
                for node in filtered.index.clusters(in: .world, zoom: zoom) {
                    #expect(try filtered.index.aggregates(of: node) == (try direct.aggregates(of: node)))
                }
            }
        }
        #expect(cache.keptCount == 2)
        let again = cache.clusters(matching: filters[2])
        #expect(again.sourceIndices.count == features.count)
    }
}
