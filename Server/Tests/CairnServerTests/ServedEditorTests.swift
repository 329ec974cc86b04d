import CairnCore
@testable import CairnServer
import CairnTestSupport
import Testing

/// `ServedEditor`: an edit changes the copy no state holds in place (no copy of every feature and table), never the
/// copy a request may still read, and after any run of edits both copies equal content built afresh; the edits it
/// gives bring a `ServedHierarchy` to the hierarchy built afresh.
@Suite struct ServedEditorTests {
    static func content(_ features: [Feature]) -> ServedContent {
        var rowids: [String: Int64] = [:]
        for (row, feature) in features.enumerated() { rowids[feature.id] = Int64(row + 1) }
        return ServedContent(features: features, rowids: rowids)
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
        // The first edit of each copy copies: both share the content they were made from.
        for step in 1...2 { _ = editor.apply(try Self.move(towns[step], step: step, random: &random)) }
        for step in 3..<13 {
            let spare = editor.rowidStorage.spare
            _ = editor.apply(try Self.move(towns[random.below(towns.count)], step: step, random: &random))
            // Nothing held the returned content: the edited spare, now served, kept its storage.
            #expect(editor.rowidStorage.served == spare, "edit \(step) copied the rowids")
        }
    }

    @Test func anEditNeverChangesWhatARequestHolds() throws {
        var random = SplitMix64(seed: 4)
        let towns = try SyntheticTowns.make(count: 500, seed: 9)
        var editor = ServedEditor(Self.content(towns))
        let held = editor.apply(try Self.move(towns[0], step: 1, random: &random)).content
        let heldFeatures = held.index.features, heldRowids = held.rowids
        for step in 2..<6 { _ = editor.apply(try Self.move(towns[step], step: step, random: &random)) }
        #expect(held.index.features == heldFeatures)
        #expect(held.rowids == heldRowids)
    }

    /// The features as a plain list and rowid table, changed as the served content must change.
    struct Model {
        var features: [Feature]
        var rowids: [String: Int64] = [:]

        init(_ features: [Feature]) {
            self.features = features
            for (row, feature) in features.enumerated() { rowids[feature.id] = Int64(row + 1) }
        }

        /// One to three random removals or moves of `towns`, applied to the model and returned.
        mutating func randomChange(of towns: [Feature], step: Int, random: inout SplitMix64) throws -> ServedChange {
            var removed: [String] = [], upserted: [Feature] = [], rows: [Int64] = []
            for _ in 0..<(1 + random.below(3)) {
                let town = towns[random.below(towns.count)]
                guard !removed.contains(town.id), !upserted.contains(where: { $0.id == town.id }) else { continue }
                if random.below(4) == 0 {
                    guard features.contains(where: { $0.id == town.id }) else { continue }
                    removed.append(town.id)
                } else {
                    upserted += try ServedEditorTests.move(town, step: step, random: &random).upserted
                    rows.append(Int64(10_000 + step * 10 + upserted.count))
                }
            }
            features.removeAll { feature in removed.contains(feature.id) || upserted.contains { $0.id == feature.id } }
            features += upserted
            for id in removed { rowids[id] = nil }
            for (feature, row) in zip(upserted, rows) { rowids[feature.id] = row }
            return ServedChange(removedIDs: removed, upserted: upserted, rowids: rows)
        }

        /// Whether `content` holds the model's features, in order, with their rowids.
        func isHeld(by content: ServedContent) -> Bool {
            content.index.features == features && content.rowids == rowids
        }

        /// Whether `hierarchy` holds the model's features, in order, and clusters equal to a fresh build's (as
        /// sets per zoom: a spliced hierarchy lists the clusters an edit touched after the others).
        func isHeld(by hierarchy: ServedHierarchy) throws -> Bool {
            let world = try BoundingBox(west: -180, south: -85, east: 180, north: 85)
            let fresh = ClusterIndex(features: features)
            return hierarchy.features == features
                && [0, 4, 9, 16].allSatisfy { Set(hierarchy.clusters.clusters(in: world, zoom: $0)) == Set(fresh.clusters(in: world, zoom: $0)) }
        }
    }

    @Test func bothCopiesEqualAFreshBuildAfterEdits() throws {
        var random = SplitMix64(seed: 5)
        let towns = try SyntheticTowns.make(count: 800, seed: 10)
        var model = Model(Array(towns.prefix(600)))
        var editor = ServedEditor(Self.content(model.features))
        var hierarchy = ServedHierarchy(features: model.features, options: .standard)
        var batch: [ServedHierarchy.Edit] = []
        for step in 0..<60 {
            // Each copy is checked as served: on alternate steps, the one edited last time and the one edited now.
            let (served, edits, _) = editor.apply(try model.randomChange(of: towns, step: step, random: &random))
            #expect(model.isHeld(by: served), "step \(step)")
            // The hierarchy follows in batches of one to three changes, as its rounds take them.
            batch += edits
            guard step % 3 == random.below(3) || step == 59 else { continue }
            try hierarchy.apply(batch)
            batch = []
            #expect(try model.isHeld(by: hierarchy), "step \(step)")
        }
    }

    @Test func aCompactionFinishedAfterEditsKeepsThemAndEmptiesTheDelta() throws {
        var random = SplitMix64(seed: 6)
        let towns = try SyntheticTowns.make(count: 400, seed: 11)
        var model = Model(Array(towns.prefix(300)))
        var editor = ServedEditor(Self.content(model.features))
        for step in 0..<9 { _ = editor.apply(try model.randomChange(of: towns, step: step, random: &random)) }
        let early = editor.startCompaction(threshold: 1_000)
        #expect(early == nil)
        let first = editor.startCompaction(threshold: 0)
        let started = try #require(first)
        let second = editor.startCompaction(threshold: 0)
        #expect(second == nil, "one compaction at a time")
        var compacted = started.index.compacted()
        var replayed = 0
        for step in 9..<13 {
            let change = try model.randomChange(of: towns, step: step, random: &random)
            replayed += change.removedIDs.count + 2 * change.upserted.count
            _ = editor.apply(change)
        }
        // The compaction replays the first two changes on its own, the editor the other two.
        #expect(editor.changes(sinceCompaction: started.ticket &+ 1, from: 0) == nil, "another compaction's ticket")
        let since = try #require(editor.changes(sinceCompaction: started.ticket, from: 0))
        #expect(since.count == 4)
        for change in since.prefix(2) { ServedContent.apply(change, to: &compacted) }
        let stranger = editor.finishCompaction(compacted, replayed: 2, ticket: started.ticket &+ 1)
        #expect(stranger == nil, "another compaction's ticket")
        let finished = editor.finishCompaction(compacted, replayed: 2, ticket: started.ticket)
        let served = try #require(finished)
        #expect(model.isHeld(by: served))
        #expect(served.index.pendingEdits <= replayed)
        // Both copies go on from the compacted index.
        for step in 13..<17 {
            let served = editor.apply(try model.randomChange(of: towns, step: step, random: &random)).content
            #expect(model.isHeld(by: served), "step \(step)")
        }
    }
}
