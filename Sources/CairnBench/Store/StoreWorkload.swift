import CairnCore

/// Queries drawn from a store's own features, so that they land where its data is and as densely as it is:
/// the same shapes as the seeded bench (`BenchWorkload`), with the store's features as the points.
///
/// - box-N: centred on a random feature, square on the ground, sized by bisection to hold about N features;
/// - radius and nearest: centred on a random feature moved up to 2 km in a random direction;
/// - containment: a random feature with a radius, the point moved up to 1.5 radii from its centre (so about
///   half fall inside, as check-ins near a circle's edge do); skipped when no feature has a radius.
public enum StoreWorkload {
    /// Draws `queriesPerOperation` queries per kind from `index`'s features.
    /// - Returns: the operations in `kinds`' order and, for a kind that could not be drawn, a sentence saying why.
    /// - Complexity: O(q · log(size) · box query) for q queries per box operation, O(q) for the others.
    public static func make(
        index: FeatureIndex, queriesPerOperation: Int, seed: UInt64, kinds: [BenchOperationKind] = BenchOperationKind.all
    ) -> (operations: [StoreOperation], notes: [String]) {
        var operations: [StoreOperation] = []
        var notes: [String] = []
        guard index.count > 0 else { return ([], ["the store holds no features: nothing to query"]) }
        let features = index.features
        for kind in kinds {
            // One stream per kind (as BenchWorkload), so choosing a subset of operations keeps their queries.
            let position = BenchOperationKind.all.firstIndex(of: kind) ?? 0
            var random = SeededRandom(seed: seed &+ 0x5707_E000 &+ UInt64(position) &* 0x1_0000_0001)
            func randomLocation() -> Coordinate { features[random.below(index.count)].location }
            /// Queries centred on random features moved up to 2 km in a random direction.
            func aroundFeatures(_ query: (Coordinate) -> StoreQuery) -> [StoreQuery] {
                (0..<queriesPerOperation).map { _ in
                    let location = randomLocation()
                    return query(BenchWorkload.jittered(location, upToMeters: 2_000, random: &random))
                }
            }
            switch kind {
            case .box(let target):
                var buffer: [Int] = []
                buffer.reserveCapacity(4 * target + 64)
                let queries = (0..<queriesPerOperation).map { _ in
                    StoreQuery.box(BenchWorkload.calibratedBox(around: randomLocation(), targetResults: target,
                                                              index: index.points, buffer: &buffer))
                }
                operations.append(StoreOperation(name: kind.name, queries: queries))
            case .radius(let meters):
                operations.append(StoreOperation(name: kind.name, queries: aroundFeatures { .radius(center: $0, meters: meters) }))
            case .nearest(let count):
                operations.append(StoreOperation(name: kind.name, queries: aroundFeatures { .nearest(point: $0, count: count) }))
            case .containment:
                guard index.radiusCount > 0 else {
                    notes.append("containment skipped: no feature of the store has a radius")
                    continue
                }
                var queries: [StoreQuery] = []
                queries.reserveCapacity(queriesPerOperation)
                // Circles are found by sampling features; a store where few have a radius may run out of tries.
                var tries = 0
                let maximumTries = 1_000 * queriesPerOperation
                while queries.count < queriesPerOperation, tries < maximumTries {
                    tries += 1
                    let feature = features[random.below(index.count)]
                    guard let radius = feature.radiusMeters else { continue }
                    queries.append(.containing(BenchWorkload.jittered(feature.location, upToMeters: 1.5 * radius, random: &random)))
                }
                if queries.count < queriesPerOperation {
                    notes.append("containment: \(queries.count) of \(queriesPerOperation) queries drawn "
                        + "(only \(index.radiusCount) of \(index.count) features have a radius)")
                }
                if !queries.isEmpty { operations.append(StoreOperation(name: kind.name, queries: queries)) }
            }
        }
        return (operations, notes)
    }
}
