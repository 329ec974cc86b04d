import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `within` (around) and `nearest` measure a feature with a shape to the shape: against a brute force over every
/// feature (a polygon that covers the point: 0; else `ShapeBoundaryDistance.meters` to the boundary, line or
/// points; a feature without a shape: its location under the model), ordered by distance then item, through
/// `FeatureIndex`, a mapped snapshot and `DynamicFeatureIndex` under edits; on seeded shapes near the antimeridian
/// and the poles, the Helsinki parks and Natural Earth's countries (Fiji, Russia, Antarctica, Lesotho in South
/// Africa's hole).
@Suite struct ShapeDistanceQueryTests {
    /// The brute-force distance from `point` to `feature`.
    static func oracleMeters(_ point: Coordinate, _ feature: Feature, model: DistanceModel) -> Double {
        guard let shape = feature.shape else { return distanceMeters(from: point, to: feature.location, model: model) }
        if shape.kind.isAreal, shape.covers(point) { return 0 }
        return ShapeBoundaryDistance.meters(from: point, to: shape)
    }

    /// Every feature that passes `filter` with its brute-force distance, sorted by (distance, item).
    static func oracle(_ features: [Feature], _ point: Coordinate, model: DistanceModel = .wgs84,
                       filter: FeatureFilter = .all) -> [Neighbor] {
        features.indices.filter { filter.matches(features[$0]) }
            .map { Neighbor(item: $0, distanceMeters: oracleMeters(point, features[$0], model: model)) }.sorted()
    }

    /// The answer as the tests compare it: ids and distances.
    static func answer(_ neighbors: some Sequence<Neighbor>, _ features: [Feature]) -> [String] {
        neighbors.map { "\(features[$0.item].id)@\($0.distanceMeters)" }
    }

    static func answer(_ hits: [QueryHit], _ features: [Feature]) -> [String] {
        hits.map { "\(features[$0.item].id)@\($0.distanceMeters ?? -1)" }
    }

    static func answer(_ hits: [DynamicHit]) -> [String] {
        hits.map { "\($0.id)@\($0.distanceMeters ?? -1)" }
    }

