import CairnCore
@testable import CairnServer
import CairnTestSupport
import Testing

/// `ServedEditor`: an edit changes the copy no state holds in place (no copy of every feature and table), never the
/// copy a request may still read, and after any run of edits both copies equal content built afresh.
@Suite struct ServedEditorTests {
    static func content(_ features: [Feature]) -> ServedContent {
        var rowids: [String: Int64] = [:]
        for (row, feature) in features.enumerated() { rowids[feature.id] = Int64(row + 1) }
        return ServedContent(features: features, rowids: rowids, clusterOptions: .standard)
    }

    /// Moves `town` to a new place: it is stored anew, with the next rowid.
    static func move(_ town: Feature, step: Int, random: inout SplitMix64) throws -> ServedChange {
        let moved = try Feature(id: town.id, kind: .place,
                                location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                                attributes: ["step": .number(Double(step))])
        return ServedChange(removedIDs: [], upserted: [moved], rowids: [Int64(10_000 + step)])
    }

    @Test func anEditChangesTheSpareInPlaceOnceNoStateHoldsIt() throws {
        var random = SplitMix64(seed: 3)
        let towns = try SyntheticTowns.make(count: 2_000, seed: 8)
        var editor = ServedEditor(Self.content(towns))
        // The first edit of each copy copies: both share the content they were made from (whose features the
        // index's base holds too).
        for step in 1...2 { _ = try editor.apply(try Self.move(towns[step], step: step, random: &random)) }
        for step in 3..<13 {
            let spare = editor.featureStorage.spare
            _ = try editor.apply(try Self.move(towns[random.below(towns.count)], step: step, random: &random))
            // Nothing held the returned content: the edited spare, now served, kept its storage.
            #expect(editor.featureStorage.served == spare, "edit \(step) copied the features")
        }
    }

    @Test func anEditNeverChangesWhatARequestHolds() throws {
        var random = SplitMix64(seed: 4)
        let towns = try SyntheticTowns.make(count: 500, seed: 9)
        var editor = ServedEditor(Self.content(towns))
        let held = try editor.apply(try Self.move(towns[0], step: 1, random: &random))
        let heldFeatures = held.features, heldClusters = held.clusters.clusters(in: try BoundingBox(west: -180, south: -85, east: 180, north: 85), zoom: 3)
        for step in 2..<6 { _ = try editor.apply(try Self.move(towns[step], step: step, random: &random)) }
        #expect(held.features == heldFeatures)
        #expect(held.index.features == heldFeatures)
        #expect(held.clusters.clusters(in: try BoundingBox(west: -180, south: -85, east: 180, north: 85), zoom: 3) == heldClusters)
    }

    @Test func bothCopiesEqualAFreshBuildAfterEdits() throws {
        var random = SplitMix64(seed: 5)
        let towns = try SyntheticTowns.make(count: 800, seed: 10)
        var editor = ServedEditor(Self.content(Array(towns.prefix(600))))
        var model = Array(towns.prefix(600))
        var rowids: [String: Int64] = [:]
        for (row, feature) in model.enumerated() { rowids[feature.id] = Int64(row + 1) }
        let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
        for step in 0..<60 {
            var removed: [String] = [], upserted: [Feature] = [], upsertedRows: [Int64] = []
            for _ in 0..<(1 + random.below(3)) {
                let town = towns[random.below(towns.count)]
                if random.below(4) == 0 {
                    guard model.contains(where: { $0.id == town.id }), !removed.contains(town.id), !upserted.contains(where: { $0.id == town.id }) else { continue }
                    removed.append(town.id)
                } else {
                    guard !removed.contains(town.id), !upserted.contains(where: { $0.id == town.id }) else { continue }
                    let change = try Self.move(town, step: step, random: &random)
                    upserted += change.upserted
                    upsertedRows.append(Int64(10_000 + step * 10 + upserted.count))
                }
            }
            let change = ServedChange(removedIDs: removed, upserted: upserted, rowids: upsertedRows)
            model.removeAll { feature in removed.contains(feature.id) || upserted.contains { $0.id == feature.id } }
            model += upserted
            for id in removed { rowids[id] = nil }
            for (feature, row) in zip(upserted, upsertedRows) { rowids[feature.id] = row }
            // Each copy is checked as served: on alternate steps, the one edited last time and the one edited now.
            let served = try editor.apply(change)
            #expect(served.features == model)
            #expect(served.index.features == model)
            #expect(served.rowids == rowids)
            let fresh = ClusterIndex(features: model)
            for zoom in [0, 4, 9, 16] {
                #expect(Set(served.clusters.clusters(in: world, zoom: zoom)) == Set(fresh.clusters(in: world, zoom: zoom)), "zoom \(zoom), step \(step)")
            }
        }
    }
}
