import Foundation
import Testing
@testable import CairnCore

/// In-place moves hand their changed entries to the query tree's overlay instead of rebuilding the tree. After many
/// moves without a rebuild in between, every query (viewports at every zoom, tiles, grid clusters) must give what a
/// fresh build over the same points gives, as sets; and the overlay's overflow must rebuild the tree.
@Suite("ClusterIndex in-place moves through the tree's overlay")
struct ClusterMoveOverlayTests {
    /// Points with no exact duplicates (duplicates turn the in-place path off): clumps, a clump straddling the
    /// antimeridian, and a sparse spread.
    func points(_ random: inout ClusterRandom, count: Int) -> [Coordinate] {
        (0..<count).map { i in
            switch i % 3 {
            case 0:
                Coordinate(uncheckedLatitude: 60.17 + random.uniform(-0.5, 0.5), longitude: 24.94 + random.uniform(-1, 1))
            case 1:
                // Within 0.2° of 180 on both sides.
                Coordinate(uncheckedLatitude: random.uniform(-0.2, 0.2), longitude: random.below(2) == 0
                    ? random.uniform(179.8, 180) : random.uniform(-180, -179.8))
            default:
                Coordinate(uncheckedLatitude: random.uniform(-60, 60), longitude: random.uniform(-40, 40))
            }
        }
    }

    /// A small move of point `i`; points near the antimeridian move east or west far enough to cross it often.
    func target(of p: Coordinate, _ random: inout ClusterRandom) throws -> Coordinate {
        if abs(p.longitude) > 179.9 {
            return try destination(from: p, bearingDegrees: random.below(2) == 0 ? 90 : 270,
                                   distanceMeters: random.uniform(20, 2_000))
        }
        return try destination(from: p, bearingDegrees: random.uniform(0, 360),
                               distanceMeters: [2.0, 10, 50, 200, 3_000, 40_000][random.below(6)])
    }

    /// Seeded points and their index (maxZoom 16).
    func start(seed: UInt64, count: Int) throws -> (ClusterRandom, [Coordinate], ClusterIndex) {
        var random = ClusterRandom(seed: seed)
        let coordinates = points(&random, count: count)
        return (random, coordinates, ClusterIndex(coordinates: coordinates, options: try ClusterOptions(maxZoom: 16)))
    }

    /// The rebuild over `coordinates`, after expecting the index's tables to equal its tables (nil when they differ).
    func rebuiltMatching(_ index: ClusterIndex, _ coordinates: [Coordinate], _ label: String) -> ClusterIndex? {
        let rebuilt = ClusterIndex(coordinates: coordinates, options: index.options)
        let problems = ClusterIncrementalEditTests().differences(index.hierarchy, rebuilt.hierarchy)
        #expect(problems.isEmpty, "\(label): \(problems)")
        return problems.isEmpty ? rebuilt : nil
    }

    /// Whether moving point `i` to `moved` takes the in-place path.
    func movesInPlace(_ index: ClusterIndex, _ i: Int, to moved: Coordinate) -> Bool {
        let plan = ClusterIncrementalEdit(hierarchy: index.hierarchy, coordinates: index.points.coordinates, options: index.options,
                                          removedPoint: i, addedPoint: (moved, i))
        return index.hierarchy.inPlacePairing(plan, movedPoint: i) != nil
    }

    /// Every viewport and tile query, at every zoom, against a rebuild's, as sets; grid clusters exactly.
    func expectSameQueries(_ index: ClusterIndex, _ rebuilt: ClusterIndex, _ random: inout ClusterRandom, _ label: String) throws {
        var boxes: [BoundingBox] = [.world, try BoundingBox(west: 179.9, south: -0.1, east: -179.9, north: 0.1),
                                    try BoundingBox(west: 24.9, south: 60.1, east: 25.0, north: 60.2)]
        for _ in 0..<4 {
            let west = random.uniform(-180, 179), south = random.uniform(-70, 60)
            let width = [0.05, 1, 30][random.below(3)]
            var east = west + width
            if east > 180 { east -= 360 }
            boxes.append(try BoundingBox(west: west, south: south, east: east, north: min(85, south + width)))
        }
        for zoom in 0...(index.options.maxZoom + 1) {
            for box in boxes {
                let found = index.clusters(in: box, zoom: zoom)
                #expect(found.count == Set(found).count, "\(label) zoom \(zoom): an entry found twice")
                #expect(Set(found) == Set(rebuilt.clusters(in: box, zoom: zoom)), "\(label) zoom \(zoom) box \(box)")
            }
            // The tiles at the antimeridian's edges and one over the Helsinki clump.
            let z2 = 1 << zoom
            let helsinki = (x: Int(WebMercator.x(longitude: 24.94) * Double(z2)), y: Int(WebMercator.y(latitude: 60.17) * Double(z2)))
            for (x, y) in [(0, z2 / 2), (z2 - 1, z2 / 2), (0, max(0, z2 / 2 - 1)), helsinki] {
                #expect(Set(index.tile(z: zoom, x: x, y: y)) == Set(rebuilt.tile(z: zoom, x: x, y: y)), "\(label) tile \(zoom)/\(x)/\(y)")
            }
        }
        for box in boxes {
            let viewport = try Viewport(box: box, widthPixels: 1024, heightPixels: 768)
            #expect(index.gridClusters(in: viewport) == rebuilt.gridClusters(in: viewport), "\(label) grid \(box)")
        }
    }