    /// Checks `within` and `nearest` on `index` at `point` against the oracle; returns how many shapes within the
    /// largest radius are at distance 0 and how many at a positive distance.
    @discardableResult
    static func check(_ index: FeatureIndex, _ features: [Feature], at point: Coordinate, radii: [Double],
                      model: DistanceModel = .wgs84, filter: FeatureFilter = .all,
                      sourceLocation: SourceLocation = #_sourceLocation) -> (inside: Int, outside: Int) {
        let all = oracle(features, point, model: model, filter: filter)
        for radius in radii {
            let expected = answer(all.lazy.filter { $0.distanceMeters <= radius }, features)
            #expect(answer(index.within(radiusMeters: radius, of: point, model: model, filter: filter), features) == expected,
                    "within \(radius) m of \(point)", sourceLocation: sourceLocation)
        }
        for count in [1, 5, 50] {
            for limit in [nil, radii[radii.count / 2]] {
                let expected = answer(all.lazy.filter { $0.distanceMeters <= (limit ?? .infinity) }.prefix(count), features)
                let hits = index.nearest(to: point, count: count, maxDistanceMeters: limit, model: model, filter: filter)
                #expect(answer(hits, features) == expected, "nearest \(count) to \(point) within \(String(describing: limit))",
                        sourceLocation: sourceLocation)
            }
        }
        let reach = radii.max() ?? 0
        let shaped = all.filter { features[$0.item].shape != nil && $0.distanceMeters <= reach }
        return (shaped.filter { $0.distanceMeters == 0 }.count, shaped.filter { $0.distanceMeters > 0 }.count)
    }

    /// Points without a shape scattered among the shapes, ids `p0`, `p1`, ….
    static func points(count: Int, near centers: [Coordinate], spreadDegrees: Double, seed: UInt64) throws -> [Feature] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { number in
            let center = centers[random.below(centers.count)]
            let location = try Coordinate(
                latitude: max(-90, min(90, center.latitude + random.uniform(-spreadDegrees...spreadDegrees))),
                longitude: max(-180, min(180, center.longitude + random.uniform(-spreadDegrees...spreadDegrees))))
            return try Feature(id: "p\(number)", kind: random.chance(0.5) ? .park : .place, location: location)
        }
    }

    /// Features from a GeoJSON file of `Data/`, ids `prefix` + number, shapes kept whole.
    static func shapedFeatures(_ path: String, prefix: String) throws -> [Feature] {
        try ShapeBoundaryDistanceDataTests.shapes(path).enumerated().map { number, shape in
            try Feature(id: "\(prefix)\(number)", kind: number % 3 == 0 ? .place : .park, location: shape.representativePoint,
                        shape: shape)
        }
    }

    @Test func syntheticShapesAndPointsMatchBruteForce() throws {
        // Polygons (holes too), multipolygons, lines and multipoints near ±180, the poles and Helsinki, among points.
        let features = try ShapeContainmentTests.features(count: 300, seed: 1_920)
        let index = FeatureIndex(features)
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        var inside = 0, outside = 0
        for (number, point) in try ShapeContainmentTests.points(features, seed: 3).enumerated() where number % 3 == 0 {
            let counts = Self.check(index, features, at: point, radii: [0, 100, 5_000, 40_000, 500_000])
            (inside, outside) = (inside + counts.inside, outside + counts.outside)
            #expect(mapped.nearest(to: point, count: 5) == index.nearest(to: point, count: 5))
            #expect(mapped.within(radiusMeters: 40_000, of: point) == index.within(radiusMeters: 40_000, of: point))
        }
        #expect(inside > 20 && outside > 200, "the points must fall inside and outside shapes: \(inside) \(outside)")
    }

    @Test func noCountAnswersNothingWithShapesToo() throws {
        // With shapes in the index, nearest took the merge path, which trapped on a negative count.
        let features = try ShapeContainmentTests.features(count: 50, seed: 7)
        let index = FeatureIndex(features)
        let point = features[0].location
        for count in [0, -1, Int.min] { #expect(index.nearest(to: point, count: count).isEmpty) }
    }

    @Test func filtersAndTheSphereModel() throws {
        // A shape is measured on WGS84 under either model; the filter applies to shapes and points alike.
        let features = try ShapeContainmentTests.features(count: 200, seed: 21)
        let index = FeatureIndex(features)
        for (number, point) in try ShapeContainmentTests.points(features, seed: 22).enumerated() where number % 6 == 0 {
            Self.check(index, features, at: point, radii: [0, 2_000, 30_000], filter: FeatureFilter(kinds: [.place]))
            Self.check(index, features, at: point, radii: [0, 2_000, 30_000], model: .sphere)
        }
    }

    @Test func helsinkiParksMatchBruteForce() throws {
        let parks = try Self.shapedFeatures("Data/osm-helsinki-parks.geojson", prefix: "park")
        let helsinki = try Coordinate(latitude: 60.19, longitude: 24.94)
        let features = parks + (try Self.points(count: 300, near: [helsinki], spreadDegrees: 0.15, seed: 31))
        let index = FeatureIndex(features)
        var random = SplitMix64(seed: 32)
        var queries: [Coordinate] = []
        for park in parks {
            // Inside (the representative point of a park lies in it), on a vertex, and near the park.
            queries.append(park.location)
            if let shape = park.shape { queries.append(shape.vertex(random.below(shape.vertexCount))) }
            queries.append(try Coordinate(latitude: park.location.latitude + random.uniform(-0.01...0.01),
                                          longitude: park.location.longitude + random.uniform(-0.02...0.02)))
        }
        var inside = 0, outside = 0
        for point in queries {
            let counts = Self.check(index, features, at: point, radii: [0, 25, 300, 2_000, 20_000])
            (inside, outside) = (inside + counts.inside, outside + counts.outside)
        }
        #expect(inside >= parks.count && outside > 100, "\(inside) \(outside)")
    }

    @Test func countriesAtTheAntimeridianAndPolesMatchBruteForce() throws {
        let countries = try Self.shapedFeatures("Data/naturalearth-countries.geojson", prefix: "country")
        let spots: [(Double, Double)] = [
            (-17.8, 178.0), (-16.5, 179.999), (-16.8, -179.9), (-16.1, 180), // Fiji, split at ±180
            (66.0, 179.99), (65.5, -179.5), (71.0, 180), (64.0, -172.5), // Russia's Chukotka, Bering Strait
            (-90, 0), (-89.9, 120), (-85, 45), (-70, 170), (-60, -60), (90, 0), // Antarctica, the poles
            (-29.5, 28.2), (-30.5, 27.0), // Lesotho, in South Africa's hole
            (48.85, 2.35), (0, -30), (1.3, 103.8), (60.17, 24.94), // Paris, the Atlantic, Singapore, Helsinki
        ]
        var centers = try spots.map { try Coordinate(latitude: $0.0, longitude: $0.1) }
        let features = countries + (try Self.points(count: 200, near: centers, spreadDegrees: 3, seed: 41))
        // Vertices of the split countries: on the boundary, distance 0.
        for id in ["country0", "country18", "country159"] {
            if let shape = features.first(where: { $0.id == id })?.shape { centers.append(shape.vertex(shape.vertexCount / 3)) }
        }
        let index = FeatureIndex(features)
        var inside = 0, outside = 0
        for point in centers {
            let counts = Self.check(index, features, at: point, radii: [0, 1_000, 50_000, 300_000, 2_000_000])
            (inside, outside) = (inside + counts.inside, outside + counts.outside)
        }
        #expect(inside >= 15 && outside >= 100, "\(inside) \(outside)")
    }

    @Test func dynamicIndexAfterEditsMatchesAFreshIndex() throws {
        let features = try ShapeContainmentTests.features(count: 240, seed: 51)
        let more = try ShapeContainmentTests.features(count: 240, seed: 52)
        var live = DynamicFeatureIndex(Array(features.prefix(160)), compactionPolicy: .manual)
        var random = SplitMix64(seed: 53)
        let points = try ShapeContainmentTests.points(features, seed: 54)
        let filter = FeatureFilter(kinds: [.place])
        for round in 0..<5 {
            for _ in 0..<30 {
                switch random.below(4) {
                case 0: live.upsert(features[random.below(features.count)])
                case 1:
                    // A shape moved, added or taken away under an existing id.
                    let source = more[random.below(more.count)]
                    live.upsert(try Feature(id: "f\(random.below(240))", kind: .place, location: source.location,
                                            radiusMeters: source.radiusMeters, shape: source.shape))
                case 2:
                    let old = features[random.below(features.count)]
                    live.upsert(try Feature(id: old.id, kind: .place, location: old.location, radiusMeters: old.radiusMeters))
                default: live.remove(id: "f\(random.below(240))")
                }
            }
            if round == 3 { live.compact() }
            let current = live.features
            let fresh = FeatureIndex(current)
            for point in points.prefix(40) {
                for radius in [0.0, 3_000, 40_000] {
                    let expected = Self.answer(Self.oracle(current, point).filter { $0.distanceMeters <= radius }, current)
                    #expect(Self.answer(live.within(radiusMeters: radius, of: point)) == expected, "round \(round) \(point)")
                    #expect(Self.answer(fresh.within(radiusMeters: radius, of: point), current) == expected)
                }
                for count in [1, 5, 50] {
                    let expected = Self.answer(Self.oracle(current, point).prefix(count), current)
                    #expect(Self.answer(live.nearest(to: point, count: count)) == expected, "round \(round) \(point) k \(count)")
                    #expect(Self.answer(fresh.nearest(to: point, count: count), current) == expected)
                    let filtered = Self.answer(live.nearest(to: point, count: count, maxDistanceMeters: 20_000, filter: filter))
                    #expect(filtered == Self.answer(fresh.nearest(to: point, count: count, maxDistanceMeters: 20_000, filter: filter), current))
                }
            }
        }
    }

    @Test func extentWalkYieldsPartsInOrderOfTheirBound() throws {
        var random = SplitMix64(seed: 61)
        for count in [0, 1, 2, 16, 17, 300, 3_000] {
            let entries = (0..<count).map { item in
                let west = random.uniform(-180...179), south = random.uniform(-90...89)
                return ShapeExtentIndex.Entry(item: item, west: west, south: south,
                                              east: min(180, west + random.uniform(0...5)), north: min(90, south + random.uniform(0...5)))
            }
            let index = ShapeExtentIndex(entries)
            for _ in 0..<10 {
                let point = try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
                var walk = index.partsByDistance(from: point)
                var seen: [Int] = [], last = 0.0
                while let (item, bound) = walk.next() {
                    #expect(bound >= last)
                    last = bound
                    let entry = entries[item]
                    // The part's own bound, raised only by rounding along its ancestors' bounds.
                    let own = ShapeBoundaryDistance.lowerBoundMeters(
                        from: point, to: BoundingBox(unchecked: entry.west, entry.south, entry.east, entry.north))
                    #expect(bound >= own && bound <= own * (1 + 1e-12) + 1e-9, "\(bound) \(own)")
                    seen.append(item)
                }
                #expect(seen.sorted() == Array(0..<count))
            }
        }
    }
}
