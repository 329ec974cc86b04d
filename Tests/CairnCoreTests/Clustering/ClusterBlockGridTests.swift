import Testing
import CairnTestSupport
@testable import CairnCore

/// The low zooms' block grids (`ClusterIndex.forEachPart`): blocks are whole cells inside the box, given in the order
/// `clusters(in:zoom:)` gives their entries, and an edit (of the index or of a copy sharing its grids) never lets a
/// query read a grid built for other points.
@Suite("ClusterIndex block grids")
struct ClusterBlockGridTests {
    static func coordinates(seed: UInt64, count: Int) throws -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        return try (0..<count).map { i in
            // Half in a few clumps (clusters at every zoom), half scattered, some right on the antimeridian.
            if i % 2 == 0 {
                let centre = [(60.2, 24.9), (-33.9, 151.2), (0.5, 179.99), (40.7, -74.0)][i / 2 % 4]
                return try Coordinate(latitude: centre.0 + random.unit() * 0.5, longitude: min(180, centre.1 + random.unit() * 0.5))
            }
            return try Coordinate(latitude: random.unit() * 170 - 85, longitude: i % 101 == 1 ? 180 : random.unit() * 360 - 180)
        }
    }

    static let boxes: [BoundingBox] = [
        .world,
        try! BoundingBox(west: -30, south: -20, east: 60, north: 70),
        try! BoundingBox(west: 150, south: -50, east: -150, north: 70),  // across the antimeridian
        try! BoundingBox(west: 0, south: 0, east: 180, north: 90),
        try! BoundingBox(west: 20.5, south: 59.1, east: 28.25, north: 61.4),
        try! BoundingBox(west: -180, south: -85.06, east: -90, north: 85.06),
    ]

    /// The query tree's entries for `box` at `zoom`, sorted: what the grids must give, read without them.
    static func treeEntries(_ index: ClusterIndex, in box: BoundingBox, zoom: Int) -> [Int] {
        let tree = index.hierarchy.tree
        var entries: [Int] = []
        tree.forEachEntry(x: UnitXRanges(box), y0: WebMercator.y(latitude: box.north), y1: WebMercator.y(latitude: box.south),
                          zoom: index.level(forZoom: zoom), hierarchy: index.hierarchy) { slot, _ in
            entries.append(tree.entry(atSlot: Int(slot)))
        }
        return entries.sorted()
    }

    @Test("blocks are whole cells inside the box, in clusters(in:zoom:)'s order")
    func blocksFollowTheEntryOrder() throws {
        let index = ClusterIndex(coordinates: try Self.coordinates(seed: 3, count: 4_000))
        var blocksSeen = 0
        for zoom in 0...(ClusterIndex.blockLevelLimit + 2) {
            for box in Self.boxes {
                let expected = index.clusters(in: box, zoom: zoom)
                var parts: [ClusterNode] = [], cells = Set<Int>()
                index.forEachPart(in: box, zoom: zoom, block: { block in
                    #expect(block.level == zoom && block.entryCount > 0 && cells.insert(block.cell).inserted)
                    index.forEachEntry(in: block) { _, node in parts.append(node) }
                    blocksSeen += 1
                }, entry: { _, node in parts.append(node) })
                #expect(parts == expected, "zoom \(zoom) box \(box)")
                var entries: [ClusterNode] = [], numbers: [Int] = []
                index.forEachEntry(in: box, zoom: zoom) { entry, node in entries.append(node); numbers.append(entry) }
                #expect(entries == expected, "zoom \(zoom) box \(box)")
                // The grids' entries are the tree's (the comparisons above hold the grid path against itself).
                #expect(numbers.sorted() == Self.treeEntries(index, in: box, zoom: zoom), "zoom \(zoom) box \(box)")
                if zoom > ClusterIndex.blockLevelLimit { #expect(cells.isEmpty) }
            }
        }
        #expect(blocksSeen > 100)
    }

    @Test("an edit after a query answers as a rebuild does")
    func editAfterQuery() throws {
        var coordinates = try Self.coordinates(seed: 5, count: 2_000)
        var index = ClusterIndex(coordinates: coordinates)
        for zoom in 0...ClusterIndex.blockLevelLimit { _ = index.clusters(in: .world, zoom: zoom) }
        let added = try Coordinate(latitude: -60, longitude: -100)  // far from every other point
        try index.apply([.insert(added), .remove(at: 10), .move(at: 20, to: try Coordinate(latitude: 10, longitude: 10))])
        coordinates.append(added)
        coordinates.remove(at: 10)
        coordinates[20] = try Coordinate(latitude: 10, longitude: 10)
        let rebuilt = ClusterIndex(coordinates: coordinates)
        for zoom in 0...ClusterIndex.blockLevelLimit {
            for box in Self.boxes {
                #expect(Set(index.clusters(in: box, zoom: zoom)) == Set(rebuilt.clusters(in: box, zoom: zoom)), "zoom \(zoom) box \(box)")
            }
        }
    }

    @Test("a copy edited before any query keeps its own grids")
    func editedCopy() throws {
        let coordinates = try Self.coordinates(seed: 9, count: 2_000)
        let original = ClusterIndex(coordinates: coordinates)
        var edited = original
        let added = try Coordinate(latitude: -60, longitude: -100)
        try edited.apply([.insert(added)])
        // The original builds its grids first; the edited copy must not read them.
        let before = original.clusters(in: .world, zoom: 4)
        let after = edited.clusters(in: .world, zoom: 4)
        #expect(after.count == before.count + 1)
        #expect(Set(after) == Set(ClusterIndex(coordinates: coordinates + [added]).clusters(in: .world, zoom: 4)))
        #expect(Set(original.clusters(in: .world, zoom: 4)) == Set(before))
    }
}
