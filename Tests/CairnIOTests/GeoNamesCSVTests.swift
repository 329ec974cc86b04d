import CairnCore
import CairnIO
import Foundation
import Testing
import CairnTestSupport

/// Reads the start of the real GeoNames file in `Data/`.
@Suite("GeoNames CSV")
struct GeoNamesCSVTests {
    @Test("the first 5000 rows of geonames-cities500.csv.gz")
    func firstRows() throws {
        let reader = try openFeatureReader(path: try RepositoryData.path("Data/geonames-cities500.csv.gz"), options: ImportOptions(idColumn: "geonameid", defaultRadiusMeters: 150))
        var features: [(line: Int, feature: Feature)] = []
        while features.count < 5000, let record = try reader.next() {
            switch record {
            case .feature(let feature, let line): features.append((line, feature))
            case .rejected(let rejection): Issue.record("unexpected rejection: \(rejection)")
            }
        }
        try #require(features.count == 5000)
        // One record per line: the file has no quoted line breaks in its first rows.
        #expect(features.map(\.line) == Array(2...5001))
        let first = features[0].feature
        #expect(first.id == "12")
        #expect(first.kind == .place)
        #expect(first.radiusMeters == 150)
        #expect(first.location == (try Coordinate(latitude: 32.05908, longitude: 48.86752)))
        #expect(first.attributes["name"] == .string("Takht-e Qeyşar"))
        #expect(first.attributes["country"] == .string("IR"))
        #expect(first.attributes["population"] == .number(1266))
        #expect(first.attributes["timezone"] == .string("Asia/Tehran"))
        #expect(Set(features.map(\.feature.id)).count == 5000)
        #expect(reader.bytesConsumed > 0 && reader.bytesConsumed <= reader.fileSizeBytes)
    }
}
