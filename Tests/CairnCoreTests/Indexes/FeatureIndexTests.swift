import CairnCore
import Testing

/// FeatureIndex's filtered queries, containment and geohash prefix against brute force over the same features.
@Suite struct FeatureIndexTests {
    static func randomFeatures(count: Int, seed: UInt64) throws -> [Feature] {
        var random = SeededRandom(seed: seed)
        var features: [Feature] = []
        for n in 0..<count {
            // A third of the points cluster near the antimeridian and a few near the poles; some repeat exactly.
            let latitude: Double, longitude: Double
            switch n % 6 {
            case 0: latitude = random.uniform(-60...60); longitude = random.chance(0.5) ? random.uniform(179...180) : random.uniform(-180 ... -179)
            case 1: latitude = random.uniform(88...90); longitude = random.uniform(-180...180)
            case 2 where n > 10: latitude = features[n - 7].location.latitude; longitude = features[n - 7].location.longitude
            default: latitude = random.uniform(-90...90); longitude = random.uniform(-180...180)
            }
            let kind: FeatureKind = [.park, .place, .trailhead][random.below(3)]
            features.append(try Feature(
                id: "f\(n)", kind: kind, location: Coordinate(latitude: latitude, longitude: longitude),
                radiusMeters: random.chance(0.7) ? random.uniform(10...300_000) : nil,
                attributes: ["fenced": .bool(random.chance(0.5)), "rating": .number(Double(random.below(6)))]))
        }
        return features
    }

    static func randomFilter(_ random: inout SeededRandom) throws -> FeatureFilter {
        switch random.below(4) {
        case 0: return .all
        case 1: return FeatureFilter(kinds: [.park])
        case 2: return FeatureFilter(predicates: [try AttributePredicate(parsing: "fenced")])
        default: return FeatureFilter(kinds: [.place, .trailhead], predicates: [try AttributePredicate(parsing: "rating>=3")])
        }
    }

    @Test func nearestWithAReusedScratchMatchesFreshQueries() throws {
        let features = try Self.randomFeatures(count: 900, seed: 5)
        let index = FeatureIndex(features)
        var random = SeededRandom(seed: 17)
        var scratch = NearestScratch()
        for _ in 0..<200 {
            let filter = try Self.randomFilter(&random)
            let model: DistanceModel = random.chance(0.5) ? .wgs84 : .sphere
            let point = try Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
            // Counts and limits vary so the scratch is reused after both larger and smaller queries.
            let k = 1 + random.below(random.chance(0.2) ? 400 : 20)
            let limit: Double? = random.chance(0.3) ? random.uniform(0...2_000_000) : nil
            var stats = QueryStats(), reusedStats = QueryStats()
            let fresh = index.nearest(to: point, count: k, maxDistanceMeters: limit, model: model, filter: filter, stats: &stats)
            let reused = index.nearest(to: point, count: k, maxDistanceMeters: limit, model: model, filter: filter,
                                       scratch: &scratch, stats: &reusedStats)
            #expect(reused == fresh)
            #expect(reusedStats == stats)
            // And both agree with brute force.
            let expected = features.indices
                .map { ($0, distanceMeters(from: point, to: features[$0].location, model: model)) }
                .filter { filter.matches(features[$0.0]) && $0.1 <= (limit ?? .infinity) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(reused.map(\.item) == expected.prefix(k).map(\.0))
        }
    }

    @Test(arguments: [0, 1, 7, 600])
    func filteredQueriesMatchBruteForce(count: Int) throws {
        let features = try Self.randomFeatures(count: count, seed: UInt64(count) + 11)
        let index = FeatureIndex(features)
        var random = SeededRandom(seed: 99)
        for _ in 0..<60 {
            let filter = try Self.randomFilter(&random)
            let model: DistanceModel = random.chance(0.5) ? .wgs84 : .sphere
            let point = try Coordinate(latitude: random.uniform(-90...90), longitude: random.chance(0.3) ? 180 : random.uniform(-180...180))
            var stats = QueryStats()

            // Box (sometimes across the antimeridian).
            let west = random.uniform(-180...180), east = random.uniform(-180...180)
            let south = random.uniform(-90...60), north = min(90, south + random.uniform(0...40))
            let box = try BoundingBox(west: west, south: south, east: east, north: north)
            let boxHits = index.search(in: box, filter: filter, stats: &stats).map(\.item)
            let boxExpected = features.indices.filter { box.contains(features[$0].location) && filter.matches(features[$0]) }
            #expect(boxHits == boxExpected)

            // Radius, nearest first.
            let radius = random.uniform(0...3_000_000)
            let within = index.within(radiusMeters: radius, of: point, model: model, filter: filter, stats: &stats)
            let withinExpected = features.indices
                .map { ($0, distanceMeters(from: point, to: features[$0].location, model: model)) }
                .filter { $0.1 <= radius && filter.matches(features[$0.0]) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(within.map(\.item) == withinExpected.map(\.0))

            // Nearest k with a filter: the first k of the same brute-force order.
            let k = 1 + random.below(25)
            let nearest = index.nearest(to: point, count: k, model: model, filter: filter, stats: &stats)
            let all = features.indices
                .map { ($0, distanceMeters(from: point, to: features[$0].location, model: model)) }
                .filter { filter.matches(features[$0.0]) }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(nearest.map(\.item) == all.prefix(k).map(\.0))

            // Containment: every feature whose circle reaches the point.
            let containing = index.containing(point, model: model, filter: filter, stats: &stats)
            let containingExpected = features.indices
                .compactMap { i -> (Int, Double)? in
                    guard let r = features[i].radiusMeters else { return nil }
                    let d = distanceMeters(from: features[i].location, to: point, model: model)
                    return d <= r && filter.matches(features[i]) ? (i, d) : nil
                }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(containing.map(\.item) == containingExpected.map(\.0))
        }
    }

    @Test func containmentIncludesAPointExactlyOnTheRadius() throws {
        let centre = try Coordinate(latitude: 60.17, longitude: 24.94)
        let edge = try destination(from: centre, bearingDegrees: 37, distanceMeters: 150)
        let exact = distanceMeters(from: centre, to: edge)
        let place = try Feature(id: "p", kind: .place, location: centre, radiusMeters: exact)
        let index = FeatureIndex([place])
        var stats = QueryStats()
        #expect(index.containing(edge, stats: &stats).map(\.item) == [0])
        let justInside = try Feature(id: "q", kind: .place, location: centre, radiusMeters: exact.nextDown)
        #expect(FeatureIndex([justInside]).containing(edge, stats: &stats).isEmpty)
    }

    @Test func geohashPrefixMatchesEncoding() throws {
        let features = try Self.randomFeatures(count: 500, seed: 5)
        let index = FeatureIndex(features)
        var stats = QueryStats()
        for feature in features.prefix(40) {
            for precision in [1, 2, 3] {
                let prefix = try Geohash.encode(feature.location, precision: precision)
                let hits = try index.withGeohashPrefix(prefix, stats: &stats).map(\.item)
                let expected = try features.indices.filter { try Geohash.encode(features[$0].location, precision: precision) == prefix }
                #expect(hits == expected)
            }
        }
        #expect(throws: GeohashError.self) { try index.withGeohashPrefix("ail", stats: &stats) }
    }
}
