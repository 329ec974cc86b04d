@testable import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

/// The encoders reuse one feature's sorted attribute names for the next (`AttributeOrder`): rows with the same
/// number of attributes but other names, the same names inserted in another order, names that differ only past a
/// small string's 15 bytes, and non-ASCII names must each still come out in name order.
@Suite struct AttributeOrderTests {
    static let names = ["a", "b", "Z", "name", "population", "é", "ö", "long name past fifteen bytes 1",
                        "long name past fifteen bytes 2", "😀", "timezone", "admin1", "country"]

    func feature(_ n: Int, _ attributes: [String: AttributeValue]) -> Feature {
        Feature(uncheckedId: "f\(n)", kind: .place, location: Coordinate(uncheckedLatitude: 1, longitude: 2),
                radiusMeters: nil, timeWindow: nil, attributes: attributes)
    }

    @Test func sameCountOtherNamesKeepNameOrder() {
        let rows = [
            feature(0, ["b": .number(1), "a": .number(2), "c": .number(3)]),
            feature(1, ["a": .number(4), "c": .number(5), "d": .number(6)]), // same count, one name swapped
            feature(2, ["d": .number(7), "c": .number(8), "a": .number(9)]), // the previous names, inserted otherwise
            feature(3, ["z": .number(1), "a": .number(2)]),
        ].map { QueryResultRow(feature: $0) }
        let bytes = String(decoding: QueryResultWriter(format: .json).encode(rows), as: UTF8.self)
        #expect(bytes == """
            [
            {"id":"f0","kind":"place","latitude":1,"longitude":2,"a":2,"b":1,"c":3},
            {"id":"f1","kind":"place","latitude":1,"longitude":2,"a":4,"c":5,"d":6},
            {"id":"f2","kind":"place","latitude":1,"longitude":2,"a":9,"c":8,"d":7},
            {"id":"f3","kind":"place","latitude":1,"longitude":2,"a":2,"z":1}
            ]

            """)
    }

    /// Seeded runs of features drawn from a small pool of names, so that the count often repeats while the names
    /// change: every format and the cluster leaves against the old encoders, which sorted each feature's names.
    @Test(arguments: [21, 22, 23, 24])
    func manyFeaturesMatchTheOldEncoders(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var features: [Feature] = []
        var previous: [String] = []
        for n in 0..<400 {
            var names: [String]
            switch Int.random(in: 0..<4, using: &random) {
            case 0 where !previous.isEmpty: names = previous.shuffled(using: &random) // the same names, another insertion
            case 1 where !previous.isEmpty: // the same count, one name replaced
                names = previous
                names[Int.random(in: 0..<names.count, using: &random)] = Self.names.randomElement(using: &random) ?? "a"
            default: names = (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.names.randomElement(using: &random) ?? "a" }
            }
            var attributes: [String: AttributeValue] = [:]
            for name in names { attributes[name] = .number(Double(Int.random(in: 0..<100, using: &random))) }
            previous = Array(attributes.keys)
            features.append(feature(n, attributes))
        }
        let rows = features.map { QueryResultRow(feature: $0) }
        for format in QueryResultFormat.allCases {
            #expect(QueryResultWriter(format: format).encode(rows) == Array(LegacyQueryResultWriter(format: format).write(rows).utf8),
                    "\(format), seed \(seed)")
        }
        let hits = features.enumerated().map { DynamicHit(feature: $1, distanceMeters: $0 % 3 == 0 ? nil : Double($0) / 7) }
        let measured = hits.map { QueryResultRow(feature: $0.feature, distanceMeters: $0.distanceMeters) }
        for format in QueryResultFormat.allCases { // a server's hits as they are: the bytes of rows made from them
            #expect(QueryResultWriter(format: format).encode(hits[...]) == QueryResultWriter(format: format).encode(measured))
            #expect(QueryResultWriter(format: format).encode(hits.prefix(7)) == QueryResultWriter(format: format).encode(Array(measured.prefix(7))))
        }
        let index = ClusterIndex(features: features, options: .standard)
        let leaves = features.indices.map { ClusterNode(content: .point($0), coordinate: index.coordinate(ofPoint: $0), pointCount: 1) }
        let writer = ClusterWriter(index: index, features: features, clusterIDOffset: 0)
        let old = LegacyClusterWriter(index: index, features: features, clusterIDOffset: 0)
        #expect(writer.encodeCollection(leaves) == Array(old.writeCollection(leaves).utf8), "seed \(seed)")
    }
}
