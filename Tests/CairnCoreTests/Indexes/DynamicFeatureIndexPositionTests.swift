import CairnCore
import CairnTestSupport
import Testing

/// `DynamicFeatureIndex.position(id:)` against the features' order it names: after random upserts, replacements
/// and removals (with and without compactions), every id's position is its place in `features`, and an id not held
/// has none.
@Suite struct DynamicFeatureIndexPositionTests {
    @Test(arguments: [DynamicFeatureIndex.CompactionPolicy.manual, .afterPendingEdits(40)])
    func positionsAreTheFeaturesOrder(policy: DynamicFeatureIndex.CompactionPolicy) throws {
        var random = SplitMix64(seed: 21)
        let towns = try SyntheticTowns.make(count: 300, seed: 5)
        var index = DynamicFeatureIndex(Array(towns.prefix(200)), compactionPolicy: policy)
        for step in 0..<400 {
            let town = towns[random.below(towns.count)]
            if random.below(3) == 0 {
                index.remove(id: town.id)
            } else {
                index.upsert(try Feature(id: town.id, kind: .place, location: town.location, attributes: ["step": .number(Double(step))]))
            }
            if step % 40 == 0 || step == 399 {
                let ordered = index.features
                for (position, feature) in ordered.enumerated() { #expect(index.position(id: feature.id) == position) }
                let held = Set(ordered.map(\.id))
                for town in towns where !held.contains(town.id) { #expect(index.position(id: town.id) == nil) }
            }
        }
    }
}
