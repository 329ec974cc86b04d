import CairnTestSupport
import ArgumentParser
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// The foundation's acceptance check, end to end: the real GeoNames file imports whole.
@Suite struct GeoNamesImportTests {
    @Test func everyGeoNamesPlaceImports() throws {
        let file = packageRoot + "/Data/geonames-cities500.csv.gz"
        try #require(FileManager.default.fileExists(atPath: file), "Data/geonames-cities500.csv.gz is part of the repository")
        let folder = try TemporaryFolder()
        let db = folder.path + "/T.sqlite"
        var command = try CairnCommand.parseAsRoot(["import", file, "--kind", "place", "--id-column", "geonameid", "--db", db, "--no-progress"])
        try command.run()
        let info = try FeatureStore(path: db).info()
        #expect(info.featureCount == 234_908)
        #expect(info.count(of: .place) == 234_908)
        #expect(InfoCommand.json(info, path: db).contains("\"features\":234908"))
        let london = try #require(try FeatureStore(path: db).feature(id: "2643743"))
        #expect(london.attributes["name"] == .string("London"))
    }
}
