import CairnCore
import Testing

/// DynamicFeatureIndex against a rebuild oracle: after every sequence of edits, each query must equal the same
/// query on a fresh `FeatureIndex` over a plain array model of the current features, mapped to ids and distances.
@Suite struct DynamicFeatureIndexTests {
    /// The plain model: the current features in the documented order (an upsert of an existing id removes the old
    /// version and appends the new one; a remove deletes in place).
    struct ArrayModel {
        var features: [Feature] = []

        mutating func upsert(_ feature: Feature) {
            features.removeAll { $0.id == feature.id }
            features.append(feature)
        }

        mutating func remove(id: String) -> Bool {
            guard let position = features.firstIndex(where: { $0.id == id }) else { return false }
            features.remove(at: position)
            return true
        }
    }

    /// A result as the tests compare it: the feature (by value) and the distance.
    struct Answer: Equatable, CustomStringConvertible {
        let feature: Feature
        let distanceMeters: Double?
        var description: String { "\(feature.id)@\(distanceMeters.map { "\($0)" } ?? "-")" }
    }

    /// A location that often lands near the antimeridian (both spellings), the poles or a small cluster.
    static func awkwardLocation(_ random: inout SeededRandom) throws -> Coordinate {
        var latitude = random.uniform(-90...90), longitude = random.uniform(-180...180)
        switch random.below(8) {
        case 0: longitude = random.chance(0.5) ? random.uniform(179.5...180) : random.uniform(-180 ... -179.5)
        case 1: longitude = random.chance(0.5) ? 180 : -180
        case 2: latitude = random.chance(0.5) ? random.uniform(89...90) : random.uniform(-90 ... -89)
        case 3: latitude = random.chance(0.5) ? 90 : -90
        case 4: latitude = random.uniform(51.4...51.6); longitude = random.uniform(-0.2...0.1)
        default: break
        }
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    static func randomFeature(id: String, _ random: inout SeededRandom, near previous: Coordinate? = nil) throws -> Feature {
        var location = try awkwardLocation(&random)
        if let previous, random.chance(0.5) {
            // A small move: a few kilometres in any direction, possibly across the antimeridian or a pole.
            location = try destination(from: previous, bearingDegrees: random.uniform(0...360),
                                       distanceMeters: random.uniform(0...20_000), model: .sphere)
        }
        let kind: FeatureKind = [.park, .place, .trailhead][random.below(3)]
        return try Feature(
            id: id, kind: kind, location: location,
            radiusMeters: random.chance(0.6) ? random.uniform(5...400_000) : nil,
            attributes: ["fenced": .bool(random.chance(0.5)), "rating": .number(Double(random.below(6)))])
    }

    static func randomFilter(_ random: inout SeededRandom) throws -> FeatureFilter {
        switch random.below(4) {
        case 0, 1: return .all
        case 2: return FeatureFilter(kinds: [.park, .place])
        default: return FeatureFilter(predicates: [try AttributePredicate(parsing: "rating>=2")])
        }
    }

    static func answers(_ hits: [DynamicHit]) -> [Answer] {
        hits.map { Answer(feature: $0.feature, distanceMeters: $0.distanceMeters) }
    }

    static func answers<Features: RandomAccessCollection<Feature>>(_ hits: [QueryHit], _ features: Features) -> [Answer]
    where Features.Index == Int {
        hits.map { Answer(feature: features[$0.item], distanceMeters: $0.distanceMeters) }
    }

    /// Runs every query type at a few random points under both models on `index` and on a fresh FeatureIndex
    /// over `expected`, and compares them.
    static func checkQueries(_ index: DynamicFeatureIndex, expected: [Feature], _ random: inout SeededRandom,
                             rounds: Int = 3) throws {
        #expect(index.features == expected)
        #expect(index.count == expected.count)
        let oracle = FeatureIndex(expected)
        for _ in 0..<rounds {
            let filter = try randomFilter(&random)
            // Query points near existing features half the time, so small radii and containment find something.
            let point = !expected.isEmpty && random.chance(0.5)
                ? expected[random.below(expected.count)].location : try awkwardLocation(&random)
            var stats = QueryStats(), oracleStats = QueryStats()

            let west = random.chance(0.2) ? 179.0 : random.uniform(-180...180)
            let east = random.chance(0.2) ? -179.0 : random.uniform(-180...180)
            let south = random.uniform(-90...80), north = min(90, south + random.uniform(0...60))
            let box = try BoundingBox(west: west, south: south, east: east, north: north)
            var got = answers(index.search(in: box, filter: filter, stats: &stats))
            var want = answers(oracle.search(in: box, filter: filter, stats: &oracleStats), expected)
            #expect(got == want, "box \(box)")

            let prefix = String(try Geohash.encode(point, precision: 1 + random.below(3)))
            got = answers(try index.withGeohashPrefix(prefix, filter: filter, stats: &stats))
            want = answers(try oracle.withGeohashPrefix(prefix, filter: filter, stats: &oracleStats), expected)
            #expect(got == want, "geohash \(prefix)")

            for model in DistanceModel.allCases {
                let radius = [0, random.uniform(0...50_000), random.uniform(0...5_000_000), 20_100_000][random.below(4)]
                got = answers(index.within(radiusMeters: radius, of: point, model: model, filter: filter, stats: &stats))
                want = answers(oracle.within(radiusMeters: radius, of: point, model: model, filter: filter, stats: &oracleStats), expected)
                #expect(got == want, "within \(radius) of \(point) \(model)")

                let k = 1 + random.below(12)
                let maxDistance: Double? = random.chance(0.3) ? random.uniform(0...3_000_000) : nil
                got = answers(index.nearest(to: point, count: k, maxDistanceMeters: maxDistance, model: model, filter: filter, stats: &stats))
                want = answers(oracle.nearest(to: point, count: k, maxDistanceMeters: maxDistance, model: model, filter: filter,
                                              stats: &oracleStats), expected)
                #expect(got == want, "nearest \(k) to \(point) max \(String(describing: maxDistance)) \(model)")

                got = answers(index.containing(point, model: model, filter: filter, stats: &stats))
                want = answers(oracle.containing(point, model: model, filter: filter, stats: &oracleStats), expected)
                #expect(got == want, "containing \(point) \(model)")
            }
        }
    }

    @Test(arguments: [
        (0, 11 as UInt64, DynamicFeatureIndex.CompactionPolicy.manual),
        (1, 12, .afterPendingEdits(17)),
        (60, 13, .manual),
        (300, 14, .afterPendingEdits(40)),
        (300, 15, .automatic),
    ])
    func randomEditsMatchRebuild(baseCount: Int, seed: UInt64, policy: DynamicFeatureIndex.CompactionPolicy) throws {
        var random = SeededRandom(seed: seed)
        var initial: [Feature] = []
        for n in 0..<baseCount { initial.append(try Self.randomFeature(id: "f\(n)", &random)) }
        var model = ArrayModel(features: initial)
        var index = DynamicFeatureIndex(initial, compactionPolicy: policy)
        var nextID = baseCount
        var removed: [String] = []
        try Self.checkQueries(index, expected: model.features, &random)

        for step in 1...400 {
            let live = model.features
            switch random.below(20) {
            case 0..<7: // Insert a new id, sometimes exactly on a live feature's location (ties by order).
                var feature = try Self.randomFeature(id: "f\(nextID)", &random)
                if !live.isEmpty, random.chance(0.2) {
                    feature = try Feature(id: feature.id, kind: feature.kind, location: live[random.below(live.count)].location,
                                          radiusMeters: feature.radiusMeters, attributes: feature.attributes)
                }
                nextID += 1
                index.upsert(feature)
                model.upsert(feature)
            case 7..<12 where !live.isEmpty: // Update: move (often a little) and change attributes.
                let old = live[random.below(live.count)]
                let feature = try Self.randomFeature(id: old.id, &random, near: old.location)
                index.upsert(feature)
                model.upsert(feature)
            case 12..<16 where !live.isEmpty: // Delete.
                let id = live[random.below(live.count)].id
                let fromIndex = index.remove(id: id), fromModel = model.remove(id: id)
                #expect(fromIndex && fromModel)
                removed.append(id)
            case 16..<18 where !removed.isEmpty: // Re-insert a deleted id (maybe already re-inserted).
                let feature = try Self.randomFeature(id: removed[random.below(removed.count)], &random)
                index.upsert(feature)
                model.upsert(feature)
            case 18:
                let id = random.chance(0.5) ? "absent\(step)" : (removed.last ?? "none")
                let fromIndex = index.remove(id: id), fromModel = model.remove(id: id)
                #expect(fromIndex == fromModel)
            default:
                if random.chance(0.3) {
                    let compacted = index.compacted()
                    try Self.checkQueries(compacted, expected: model.features, &random, rounds: 1)
                    #expect(compacted.pendingEdits == 0)
                    index.compact()
                }
            }
            if let probe = [live.first?.id, removed.last, "f\(nextID - 1)"].compactMap({ $0 }).randomElement(using: &random) {
                #expect(index.feature(id: probe) == model.features.first { $0.id == probe })
            }
            if case .afterPendingEdits(let limit) = policy { #expect(index.pendingEdits <= limit) }
            if step % 5 == 0 { try Self.checkQueries(index, expected: model.features, &random, rounds: 1) }
        }
        try Self.checkQueries(index, expected: model.features, &random)
        let compacted = index.compacted()
        try Self.checkQueries(compacted, expected: model.features, &random)
    }

    @Test func emptyIndexAnswersNothing() throws {
        let index = DynamicFeatureIndex([])
        var random = SeededRandom(seed: 5)
        #expect(index.isEmpty && index.count == 0 && index.features.isEmpty)
        #expect(index.feature(id: "x") == nil)
        var copy = index
        let removed = copy.remove(id: "x")
        #expect(!removed)
        try Self.checkQueries(index, expected: [], &random)
    }

    @Test func removingEverythingLeavesAnEmptyIndexThatTakesInsertsAgain() throws {
        var random = SeededRandom(seed: 6)
        let initial = try (0..<150).map { try Self.randomFeature(id: "f\($0)", &random) }
        var index = DynamicFeatureIndex(initial, compactionPolicy: .manual)
        var inserted: [Feature] = []
        for n in 0..<30 {
            let feature = try Self.randomFeature(id: "d\(n)", &random)
            index.upsert(feature)
            inserted.append(feature)
        }
        for feature in (initial + inserted).shuffled(using: &random) {
            let removed = index.remove(id: feature.id)
            #expect(removed)
        }
        #expect(index.isEmpty)
        try Self.checkQueries(index, expected: [], &random)
        #expect(index.compacted().isEmpty)
        let again = try Self.randomFeature(id: "f3", &random)
        index.upsert(again)
        try Self.checkQueries(index, expected: [again], &random)
    }

    @Test func nearestLooksPastTombstones() throws {
        // Delete the 200 features nearest to a point: the base must be asked for more than k.
        var random = SeededRandom(seed: 7)
        let initial = try (0..<600).map { try Self.randomFeature(id: "f\($0)", &random) }
        var model = ArrayModel(features: initial)
        var index = DynamicFeatureIndex(initial, compactionPolicy: .manual)
        let point = try Coordinate(latitude: 51.5, longitude: -0.1)
        let byDistance = initial.sorted {
            distanceMeters(from: point, to: $0.location) < distanceMeters(from: point, to: $1.location)
        }
        for feature in byDistance.prefix(200) {
            index.remove(id: feature.id)
            _ = model.remove(id: feature.id)
        }
        let oracle = FeatureIndex(model.features)
        for model in DistanceModel.allCases {
            var stats = QueryStats(), oracleStats = QueryStats()
            let got = Self.answers(index.nearest(to: point, count: 7, model: model, stats: &stats))
            let want = Self.answers(oracle.nearest(to: point, count: 7, model: model, stats: &oracleStats), oracle.features)
            #expect(got == want && got.count == 7)
        }
    }

    @Test func duplicateIdsInTheInitialArrayKeepTheLastOccurrence() throws {
        var random = SeededRandom(seed: 8)
        let a = try Self.randomFeature(id: "a", &random), b = try Self.randomFeature(id: "b", &random)
        let a2 = try Self.randomFeature(id: "a", &random)
        let index = DynamicFeatureIndex([a, b, a2])
        #expect(index.features == [b, a2])
        #expect(index.feature(id: "a") == a2)
        try Self.checkQueries(index, expected: [b, a2], &random)
    }

    @Test func copiesAreIndependentSnapshotsReadableConcurrently() async throws {
        var random = SeededRandom(seed: 9)
        let initial = try (0..<200).map { try Self.randomFeature(id: "f\($0)", &random) }
        var index = DynamicFeatureIndex(initial, compactionPolicy: .afterPendingEdits(25))
        let snapshot = index
        let point = try Coordinate(latitude: 10, longitude: 179.9)
        var stats = QueryStats()
        let before = Self.answers(snapshot.nearest(to: point, count: 20, stats: &stats))
        // Readers query the snapshot on other threads while the original takes edits (and compacts).
        try await withThrowingTaskGroup(of: [Answer].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    var stats = QueryStats()
                    var last: [Answer] = []
                    for _ in 0..<20 { last = Self.answers(snapshot.nearest(to: point, count: 20, stats: &stats)) }
                    return last
                }
            }
            for n in 0..<100 { index.upsert(try Self.randomFeature(id: "f\(n)", &random)) }
            for try await answer in group { #expect(answer == before) }
        }
        #expect(snapshot.features == initial)
        #expect(index.features != initial)
    }
}
