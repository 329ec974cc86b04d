import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnIO
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// Issue #15 items 6 and 9 through the command line: ids with control characters, derived ids of files with one
/// base name, duplicate ids across the files of a run, and messages that quote input.
@Suite(.serialized) struct ImportSafetyTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path + "/i.sqlite"
    }

    func runImport(_ files: [String]) throws {
        var command = try CairnCommand.parseAsRoot(["import"] + files + ["--db", db, "--no-progress"])
        try command.run()
    }

    func ids() throws -> [String] {
        var ids: [String] = []
        try FeatureStore(path: db).forEachFeature { ids.append($0.id) }
        return ids.sorted()
    }

    @Test func filesWithOneBaseNameNoLongerOverwriteEachOther() throws {
        for dir in ["d1", "d2"] { try FileManager.default.createDirectory(atPath: folder.path(dir), withIntermediateDirectories: true) }
        let first = try folder.write("d1/p.csv", "name,lat,lon\nA,1,2\nB,3,4\n")
        let second = try folder.write("d2/p.csv", "name,lat,lon\nC,5,6\nD,7,8\n")
        try runImport([first, second])
        #expect(try ids() == [first + ":2", first + ":3", second + ":2", second + ":3"])
    }

    @Test func anIdWithANulByteIsRefusedAndTheOtherRowsAreKept() throws {
        let file = try folder.write("n.csv", "id,lat,lon\npark-1,1,2\npark-1\u{0}evil,1,2\npark-2,3,4\n")
        #expect(throws: ExitCode(3)) { try runImport([file]) }
        #expect(try ids() == ["park-1", "park-2"])
        let stored = try FeatureStore(path: db).feature(id: "park-1")
        #expect(stored?.location == (try Coordinate(latitude: 1, longitude: 2)))
    }

    @Test func errorMessagesOfARunAreEscaped() throws {
        let error = CairnCommand.escapingMessage(of: CLIError("no feature with id 'a\u{1B}[2Jb'\nsecond line"))
        #expect("\(error)" == "no feature with id 'a\\u{1B}[2Jb'\nsecond line")
        let plain = CLIError("nothing to escape")
        #expect((CairnCommand.escapingMessage(of: plain) as? CLIError)?.description == plain.description)
        #expect(CairnCommand.escapingMessage(of: ExitCode(3)) is ExitCode)
    }

    @Test func checkInSummaryMessagesAreEscaped() {
        var summary = CheckInSummary(rows: 1, counts: Array(repeating: 0, count: 16))
        summary.malformedMessages = ["line 2: bad '\u{1B}]0;x\u{7}'"]
        summary.skippedMessages = ["p.csv:3: got '\u{9B}31m'"]
        let text = summary.text
        #expect(text.contains("bad '\\u{1B}]0;x\\u{7}'") && text.contains("got '\\u{9B}31m'"))
        #expect(!text.unicodeScalars.contains { TextEscaping.isControl($0) && $0 != "\n" })
    }
}