    @Test("many in-place moves, across the antimeridian too, without a rebuild: every query equals a rebuild's")
    func manyMovesWithoutRebuild() throws {
        var (random, coordinates, index) = try start(seed: 41, count: 900)
        // No overflow in this test: the overlay only grows.
        index.hierarchy.tree.overlayLimit = .max
        var crossings = 0, largestOverlay = 0, streak = 0, longestStreak = 0
        for step in 0..<150 {
            // A move the in-place path takes (most small moves); every fourth step one across the antimeridian (the
            // step is skipped when none is found).
            var i = 0, moved = coordinates[0], found = false
            for _ in 0..<200 where !found {
                i = random.below(coordinates.count)
                moved = try target(of: coordinates[i], &random)
                let crosses = (coordinates[i].longitude > 0) != (moved.longitude > 0) && abs(moved.longitude) > 179
                guard step % 4 != 0 || crosses else { continue }
                found = movesInPlace(index, i, to: moved)
                if found, crosses { crossings += 1 }
            }
            guard found else { continue }
            coordinates[i] = moved
            try index.move(at: i, to: moved)
            largestOverlay = max(largestOverlay, index.hierarchy.tree.overlay.count)
            streak = index.hierarchy.tree.isEdited ? streak + 1 : 0
            longestStreak = max(longestStreak, streak)
            guard let rebuilt = rebuiltMatching(index, coordinates, "step \(step)") else { return }
            if step % 30 == 29 || streak % 8 == 7 { try expectSameQueries(index, rebuilt, &random, "step \(step)") }
        }
        // The overlay carried runs of many moves without a rebuild.
        #expect(largestOverlay >= 200 && longestStreak >= 100)
        #expect(crossings >= 5)
    }

    @Test("the overlay past its limit rebuilds the tree; queries still equal a rebuild's")
    func overflowRebuilds() throws {
        var (random, coordinates, index) = try start(seed: 42, count: 600)
        var overflows = 0
        for step in 0..<120 {
            index.hierarchy.tree.overlayLimit = 24
            let i = random.below(coordinates.count)
            let moved = try target(of: coordinates[i], &random)
            let inPlace = movesInPlace(index, i, to: moved)
            coordinates[i] = moved
            try index.move(at: i, to: moved)
            // An in-place move that leaves no overlay overflowed it.
            if inPlace, !index.hierarchy.tree.isEdited { overflows += 1 }
            #expect(index.hierarchy.tree.overlay.count <= 24)
            guard let rebuilt = rebuiltMatching(index, coordinates, "step \(step)") else { return }
            if step % 40 == 39 { try expectSameQueries(index, rebuilt, &random, "step \(step)") }
        }
        #expect(overflows >= 3)
    }

    @Test("an insert or remove after in-place moves (the tree and its overlay kept) equals a rebuild; a copy from before is untouched")
    func otherEditAfterMoves() throws {
        var (random, coordinates, index) = try start(seed: 43, count: 400)
        index.hierarchy.tree.overlayLimit = .max
        // A copy taken before the moves (a value: the moves must not reach it).
        let original = index, originalCoordinates = coordinates
        for _ in 0..<20 {
            let i = random.below(coordinates.count)
            coordinates[i] = try target(of: coordinates[i], &random)
            try index.move(at: i, to: coordinates[i])
        }
        #expect(index.hierarchy.tree.isEdited)
        let i = random.below(coordinates.count)
        coordinates.remove(at: i)
        try index.remove(at: i)
        let p = Coordinate(uncheckedLatitude: 0.01, longitude: 179.99)
        coordinates.append(p)
        index.insert(p)
        // Spliced, not rebuilt: the tree keeps its nodes and its overlay.
        #expect(index.hierarchy.tree.isEdited)
        let rebuilt = try #require(rebuiltMatching(index, coordinates, "after insert"))
        try expectSameQueries(index, rebuilt, &random, "after insert")
        let originalRebuilt = try #require(rebuiltMatching(original, originalCoordinates, "copy before the moves"))
        try expectSameQueries(original, originalRebuilt, &random, "copy before the moves")
    }
}
