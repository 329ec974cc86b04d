import Foundation
import Testing
@testable import CairnCore

/// The clustering tree's layout (runs, bands, quantized cells, cached coordinates) against brute force over the
/// hierarchy's own entries.
@Suite("Cluster tree layout and viewport queries")
struct ClusterTreeTests {
    /// Clumps (dense runs, bands of several zooms, duplicates, poles, the antimeridian) and a uniform spread.
    static func points(seed: UInt64) -> [Coordinate] {
        var random = ClusterRandom(seed: seed)
        var points = random.clumpedCoordinates(2500)
        for _ in 0..<1500 {
            points.append(Coordinate(uncheckedLatitude: random.uniform(-90, 90), longitude: random.uniform(-180, 180)))
        }
        return points
    }

    /// The entries shown at `level`, by brute force over the hierarchy.
    static func shown(_ h: ClusterHierarchy, level: Int) -> [Int] {
        (0..<h.entryCount).filter { Int(h.lowZoom[$0]) <= level && level <= Int(h.topZoom[$0]) }
    }

    @Test("items are every shown entry by creation zoom, Morton key and entry, and rebuild the same tree")
    func canonicalOrder() {
        let index = ClusterIndex(coordinates: Self.points(seed: 5))
        let h = index.hierarchy
        let expected = (0..<h.entryCount).filter { h.lowZoom[$0] <= h.topZoom[$0] }.sorted { a, b in
            if h.topZoom[a] != h.topZoom[b] { return h.topZoom[a] < h.topZoom[b] }
            let ka = ClusterTree.key(x: h.x(a), y: h.y(a)), kb = ClusterTree.key(x: h.x(b), y: h.y(b))
            return ka != kb ? ka < kb : a < b
        }
        #expect(h.tree.canonicalItems() == expected.map { UInt32($0) })
        let relaid = ClusterTree(hierarchy: h, orderedItems: h.tree.canonicalItems())
        #expect(relaid.slots == h.tree.slots)
        #expect(relaid.latitudes == h.tree.latitudes && relaid.longitudes == h.tree.longitudes)
        // Some run spans several lowest zooms, so the per-entry zoom test is exercised.
        #expect(h.tree.runs.contains { $0.mixed })
    }

    @Test("viewports, with edges on entries' own coordinates and across the antimeridian, return exactly the entries inside")
    func viewports() throws {
        let index = ClusterIndex(coordinates: Self.points(seed: 11))
        let h = index.hierarchy
        var random = ClusterRandom(seed: 12)
        for zoom in 0...18 {
            let level = index.level(forZoom: zoom)
            let shown = Self.shown(h, level: level)
            try #require(!shown.isEmpty)
            for round in 0..<12 {
                // Edges through shown entries' coordinates (rounding of the projection puts entries right on or
                // beside them), or random, sometimes wrapping.
                func edge() -> Coordinate {
                    index.node(ofEntry: shown[random.below(shown.count)]).coordinate
                }
                let a = edge(), b = edge()
                var west = min(a.longitude, b.longitude), east = max(a.longitude, b.longitude)
                if round % 3 == 1 { swap(&west, &east) }
                if round % 4 == 3 { (west, east) = (random.uniform(-180, 180), random.uniform(-180, 180)) }
                let box = try BoundingBox(west: west, south: min(a.latitude, b.latitude), east: east, north: max(a.latitude, b.latitude))
                let ranges = UnitXRanges(box)
                let y0 = WebMercator.y(latitude: box.north), y1 = WebMercator.y(latitude: box.south)
                let expected = shown.filter { h.y($0) >= y0 && h.y($0) <= y1 && ranges.contains(h.x($0)) }.map { index.node(ofEntry: $0) }
                let found = index.clusters(in: box, zoom: zoom)
                #expect(found.count == expected.count, "zoom \(zoom) box \(box)")
                #expect(Set(found) == Set(expected), "zoom \(zoom) box \(box)")
            }
            // The whole world: every shown entry, coordinates exactly as the entry table gives them.
            #expect(Set(index.clusters(in: .world, zoom: zoom)) == Set(shown.map { index.node(ofEntry: $0) }))
        }
    }
}
