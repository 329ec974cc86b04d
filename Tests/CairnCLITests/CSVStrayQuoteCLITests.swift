import ArgumentParser
import CairnCore
import CairnIO
import CairnStore
import CairnTestSupport
import Testing
@testable import CairnCLI

/// `cairn import` end to end on a stray quote and an over-long record (issue #15 items 1 and 7): the broken row is
/// rejected by its line, exit status 3, and every other row is stored with its own coordinates.
@Suite struct CSVStrayQuoteCLITests {
    /// The probe's file: a quote opened on line 2 and, later, a row with quotes of its own.
    static let probe = "id,name,lat,lon\na,\"Joe's Bar,1,1\nb,Bob,2,2\nc,Cat,3,3\nd,The \"Dee\" pub,4,4\ne,Eve,5,5\n"

    @Test func theProbesFileImportsFourRowsAndRejectsLineTwo() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("stray.csv", Self.probe)
        let db = folder.path + "/t.sqlite"
        var command = try CairnCommand.parseAsRoot(["import", file, "--db", db, "--no-progress"])
        #expect(throws: ExitCode(3)) { try command.run() }
        let store = try FeatureStore(path: db)
        #expect(try store.count() == 4)
        #expect(try store.feature(id: "a") == nil)
        for (id, value) in [("b", 2.0), ("c", 3), ("d", 4), ("e", 5)] {
            let feature = try #require(try store.feature(id: id))
            #expect(feature.location == (try Coordinate(latitude: value, longitude: value)), "\(id)")
        }
        // What the command prints for it: the file, line 2, and that reading went on.
        var rejections: [RowRejection] = []
        let importer = Importer(options: ImportOptions(), strict: false, reportRejection: { rejections.append($0) },
                                warn: { _ in }, showProgress: false)
        let summary = try importer.run(files: [file], format: nil, into: try FeatureStore(path: folder.path + "/u.sqlite"))
        #expect(summary.line.hasPrefix("imported 4, rejected 1"))
        #expect(rejections.map(\.line) == [2])
        #expect(rejections.first?.description.hasPrefix("\(file):2: a quoted field runs past the end of this line") == true)
    }

    @Test func aRecordOverMaxRecordMiBIsRejectedAloneAndTheFlagRaisesTheLimit() throws {
        let folder = try TemporaryFolder()
        let big = String(repeating: "x", count: (1 << 20) + 10)
        let file = try folder.write("big.csv", "id,name,lat,lon\na,A,1,1\nbig,\(big),2,2\nc,C,3,3\n")
        let db = folder.path + "/t.sqlite"
        var command = try CairnCommand.parseAsRoot(["import", file, "--db", db, "--no-progress", "--max-record-mib", "1"])
        #expect(throws: ExitCode(3)) { try command.run() }
        let store = try FeatureStore(path: db)
        #expect(try store.count() == 2)
        #expect(try store.feature(id: "c")?.location == (try Coordinate(latitude: 3, longitude: 3)))
        var roomy = try CairnCommand.parseAsRoot(["import", file, "--db", folder.path + "/u.sqlite", "--no-progress", "--max-record-mib", "2"])
        try roomy.run()
        #expect(try FeatureStore(path: folder.path + "/u.sqlite").count() == 3)
    }
}
