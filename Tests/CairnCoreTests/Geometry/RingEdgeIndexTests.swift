import CairnTestSupport
import Foundation
import Testing
@testable import CairnCore

/// `RingEdgeIndex.crossing` against an integer oracle (rings on an exact grid, `base + k · unit`: on an edge is
/// the boundary, else the winding number decides) and against `ShapeRing.crossing` over the whole ring, on seeded
/// rings of 3 to 700 vertices (stars with collinear vertices, combs of long edges, rings of one latitude), at
/// random points, every vertex, grid points on and beside every edge, and the bands' own edges.
@Suite struct RingEdgeIndexTests {
    typealias GridRing = [(Int64, Int64)]

    /// The oracle's answer for one closed ring.
    static func oracle(_ ring: GridRing, _ p: (Int64, Int64)) -> ShapeRing.Crossing {
        for i in 0..<(ring.count - 1) where ShapeCoversTests.onSegment(ring[i], ring[i + 1], p) { return .boundary }
        return ShapeCoversTests.winding(ring, p) != 0 ? .odd : .even
    }

    /// A comb whose teeth span the ring's whole height: every tooth's two edges meet every band, so the build must
    /// halve the bands to stay within `maximumEntriesPerEdge`.
    static func tallComb(teeth: Int) -> GridRing {
        var ring: GridRing = [(0, -100)]
        for tooth in 0..<teeth {
            let x = Int64(tooth) * 20
            ring += [(x, 1_000), (x + 10, 1_000), (x + 10, 0), (x + 20, 0)]
        }
        ring += [(Int64(teeth) * 20, -100), (0, -100)]
        return ring
    }

    /// Seeded closed rings of every size the index meets.
    static func rings(random: inout SplitMix64) -> [GridRing] {
        var rings: [GridRing] = []
        for count in [3, 4, 7, 8, 9, 16, 41, 64, 200, 700] {
            rings.append(ShapeCoversTests.starRing(cx: 0, cy: 0, count: count, radii: 400...1_000, clockwise: random.chance(0.5),
                                                   random: &random))
        }
        rings.append(tallComb(teeth: 60))
        // Horizontal edges on the points' grid lines: an axis-aligned staircase.
        var stairs: GridRing = [(0, 0)]
        for step in 1...40 { stairs += [(Int64(step) * 30, Int64(step - 1) * 30), (Int64(step) * 30, Int64(step) * 30)] }
        stairs += [(0, 1_200), (0, 0)]
        rings.append(stairs)
        return rings
    }

    /// The index of `rings` at `base + k · unit` degrees.
    static func index(_ rings: [GridRing], baseLongitude: Double, baseLatitude: Double, unit: Double) -> RingEdgeIndex {
        var starts: ContiguousArray<UInt32> = [0]
        var positions = ContiguousArray<Double>()
        for ring in rings {
            for (x, y) in ring { positions += [baseLongitude + Double(x) * unit, baseLatitude + Double(y) * unit] }
            starts.append(UInt32(positions.count / 2))
        }
        return RingEdgeIndex(ringStarts: starts, positions: positions)
    }

