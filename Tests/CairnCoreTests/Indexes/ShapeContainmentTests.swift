import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `containing` with shapes, against a brute force over every feature (`Shape.covers` for polygons, the circle rule
/// for features without a shape, nothing for lines and points with a shape), through `FeatureIndex`, a mapped
/// snapshot and `DynamicFeatureIndex` under edits; and the extent tree against a brute force over its boxes.
@Suite struct ShapeContainmentTests {
    /// Seeded features: polygons and multipolygons (some with a radius, which their shape overrides), lines and
    /// multipoints with a radius, points with and without one; shapes near the antimeridian and the poles too.
    static func features(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        var features: [Feature] = []
        for number in 0..<count {
            let center: Coordinate
            switch random.below(8) {
            case 0: center = try Coordinate(latitude: random.uniform(-60...60), longitude: random.chance(0.5) ? 179.9 : -179.9)
            case 1: center = try Coordinate(latitude: random.chance(0.5) ? 89.9 : -89.9, longitude: random.uniform(-180...180))
            default: center = try Coordinate(latitude: random.uniform(59...61), longitude: random.uniform(24...26))
            }
            let kinds: [ShapeKind?] = [.polygon, .multiPolygon, .polygon, .lineString, .multiPoint, nil, nil]
            let kind = kinds[random.below(kinds.count)]
            let shape = try kind.map { try SyntheticShapes.shape($0, around: center, sizeDegrees: random.uniform(0.05...0.8), random: &random) }
            let radius: Double? = random.chance(0.6) ? random.uniform(100...40_000) : nil
            features.append(try Feature(id: "f\(number)", kind: .place, location: shape?.representativePoint ?? center,
                                        radiusMeters: radius, shape: shape))
        }
        return features
    }

    /// The brute-force answer: ids in the order `containing` promises.
    static func expected(_ features: [Feature], _ point: Coordinate) -> [String] {
        var polygons: [String] = [], circles: [(Double, Int, String)] = []
        for (position, feature) in features.enumerated() {
            if let shape = feature.shape {
                if shape.covers(point) { polygons.append(feature.id) }
            } else if let radius = feature.radiusMeters {
                let distance = distanceMeters(from: feature.location, to: point, model: .wgs84)
                if (try? Circle(center: feature.location, radiusMeters: radius))?.contains(point) == true {
                    circles.append((distance, position, feature.id))
                }
            }
        }
        return polygons + circles.sorted { ($0.0, $0.1) < ($1.0, $1.1) }.map(\.2)
    }

    /// Query points: random near the features, their shapes' vertices, the antimeridian and the poles.
    static func points(_ features: [Feature], seed: UInt64) throws -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        var points: [Coordinate] = []
        for _ in 0..<300 {
            let feature = features[random.below(features.count)]
            if let shape = feature.shape, random.chance(0.3) {
                points.append(shape.vertex(random.below(shape.vertexCount)))
            } else {
                points.append(try Coordinate(latitude: max(-90, min(90, feature.location.latitude + random.uniform(-0.3...0.3))),
                                             longitude: max(-180, min(180, feature.location.longitude + random.uniform(-0.3...0.3)))))
            }
        }
        for latitude in [-90.0, -89.95, 0, 30, 89.95, 90] {
            for longitude in [-180.0, -179.95, 0, 179.95, 180] { points.append(try Coordinate(latitude: latitude, longitude: longitude)) }
        }
        return points
    }

    @Test func featureIndexAndSnapshotMatchBruteForce() throws {
        let features = try ShapeContainmentTests.features(count: 400, seed: 1_919)
        let index = FeatureIndex(features)
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        var polygonHits = 0, circleHits = 0
        for point in try ShapeContainmentTests.points(features, seed: 2) {
            let expected = ShapeContainmentTests.expected(features, point)
            let hits = index.containing(point)
            #expect(hits.map { features[$0.item].id } == expected, "\(point)")
            #expect(mapped.containing(point) == hits, "\(point)")
            for hit in hits {
                if features[hit.item].shape == nil { circleHits += 1 } else {
                    polygonHits += 1
                    #expect(hit.distanceMeters == 0)
                }
            }
        }
        #expect(mapped.snapshotDamage == nil)
        #expect(polygonHits > 100 && circleHits > 100, "the data must exercise both: \(polygonHits) \(circleHits)")
    }

    /// `features` with every `step`-th one (from the first) a park, the rest places.
    static func parks(every step: Int, of features: [Feature]) throws -> [Feature] {
        try features.enumerated().map { position, feature in
            try Feature(id: feature.id, kind: position % step == 0 ? .park : .place, location: feature.location,
                        radiusMeters: feature.radiusMeters, shape: feature.shape)
        }
    }

    @Test func filtersApplyToShapes() throws {
        let features = try ShapeContainmentTests.parks(every: 2, of: ShapeContainmentTests.features(count: 200, seed: 5))
        let index = FeatureIndex(features)
        let parks = FeatureFilter(kinds: [.park])
        for point in try ShapeContainmentTests.points(features, seed: 6) {
            let expected = ShapeContainmentTests.expected(features, point).filter { Int($0.dropFirst())! % 2 == 0 }
            #expect(index.containing(point, filter: parks).map { features[$0.item].id } == expected)
        }
    }

    @Test func dynamicIndexMatchesAFreshIndexUnderEdits() throws {
        let features = try ShapeContainmentTests.features(count: 300, seed: 11)
        let more = try ShapeContainmentTests.features(count: 300, seed: 12)
        var live = DynamicFeatureIndex(Array(features.prefix(200)), compactionPolicy: .manual)
        var random = SplitMix64(seed: 13)
        let points = try ShapeContainmentTests.points(features, seed: 14)
        for round in 0..<6 {
            for _ in 0..<40 {
                switch random.below(3) {
                case 0: live.upsert(features[random.below(features.count)])
                case 1:
                    // A new shape (or none) under an existing id.
                    let source = more[random.below(more.count)]
                    live.upsert(try Feature(id: "f\(random.below(300))", kind: .place, location: source.location,
                                            radiusMeters: source.radiusMeters, shape: source.shape))
                default: live.remove(id: "f\(random.below(300))")
                }
            }
            if round == 3 { live.compact() }
            let current = live.features
            let fresh = FeatureIndex(current)
            for point in points.prefix(120) {
                let expected = ShapeContainmentTests.expected(current, point)
                #expect(live.containing(point).map(\.id) == expected, "round \(round) \(point)")
                #expect(fresh.containing(point).map { current[$0.item].id } == expected)
            }
        }
    }

    @Test func extentTreeMatchesBruteForce() {
        var random = SplitMix64(seed: 77)
        for count in [0, 1, 2, 15, 16, 17, 255, 256, 257, 3_000] {
            let entries = (0..<count).map { item in
                let west = random.uniform(-180...179), south = random.uniform(-90...89)
                return ShapeExtentIndex.Entry(item: item, west: west, south: south,
                                              east: min(180, west + random.uniform(0...5)), north: min(90, south + random.uniform(0...5)))
            }
            let index = ShapeExtentIndex(entries)
            #expect(index.count == count)
            for _ in 0..<50 {
                let west = random.uniform(-180...170), south = random.uniform(-90...80)
                let east = west + random.uniform(0...10), north = south + random.uniform(0...10)
                var found: [Int] = []
                index.search(west: west, south: south, east: east, north: north, into: &found)
                let expected = entries.filter { $0.west <= east && $0.east >= west && $0.south <= north && $0.north >= south }.map(\.item)
                #expect(found.sorted() == expected)
            }
            // The whole world opens every node: the walk's fixed stack (levels × nodeSize) is at its deepest.
            var everything: [Int] = []
            index.search(west: -180, south: -90, east: 180, north: 90, into: &everything)
            #expect(everything.sorted() == Array(0..<count))
            // Every box finds itself, touching edges included.
            for entry in entries.prefix(40) {
                var found: [Int] = []
                index.search(west: entry.east, south: entry.north, east: entry.east, north: entry.north, into: &found)
                #expect(found.contains(entry.item))
            }
        }
    }

    /// The walk's `Float` copy of the boxes (`ShapeExtentIndex.childBoxes`) only pre-filters: boxes whose edges lie
    /// closer together than a `Float` can tell apart (1e-9° near 100°, where a `Float` step is 7.6e-6°), many of
    /// them identical, at ±180 and at the poles, are found by point and box queries exactly at their edges and a
    /// double step beyond them, as a brute force over the doubles finds them.
    @Test func extentTreeDecidesOnDoublesWhereFloatsCannotTell() {
        var entries: [ShapeExtentIndex.Entry] = []
        for step in 0..<200 {
            let west = 100.1 + Double(step % 50) * 1e-9, south = -20.3 + Double(step / 50) * 1e-9
            entries.append(.init(item: entries.count, west: west, south: south, east: west + 1e-9, north: south + 1e-9))
        }
        for step in 0..<40 {
            let latitude = Double(step) * 1e-9
            entries.append(.init(item: entries.count, west: 179.9, south: latitude, east: 180, north: latitude + 1e-9))
            entries.append(.init(item: entries.count, west: -180, south: latitude, east: -179.9, north: latitude + 1e-9))
            entries.append(.init(item: entries.count, west: -10, south: 90 - Double(step) * 1e-9, east: 10, north: 90))
            entries.append(.init(item: entries.count, west: -10, south: -90, east: 10, north: -90 + Double(step) * 1e-9))
        }
        let index = ShapeExtentIndex(entries)
        #expect(index.levelStarts.count > 3, "parents above parents, so the pre-filter prunes at every level")
        func expectBruteForce(_ west: Double, _ south: Double, _ east: Double, _ north: Double) {
            var found: [Int] = []
            index.search(west: west, south: south, east: east, north: north, into: &found)
            let expected = entries.filter { $0.west <= east && $0.east >= west && $0.south <= north && $0.north >= south }.map(\.item)
            #expect(found.sorted() == expected, "box \(west), \(south), \(east), \(north)")
        }
        for entry in entries {
            for (x, y) in [(entry.west, entry.south), (entry.east, entry.north)] {
                expectBruteForce(x, y, x, y)
                expectBruteForce(x.nextDown, y.nextDown, x.nextDown, y.nextDown)
                expectBruteForce(x.nextUp, y.nextUp, x.nextUp, y.nextUp)
            }
            expectBruteForce(entry.east.nextUp, entry.south, entry.east + 1e-9, entry.north)
            expectBruteForce(entry.west - 1e-9, entry.south, entry.west.nextDown, entry.north)
        }
    }

    @Test func lineAndMultipointShapesNeverContainWhateverTheirRadius() throws {
        var random = SplitMix64(seed: 8)
        let center = try Coordinate(latitude: 60, longitude: 25)
        let line = try SyntheticShapes.shape(.lineString, around: center, random: &random)
        let trail = try Feature(id: "trail", kind: .trailhead, location: line.vertex(0), radiusMeters: 50_000, shape: line)
        let index = FeatureIndex([trail])
        #expect(index.containing(line.vertex(0)).isEmpty)
        #expect(DynamicFeatureIndex([trail]).containing(line.vertex(0)).isEmpty)
    }
    /// The counters `--explain` prints for `containing`, as the shape-by-shape test counted them: the circle walk,
    /// the extent search of `candidates(covering:)`, one exact check per candidate shape that is a polygon and
    /// passes the filter. `appendCovering` tests parts from its own flat rings; its counters must not move.
    static func shapeByShapeStats(_ index: FeatureIndex, _ features: [Feature], _ point: Coordinate,
                                  filter: FeatureFilter) -> QueryStats {
        var stats = QueryStats()
        var found: [Int] = []
        stats.add(index.circles.containing(point, model: .wgs84, into: &found))
        for item in index.shapes.index.candidates(covering: point, stats: &stats) {
            guard let shape = features[item].shape, shape.kind.isAreal, filter.acceptsAll || filter.matches(features[item]) else { continue }
            stats.exactChecks += 1
        }
        return stats
    }

    @Test func explainCountersMatchTheShapeByShapeTest() throws {
        let features = try ShapeContainmentTests.parks(every: 3, of: ShapeContainmentTests.features(count: 400, seed: 31))
        let index = FeatureIndex(features)
        var checked = 0
        for point in try ShapeContainmentTests.points(features, seed: 32) {
            for filter in [FeatureFilter.all, FeatureFilter(kinds: [.park])] {
                var stats = QueryStats()
                _ = index.containing(point, filter: filter, stats: &stats)
                #expect(stats == ShapeContainmentTests.shapeByShapeStats(index, features, point, filter: filter), "\(point)")
                checked += stats.exactChecks
            }
        }
        #expect(checked > 100, "the points must reach polygons: \(checked)")
    }

    /// More parts meet the point than `appendCovering` keeps on the machine stack (64): identical polygons, a
    /// MultiPolygon whose two halves share the edge the point is on, and polygons split at the antimeridian with
    /// the point on it; each feature is answered once, ascending, as the brute force says.
    @Test func manyPartsAtOnePointSpillAndStayUnique() throws {
        func ring(_ west: Double, _ south: Double, _ east: Double, _ north: Double, into parts: inout ShapeParts) {
            for (longitude, latitude) in [(west, south), (east, south), (east, north), (west, north), (west, south)] {
                parts.append(longitude: longitude, latitude: latitude)
            }
            parts.endRing()
            parts.endPolygon()
        }
        var features: [Feature] = []
        for number in 0..<150 {
            var parts = ShapeParts(kind: number % 3 == 0 ? .multiPolygon : .polygon)
            if number % 3 == 0 {
                // Two halves meeting at longitude 179.5 (and at 180 / -180 for the split ones).
                ring(179, 10, 179.5, 11, into: &parts)
                ring(179.5, 10, 180, 11, into: &parts)
                if number % 2 == 0 { ring(-180, 10, -179, 11, into: &parts) }
            } else {
                ring(number % 2 == 0 ? 179 : 178, 10, 180, 11, into: &parts)
            }
            let shape = try Shape(checking: parts)
            features.append(try Feature(id: "p\(number)", kind: .park, location: shape.representativePoint, shape: shape))
        }
        let index = FeatureIndex(features)
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        for point in [try Coordinate(latitude: 10.5, longitude: 179.5), try Coordinate(latitude: 10.5, longitude: 180),
                      try Coordinate(latitude: 10.5, longitude: -180), try Coordinate(latitude: 11, longitude: 179.25),
                      try Coordinate(latitude: 10.5, longitude: -179.5), try Coordinate(latitude: 12, longitude: 179.5)] {
            let expected = ShapeContainmentTests.expected(features, point)
            let hits = index.containing(point)
            #expect(hits.map { features[$0.item].id } == expected, "\(point)")
            #expect(Set(hits.map(\.item)).count == hits.count)
            #expect(mapped.containing(point) == hits)
            var stats = QueryStats()
            _ = index.containing(point, stats: &stats)
            #expect(stats == ShapeContainmentTests.shapeByShapeStats(index, features, point, filter: .all))
        }
        #expect(index.containing(try Coordinate(latitude: 10.5, longitude: 179.5)).count == 150)
    }

    /// Polygons of many vertices (their rings' edges indexed by latitude band, `RingEdgeIndex`): stars with holes,
    /// halves of stars whose straight edge lies on ±180 (either side, so a point on the meridian meets both), caps
    /// around both poles (a ring of hundreds of vertices closed along ±90) and unclosed rings; random points, every
    /// vertex, points on edges and at ±180 and the poles, against `Shape.covers` over every edge.
    @Test func manyVertexPolygonsMatchBruteForce() throws {
        var random = SplitMix64(seed: 1_519)
        var features: [Feature] = []
        func add(_ rings: [[(Double, Double)]], close: Bool = true) throws {
            var parts = ShapeParts(kind: .polygon)
            for ring in rings {
                for (x, y) in ring { parts.append(longitude: x, latitude: y) }
                if close, let first = ring.first { parts.append(longitude: first.0, latitude: first.1) }
                parts.endRing()
            }
            parts.endPolygon()
            let shape = try Shape(checking: parts)
            features.append(try Feature(id: "f\(features.count)", kind: .park, location: shape.representativePoint, shape: shape))
        }
        func star(_ cx: Double, _ cy: Double, _ radius: Double, _ count: Int, clockwise: Bool = false) -> [(Double, Double)] {
            (0..<count).map { step in
                let angle = (Double(step) + random.uniform(-0.4...0.4)) / Double(count) * 2 * Double.pi * (clockwise ? -1 : 1)
                let r = radius * random.uniform(0.6...1.0)
                return (cx + r * cos(angle), cy + r * sin(angle))
            }
        }
        for _ in 0..<40 {
            let cx = random.uniform(20...30), cy = random.uniform(55...65), radius = random.uniform(0.05...0.5)
            let count = [8, 40, 120, 600][random.below(4)]
            try add(random.chance(0.4) ? [star(cx, cy, radius, count), star(cx, cy, 0.3 * radius, 8 + random.below(60), clockwise: true)]
                        : [star(cx, cy, radius, count)], close: random.chance(0.8))
        }
        for side in [180.0, -180.0] {
            for _ in 0..<6 {
                // Half a star west of 180 (east of -180), closed along the meridian.
                let cy = random.uniform(-40...40), radius = random.uniform(0.2...2), count = 30 + random.below(300)
                var ring = [(side, cy - radius)]
                for step in 1..<count {
                    let angle = Double(step) / Double(count) * Double.pi
                    let r = radius * random.uniform(0.5...1.0)
                    ring.append((side - (side > 0 ? 1 : -1) * r * sin(angle), cy - radius * cos(angle)))
                }
                ring.append((side, cy + radius))
                try add([ring])
            }
        }
        for pole in [90.0, -90.0] {
            // A cap: hundreds of vertices along a wavy parallel, closed along the pole.
            let count = 200 + random.below(400)
            var ring = (0...count).map { step in
                (-180 + 360 * Double(step) / Double(count), pole - (pole > 0 ? 1 : -1) * random.uniform(1...5))
            }
            ring += [(180, pole), (-180, pole)]
            try add([ring])
        }
        let index = FeatureIndex(features)
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        var points: [Coordinate] = []
        for feature in features {
            guard let shape = feature.shape else { continue }
            for _ in 0..<30 {
                let box = shape.extent
                points.append(try Coordinate(latitude: random.uniform(box.south...box.north), longitude: random.uniform(box.west...box.east)))
            }
            for _ in 0..<20 {
                let vertex = random.below(shape.vertexCount - 1)
                let a = shape.vertex(vertex), b = shape.vertex(vertex + 1)
                points.append(a)
                // The midpoint of an edge (or of a hole's first and the outer ring's last vertex): on it or not,
                // the crossing test decides exactly.
                points.append(try Coordinate(latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2))
            }
        }
        for latitude in [-90.0, -89.5, -87, -40, -10, 0, 10, 39.9, 87, 89.5, 90] {
            for longitude in [-180.0, -179.99, 0, 25, 179.99, 180] { points.append(try Coordinate(latitude: latitude, longitude: longitude)) }
        }
        var hits = 0
        for point in points {
            let expected = ShapeContainmentTests.expected(features, point)
            let found = index.containing(point)
            #expect(found.map { features[$0.item].id } == expected, "\(point)")
            #expect(mapped.containing(point) == found, "\(point)")
            hits += found.count
        }
        #expect(hits > points.count / 3, "the points must reach the polygons: \(hits) of \(points.count)")
    }

    /// `--explain`'s "matches before filters" of a query split at the antimeridian counts every part found once per
    /// range that finds it: containment at ±180 (`ShapeExtentIndex.withLeaves`) and a box across it
    /// (`ShapeExtentIndex.search` through `candidates(in:)`), against the parts' extents counted by brute force.
    @Test func splitQueriesCountEachPartFoundOnce() throws {
        var features: [Feature] = []
        for (number, (west, east)) in [(179.0, 180.0), (-180.0, -179.0), (178.0, 179.5), (-179.5, -178.0), (179.0, 180.0)].enumerated() {
            var parts = ShapeParts(kind: .polygon)
            for (x, y) in [(west, 10.0), (east, 10.0), (east, 11.0), (west, 11.0), (west, 10.0)] { parts.append(longitude: x, latitude: y) }
            parts.endRing()
            parts.endPolygon()
            let shape = try Shape(checking: parts)
            features.append(try Feature(id: "p\(number)", kind: .park, location: shape.representativePoint, shape: shape))
        }
        let index = FeatureIndex(features)
        /// The parts whose extent meets each of `ranges` (longitudes) between `south` and `north`, summed.
        func partsMeeting(_ ranges: [(Double, Double)], south: Double, north: Double) -> Int {
            ranges.reduce(0) { total, range in
                total + features.filter { feature in
                    guard let box = feature.shape?.extent else { return false }
                    return box.west <= range.1 && box.east >= range.0 && box.south <= north && box.north >= south
                }.count
            }
        }
        for longitude in [180.0, -180.0] {
            var stats = QueryStats()
            let point = try Coordinate(latitude: 10.5, longitude: longitude)
            let found = index.containing(point, stats: &stats)
            #expect(found.map(\.item) == [0, 1, 4])
            #expect(stats.results == partsMeeting([(180, 180), (-180, -180)], south: 10.5, north: 10.5), "at \(longitude)")
        }
        var stats = QueryStats()
        let box = try BoundingBox(west: 179.25, south: 10.2, east: -179.25, north: 10.8)
        #expect(index.search(in: box, stats: &stats).map(\.item) == [0, 1, 2, 3, 4])
        // The box's points search finds no location (the parts' representative points lie outside it or are shapes).
        var pointStats = QueryStats()
        var located: [Int] = []
        pointStats.add(index.points.search(in: box, into: &located))
        #expect(stats.results == pointStats.results + partsMeeting([(179.25, 180), (-180, -179.25)], south: 10.2, north: 10.8))
    }

    @Test func emptyIndexesAndShapelessOnesContainNothingButCircles() throws {
        let point = try Coordinate(latitude: 60, longitude: 25)
        #expect(FeatureIndex([]).containing(point).isEmpty)
        let circle = try Feature(id: "c", kind: .place, location: point, radiusMeters: 10)
        let index = FeatureIndex([circle, try Feature(id: "p", kind: .place, location: point)])
        #expect(index.containing(point).map(\.item) == [0])
        #expect(index.shapeCount == 0)
    }
}
