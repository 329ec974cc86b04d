import CairnCore
@testable import CairnServer
import CairnStore
import CairnTestSupport
import Testing

/// The clusters follow the index's edits on their own task (`ServedStore+Hierarchy`): however the edits fall into
/// rounds (spliced a few at a time, or past `rebuildEdits` built afresh), once caught up they equal a hierarchy built
/// afresh over the features, and their generation is the index's.
@Suite struct ServedHierarchyFollowingTests {
    @Test func theClustersCatchUpWithEditsFasterThanARound() async throws {
        var random = SplitMix64(seed: 7)
        let towns = try SyntheticTowns.make(count: 3_000, seed: 12)
        var model = ServedEditorTests.Model(Array(towns.prefix(2_500)))
        let folder = try TemporaryFolder()
        let served = ServedStore(backend: .sqlite(try FeatureStore(path: folder.path + "/store.sqlite")), clusterOptions: .standard,
                                 answerCacheBytes: 1 << 20,
                                 loaded: .init(features: model.features, rowids: model.rowids, clusterOptions: .standard),
                                 generation: 0, contentID: "loaded")
        let changes = 300
        for step in 1...changes {
            let change = try model.randomChange(of: towns, step: step, random: &random)
            served.writing.withLock { _ in _ = served.serveChanged(change, generation: Int64(step), contentID: "edit \(step)") }
            // Now and then the edits pause for a round, so that some rounds splice a few edits, others rebuild.
            if step % 50 == 0 { await served.hierarchyCaughtUp(to: Int64(step)) }
        }
        #expect(served.state.generation == Int64(changes), "the index does not wait for the clusters")
        await served.hierarchyCaughtUp(to: Int64(changes))
        let state = served.state
        #expect(state.clusters.generation == Int64(changes))
        let sameFeatures = state.clusters.features == model.features  // compared aside: a failure would print them all
        #expect(sameFeatures, "the clusters' features are the model's, in order")
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        let fresh = ClusterIndex(features: model.features)
        for zoom in [0, 3, 7, 12, 16] {
            let same = Set(state.clusters.all.clusters(in: world, zoom: zoom)) == Set(fresh.clusters(in: world, zoom: zoom))
            #expect(same, "the clusters at zoom \(zoom) are a fresh build's")
        }
        let sameIndex = state.index.features == model.features
        #expect(sameIndex, "the index's features are the model's, in order")
    }

    /// The hierarchy keeps its own list of the features (`ServedHierarchy.features(_:after:)`): after any mix of
    /// removals by position (among the first features and among those appended in the same round) and appends, it
    /// is the list the same edits give one at a time.
    @Test func theFeaturesListFollowsRemovalsAndAppendsInOnePass() throws {
        var random = SplitMix64(seed: 8)
        let towns = try SyntheticTowns.make(count: 400, seed: 13)
        for round in 0..<200 {
            var features = Array(towns.prefix(random.below(40)))
            let before = features
            var edits: [ServedHierarchy.Edit] = []
            var next = 300
            for _ in 0..<random.below(30) {
                if features.isEmpty || random.below(3) == 0 {
                    features.append(towns[next])
                    edits.append(.append(towns[next]))
                    next += 1
                } else {
                    let position = random.below(features.count)
                    features.remove(at: position)
                    edits.append(.remove(at: position))
                }
            }
            let after = ServedHierarchy.features(before, after: edits)
            #expect(after.map(\.id) == features.map(\.id), "round \(round)")
        }
    }
}