    /// Grid points to test ring `ring` at: random, its vertices, points on and beside its edges.
    static func points(_ ring: GridRing, random: inout SplitMix64) -> [(Int64, Int64)] {
        var points: [(Int64, Int64)] = (0..<400).map { _ in (Int64(random.below(2_600)) - 1_300, Int64(random.below(2_600)) - 1_300) }
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            points += [a, (a.0 + 1, a.1), (a.0 - 1, a.1), (a.0, a.1 + 1), (a.0, a.1 - 1)]
            let steps = ShapeCoversTests.gcd(abs(b.0 - a.0), abs(b.1 - a.1))
            guard steps > 1 else { continue }
            let dx = (b.0 - a.0) / steps, dy = (b.1 - a.1) / steps
            let t = Int64(1 + random.below(Int(steps - 1)))
            let p = (a.0 + t * dx, a.1 + t * dy)
            points += [p, (p.0 + 1, p.1), (p.0 - 1, p.1)]
        }
        return points
    }

    @Test(arguments: [(0.0, 0.0, 1.0), (24.9, 60.1, 0x1p-30), (-179.5, -89.0, 0x1p-14), (179.0, 89.0, 0x1p-12)])
    func crossingMatchesTheOracleAndTheWholeRing(base: (Double, Double, Double)) {
        var random = SplitMix64(seed: 1_915)
        let (baseLongitude, baseLatitude, unit) = base
        for _ in 0..<2 {
            let rings = RingEdgeIndexTests.rings(random: &random)
            let index = RingEdgeIndexTests.index(rings, baseLongitude: baseLongitude, baseLatitude: baseLatitude, unit: unit)
            #expect(index.ringCount == rings.count)
            index.positions.withUnsafeBufferPointer { positions in
                for (number, ring) in rings.enumerated() {
                    let range = Int(index.ringStarts[number])..<Int(index.ringStarts[number + 1])
                    var checked = 0
                    for p in RingEdgeIndexTests.points(ring, random: &random) {
                        let x = baseLongitude + Double(p.0) * unit, y = baseLatitude + Double(p.1) * unit
                        let expected = RingEdgeIndexTests.oracle(ring, p)
                        #expect(index.crossing(ring: number, x: x, y: y) == expected, "ring \(number) (\(ring.count)) point \(p)")
                        #expect(ShapeRing.crossing(positions, range, x: x, y: y) == expected, "ring \(number) point \(p)")
                        checked += expected == .even ? 0 : 1
                    }
                    #expect(checked > 0, "ring \(number): the points must reach it")
                }
            }
        }
    }

    /// Latitudes on and next to every band's edges, where the build and the query must agree on a band.
    @Test func bandEdgesAgreeWithTheWholeRing() {
        var random = SplitMix64(seed: 77)
        let rings = RingEdgeIndexTests.rings(random: &random)
        let index = RingEdgeIndexTests.index(rings, baseLongitude: 24.9, baseLatitude: 60.1, unit: 0x1p-20 * 3)
        index.positions.withUnsafeBufferPointer { positions in
            for number in 0..<index.ringCount {
                let range = Int(index.ringStarts[number])..<Int(index.ringStarts[number + 1])
                let (south, north, perDegree, bands) = index.header(ofRing: number)
                var latitudes = [south, north, south.nextDown, north.nextUp]
                for band in 0...bands where perDegree > 0 {
                    let edge = south + Double(band) / perDegree
                    latitudes += [edge.nextDown, edge, edge.nextUp]
                }
                // Every vertex's latitude, at its longitude and beside it: the edges that end there.
                for position in range { latitudes.append(positions[2 * position + 1]) }
                for y in latitudes {
                    for x in [positions[2 * range.lowerBound], 24.9 + random.uniform(-0.01...0.01), 24.9 + 0.0005] {
                        #expect(index.crossing(ring: number, x: x, y: y) == ShapeRing.crossing(positions, range, x: x, y: y),
                                "ring \(number) at \(x), \(y)")
                    }
                }
            }
        }
    }

    @Test func entriesStayLinearAndBandsFollowTheEdges() {
        var random = SplitMix64(seed: 5)
        let rings = RingEdgeIndexTests.rings(random: &random)
        let index = RingEdgeIndexTests.index(rings, baseLongitude: 0, baseLatitude: 0, unit: 1)
        for (number, ring) in rings.enumerated() {
            let edges = ring.count - 1
            let bands = index.header(ofRing: number).bands
            let entries = index.entryCount(ofRing: number)
            if edges < RingEdgeIndex.smallestBandedRing {
                // Read whole: no bands.
                #expect(bands == 0 && entries == 0, "ring \(number)")
                continue
            }
            #expect(entries <= RingEdgeIndex.maximumEntriesPerEdge * edges + bands, "ring \(number): \(entries) for \(edges) edges")
            #expect(entries >= edges)
        }
        // A smooth ring (radii within 1 %) keeps a band per `edgesPerBand` edges; the spiky stars above may not.
        let smooth = ShapeCoversTests.starRing(cx: 0, cy: 0, count: 2_000, radii: 99_000...100_000, clockwise: false, random: &random)
        let smoothIndex = RingEdgeIndexTests.index([smooth], baseLongitude: 0, baseLatitude: 0, unit: 0x1p-20)
        #expect(smoothIndex.header(ofRing: 0).bands == (smooth.count - 1) / RingEdgeIndex.edgesPerBand)
        #expect(smoothIndex.entryCount(ofRing: 0) <= 3 * (smooth.count - 1))
        // The tall comb's teeth meet every band: its bands were halved.
        let comb = rings.count - 2
        let combBands = index.header(ofRing: comb).bands
        #expect(combBands < (rings[comb].count - 1) / RingEdgeIndex.edgesPerBand)
    }

    /// Rings of one latitude (short, read whole; long, one band), of one position, and empty: no division by a zero
    /// height, nothing covered off them
    /// (a `Shape` never holds the last two, it needs four positions a ring, but the index must not trap on them).
    @Test func degenerateRingsAreSafe() {
        let flat: GridRing = [(0, 5), (10, 5), (20, 5), (0, 5)]
        let index = RingEdgeIndexTests.index([flat, [(3, 3)], []], baseLongitude: 0, baseLatitude: 0, unit: 1)
        #expect((0..<3).map { index.header(ofRing: $0).bands } == [0, 0, 0])
        // The same long enough to be banded: one band, every edge in it.
        let long: GridRing = (0...80).map { (Int64($0), 5) } + [(0, 5)]
        let banded = RingEdgeIndexTests.index([long], baseLongitude: 0, baseLatitude: 0, unit: 1)
        #expect(banded.header(ofRing: 0).bands == 1 && banded.entryCount(ofRing: 0) == long.count - 1)
        #expect(banded.crossing(ring: 0, x: 40.5, y: 5) == .boundary)
        #expect(banded.crossing(ring: 0, x: 81, y: 5) == .even)
        #expect(banded.crossing(ring: 0, x: 40, y: 4) == .even)
        #expect(index.crossing(ring: 0, x: 15, y: 5) == .boundary)
        #expect(index.crossing(ring: 0, x: 25, y: 5) == .even)
        #expect(index.crossing(ring: 0, x: 15, y: 6) == .even)
        // One position is read as the whole-ring test reads it: a point, its own boundary.
        #expect(index.crossing(ring: 1, x: 3, y: 3) == .boundary)
        #expect(index.crossing(ring: 1, x: 3, y: 4) == .even)
        #expect(index.crossing(ring: 2, x: 0, y: 0) == .even)
        #expect(index.crossing(ring: 0, x: 5, y: .nan) == .even)
    }
}
