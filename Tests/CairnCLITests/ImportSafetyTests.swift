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

/// Issue #15 item 9b: an id that a later file of the same run gives again is counted in one warning at the end,
/// with examples naming both places; a re-import in another run is no duplicate.
@Suite struct RunDuplicateIdTests {
    func importFiles(_ files: [String], db: String) throws -> (summary: ImportSummary, warnings: [String]) {
        var warnings: [String] = []
        let importer = Importer(options: ImportOptions(), strict: false, reportRejection: { _ in },
                                warn: { warnings.append($0) }, showProgress: false)
        let summary = try importer.run(files: files, format: nil, into: try FeatureStore(path: db))
        return (summary, warnings)
    }

    @Test func idsGivenAgainByALaterFileAreWarnedOnce() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/d.sqlite"
        let a = try folder.write("a.csv", "id,lat,lon\nx,1,1\ny,2,2\nz,3,3\n")
        let b = try folder.write("b.csv", "id,lat,lon\ny,4,4\nw,5,5\nz,6,6\n")
        let c = try folder.write("c.jsonl", "{\"id\":\"w\",\"lat\":7,\"lon\":7}\n{\"id\":\"v\",\"lat\":8,\"lon\":8}\n{\"id\":\"x\",\"lat\":9,\"lon\":9}\n")
        let first = try importFiles([a, b, c], db: db)
        #expect(first.summary.imported == 9)
        #expect(first.warnings == ["4 rows gave an id that an earlier file of this run had given; the later row wins: "
                                   + "'y' at \(b):2 (first at \(a):3), 'z' at \(b):4 (first at \(a):4), 'w' at \(c):1 (first at \(b):3), …"])
        #expect(try FeatureStore(path: db).feature(id: "z")?.location.latitude == 6)
        // Another run over the same store replaces the stored rows: no warning.
        #expect(try importFiles([b], db: db).warnings.isEmpty)
        // A repeat inside one file gets the file's own warning, and is not counted as a later file's.
        let d = try folder.write("d.csv", "id,lat,lon\nq,1,1\nq,2,2\n")
        #expect(try importFiles([d], db: db).warnings.count == 1)
        // An id stored before the run, given by two files of it (and twice by the second).
        let e = try folder.write("e.csv", "id,lat,lon\nn,1,1\nx,1,1\n")
        let f = try folder.write("f.csv", "id,lat,lon\nx,2,2\nx,3,3\n")
        #expect(try importFiles([e, f], db: db).warnings == [
            "\(f): 1 row gave an id that an earlier row of the file had given; the later row wins: 'x' at line 3 (first at \(e):3)",
            "1 row gave an id that an earlier file of this run had given; the later row wins: 'x' at \(f):2 (first at \(e):3)"])
    }
}
