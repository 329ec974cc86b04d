import Foundation
import Testing
import CairnTestSupport
@testable import CairnCore

/// Cairn's clusters of the real Helsinki POIs (Data/osm-helsinki-poi.csv) against golden files produced by the
/// independent Python reference, whose command line heads each file (Tests/Golden/cluster-helsinki*.txt).
@Suite("ClusterIndex golden files (Helsinki POIs)")
struct ClusterGoldenTests {
    @Test("whole levels equal the reference", arguments: [
        ("cluster-helsinki.txt", try! ClusterOptions()),
        ("cluster-helsinki-float64.txt", try! ClusterOptions(precision: .float64)),
        ("cluster-helsinki-minpoints4.txt", try! ClusterOptions(radiusPixels: 60, extent: 256, maxZoom: 17, minPoints: 4)),
        // Groups below minPoints pass their neighbours on in k-d tree order: the levels differ from level order here.
        ("cluster-helsinki-minpoints5.txt", try! ClusterOptions(minPoints: 5)),
    ])
    func golden(file: String, options: ClusterOptions) throws {
        let points = try HelsinkiData.coordinates()
        try #require(points.count == 1744)
        let index = ClusterIndex(coordinates: points, options: options)
        let text = String(decoding: try RepositoryData.bytes("Tests/Golden/\(file)"), as: UTF8.self)
        var expected: [Int: [ClusterOracle.Entry]] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let f = line.split(separator: " ")
            let zoom = try #require(Int(f[0]))
            expected[zoom, default: []].append(.init(x: try #require(Double(f[2])), y: try #require(Double(f[3])),
                                                     weight: try #require(Int(f[1])), members: f[4...].compactMap { Int($0) },
                                                     id: nil, children: []))
        }
        try #require(expected.count >= 5)
        for (zoom, level) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(level.reduce(0) { $0 + $1.weight } == points.count)
            let problems = clusterDifferences(try index.oracleShaped(zoom: zoom), level, tolerance: 1e-9, ids: false)
            #expect(problems.isEmpty, "\(file) zoom \(zoom): \(problems)")
        }
    }
}

enum HelsinkiData {
    /// Columns `osm_id,lon,lat,...`: the first three fields are never quoted.
    static func coordinates() throws -> [Coordinate] {
        let text = String(decoding: try RepositoryData.bytes("Data/osm-helsinki-poi.csv"), as: UTF8.self)
        return try text.split(whereSeparator: \.isNewline).dropFirst().map { line in
            let f = line.split(separator: ",", maxSplits: 3, omittingEmptySubsequences: false)
            return try Coordinate(latitude: try #require(Double(f[2])), longitude: try #require(Double(f[1])))
        }
    }
}
