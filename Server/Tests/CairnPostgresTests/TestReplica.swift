import CairnCore
import NIOConcurrencyHelpers
@testable import CairnPostgres

/// A replica as `cairn serve` keeps one: the features in the index's order, their index with its delta, and their
/// cluster hierarchy, spliced by each change set (not rebuilt). Tests compare it with one built from scratch.
final class TestReplica: Sendable {
    struct Held: Sendable {
        var features: [Feature]
        var index: DynamicFeatureIndex
        var clusters: ClusterIndex
        var generation: Int64
    }
    let held: NIOLockedValueBox<Held>
    let store: PostgresFeatureStore

    init(store: PostgresFeatureStore) async throws {
        self.store = store
        let snapshot = try await store.load()
        held = NIOLockedValueBox(Held(features: snapshot.features, index: DynamicFeatureIndex(snapshot.features),
                                      clusters: ClusterIndex(features: snapshot.features), generation: snapshot.generation))
    }

    var generation: Int64 { held.withLockedValue { $0.generation } }
    var now: Held { held.withLockedValue { $0 } }

    /// Applies a change set as the feed hands it over; returns the generation now held.
    func apply(_ changes: PostgresChanges) async throws -> Int64 {
        if changes.reloadNeeded {
            let snapshot = try await store.load()
            held.withLockedValue {
                $0 = Held(features: snapshot.features, index: DynamicFeatureIndex(snapshot.features),
                          clusters: ClusterIndex(features: snapshot.features), generation: snapshot.generation)
            }
            return snapshot.generation
        }
        try held.withLockedValue { held in
            var edits: [ClusterEdit] = []
            for id in changes.removedIDs + changes.upserted.map(\.id) {
                guard let position = held.features.firstIndex(where: { $0.id == id }) else { continue }
                held.features.remove(at: position)
                edits.append(.remove(at: position))
                _ = held.index.remove(id: id)
            }
            for feature in changes.upserted {
                held.features.append(feature)
                held.index.upsert(feature)
                edits.append(.insertFeature(feature))
            }
            try held.clusters.apply(edits)
            held.generation = changes.generation
        }
        return changes.generation
    }

    /// Whether what it holds equals `features` (in order) and a hierarchy built from them, at a few zooms (as sets:
    /// a spliced hierarchy lists the clusters an edit touched after the others).
    func matches(_ features: [Feature]) throws -> Bool {
        let held = now
        guard held.features == features else { print("replica: its features differ from the table's"); return false }
        guard held.index.features == features else { print("replica: its index's features differ from the table's"); return false }
        let fresh = ClusterIndex(features: features)
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        for zoom in [0, 3, 8, 14, 17] where Set(held.clusters.clusters(in: world, zoom: zoom)) != Set(fresh.clusters(in: world, zoom: zoom)) {
            print("replica: its clusters at zoom \(zoom) differ from a fresh build's")
            return false
        }
        return true
    }
}
