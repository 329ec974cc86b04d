import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// `ClusterWriter.encodeClusters` with kept fragments writes the bytes it writes without them, whichever answers
/// filled the fragments, however small their budget, and with threads filling the same entries at once.
@Suite struct ClusterFeatureFragmentsTests {
    let features: [Feature]
    let index: ClusterIndex

    init() throws {
        var random = SplitMix64(seed: 7)
        // Clumps (clusters at every zoom), identical points (a group) and scattered points, across the antimeridian.
        var made: [Feature] = []
        for i in 0..<3_000 {
            let clump = i % 3 == 0
            let latitude = clump ? 60 + random.unit() * 0.01 : random.unit() * 160 - 80
            let longitude = clump ? 179.995 + random.unit() * 0.01 : random.unit() * 360 - 180
            made.append(try Feature(id: "p\(i)", kind: .place, location: Coordinate(latitude: latitude, longitude: longitude > 180 ? longitude - 360 : longitude),
                                    attributes: ["rank": .number(Double(i % 17))]))
        }
        for i in 0..<5 { made.append(try Feature(id: "same\(i)", kind: .place, location: Coordinate(latitude: -33.9, longitude: 151.2))) }
        features = made
        index = ClusterIndex(features: features)
    }

    static let views: [(box: BoundingBox, zoom: Int)] = {
        // Zooms up to `ClusterIndex.blockLevelLimit` copy whole grid cells as blocks; the boxes cover some cells
        // whole and cut others.
        let boxes: [(Double, Double, Double, Double)] = [(-180, -90, 180, 90), (170, 50, -170, 70), (0, 0, 180, 90), (150, -40, 152, -30),
                                                         (-100, -60, 100, 75), (175, 55, 180, 65)]
        return boxes.flatMap { b in [0, 3, 5, 7, 9, 17].map { (try! BoundingBox(west: b.0, south: b.1, east: b.2, north: b.3), $0) } }
    }()

    @Test(arguments: [0, 2_000, 60_000, 1 << 30])
    func keptFragmentsGiveTheSameBytes(limitBytes: Int) {
        let plain = ClusterWriter(index: index, features: features)
        let kept = ClusterWriter(index: index, features: features, cache: ClusterFeatureFragments(for: index, limitBytes: limitBytes))
        for round in 0..<2 {
            for view in Self.views {
                let expected = plain.encodeCollection(index.clusters(in: view.box, zoom: view.zoom))
                #expect(kept.encodeClusters(in: view.box, zoom: view.zoom) == expected, "round \(round), zoom \(view.zoom), \(view.box)")
            }
        }
    }

    /// The form that writes into the caller's storage (the server's NIO buffer) asks for exactly the answer's size
    /// and fills every byte of it, with kept fragments or without (a filtered hierarchy keeps none).
    @Test(arguments: [false, true])
    func writingIntoTheCallersStorageGivesTheSameBytes(keeping: Bool) {
        let plain = ClusterWriter(index: index, features: features)
        let writer = ClusterWriter(index: index, features: features,
                                   cache: keeping ? ClusterFeatureFragments(for: index, limitBytes: 1 << 30) : nil)
        for round in 0..<2 {
            for view in Self.views {
                let expected = plain.encodeCollection(index.clusters(in: view.box, zoom: view.zoom))
                // Storage with room to spare, filled with a byte no answer holds: a byte not written shows.
                let written = writer.encodeClusters(in: view.box, zoom: view.zoom) { byteCount, fill -> (asked: Int, bytes: [UInt8]) in
                    var storage = [UInt8](repeating: 0xFF, count: byteCount + 64)
                    storage.withUnsafeMutableBytes { fill(UnsafeMutableRawBufferPointer(rebasing: $0[..<byteCount])) }
                    return (byteCount, storage)
                }
                #expect(written.asked == expected.count, "round \(round), zoom \(view.zoom), \(view.box)")
                #expect(Array(written.bytes.prefix(written.asked)) == expected, "round \(round), zoom \(view.zoom), \(view.box)")
                #expect(written.bytes.dropFirst(written.asked).allSatisfy { $0 == 0xFF })
            }
        }
    }

    @Test func threadsFillingTheSameEntriesAgree() async {
        let index = index, features = features
        let fragments = ClusterFeatureFragments(for: index, limitBytes: 1 << 30)
        let plain = ClusterWriter(index: index, features: features)
        let expected = Self.views.map { plain.encodeCollection(index.clusters(in: $0.box, zoom: $0.zoom)) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let kept = ClusterWriter(index: index, features: features, cache: fragments)
                    return zip(Self.views, expected).filter { kept.encodeClusters(in: $0.0.box, zoom: $0.0.zoom) != $0.1 }.count
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }
}
