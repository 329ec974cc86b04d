import CairnStore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCLI

/// Fault tests with real processes: the built `cairn` run as children while an import holds the store's write
/// transaction open (it reads its rows from a pipe that the test keeps open). Other writers wait their turn and say
/// so; readers answer at once from the last committed state.
@Suite(.serialized) struct WriterFaultTests {
    static let database = "s.sqlite"

    /// `id,lat,lon` rows with ids `prefix-first` ... `prefix-last`.
    static func rows(_ prefix: String, _ ids: ClosedRange<Int>) -> String {
        ids.map { "\(prefix)-\($0),\(Double($0 % 170) - 84.5),\(Double($0 % 350) - 174.75)\n" }.joined()
    }

    /// A folder with a store holding `old-1`, `old-2`, `old-3`.
    static func storeWithOldRows() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        let file = try folder.write("old.csv", "id,lat,lon\n" + rows("old", 1...3))
        let result = try CairnProcess.run(["import", file, "--db", database, "--no-progress"], in: folder.path)
        try #require(result.status == 0, "setting up: \(result.error)")
        return folder
    }

    /// Starts `cairn import -` with `rows("a", 1...count)` on its standard input, left open, and returns once its
    /// write transaction holds the store (more than one batch of rows is then written but not committed).
    static func heldImport(in folder: TemporaryFolder, count: Int = 5000) throws -> CairnProcess {
        let importer = try CairnProcess(["import", "-", "--format", "csv", "--db", database, "--no-progress"], in: folder.path)
        try importer.write("id,lat,lon\n" + rows("a", 1...count))
        try waitUntilHeld(folder.path(database), by: importer)
        return importer
    }

    struct Probe: Error {}

    /// Waits until another process holds the store's write lock: a write that may not wait fails with `.busy`.
    static func waitUntilHeld(_ path: String, by importer: CairnProcess) throws {
        let deadline = Date().addingTimeInterval(60)
        let probe = try FeatureStore(path: path, writerWaitSeconds: 0)
        while Date() < deadline {
            do {
                // Rolled back: the probe never commits anything.
                try probe.write { _ in throw Probe() }
            } catch is Probe {
            } catch StoreError.busy {
                return
            } catch StoreError.sqlite(_, _, let code, _) where code & 0xFF == 5 {
                return // SQLITE_BUSY, as a store without a busy handler reports it
            }
            try #require(importer.isRunning, "the import exited early: \(importer.standardError)")
            Thread.sleep(forTimeInterval: 0.01)
        }
        throw CairnProcess.TimedOut(what: "the import to hold the store")
    }

    /// The ids the store answers a whole-world box query with, sorted.
    static func idsInWorld(_ folder: TemporaryFolder) throws -> [String] {
        let result = try CairnProcess.run(["bbox", "--bbox", "-180,-90,180,90", "--format", "ids", "--db", database], in: folder.path)
        try #require(result.status == 0, "bbox: \(result.error)")
        return result.output.split(separator: "\n").map(String.init).sorted()
    }

    static let waitingMessage = "waiting for another writer of s.sqlite to finish (at most 60 s; --wait-seconds changes it)..."

    @Test func twoImportsAtOnceBothLandAndTheSecondWaits() throws {
        let folder = try Self.storeWithOldRows()
        let first = try Self.heldImport(in: folder)
        let file = try folder.write("b.csv", "id,lat,lon\n" + Self.rows("b", 1...3000))
        let second = try CairnProcess(["import", file, "--db", Self.database, "--no-progress"], in: folder.path)
        try second.waitForStandardError(containing: Self.waitingMessage)
        #expect(second.isRunning)

        try first.write(Self.rows("a", 5001...6000))
        try first.closeInput()
        #expect(try first.waitForExit() == 0)
        #expect(first.standardOutput == "imported 6000, rejected 0\n")
        #expect(try second.waitForExit() == 0)
        #expect(second.standardOutput == "imported 3000, rejected 0\n")
        #expect(second.standardError == Self.waitingMessage + "\n")

        let store = try FeatureStore(path: folder.path(Self.database))
        #expect(try store.count() == 3 + 6000 + 3000)
        for id in ["old-2", "a-1", "a-6000", "b-1", "b-3000"] { #expect(try store.feature(id: id) != nil, "\(id)") }
    }

    @Test func queriesDuringAnImportAnswerAtOnceFromTheOldStateThenSeeTheNewRows() throws {
        let folder = try Self.storeWithOldRows()
        let importer = try Self.heldImport(in: folder)

        // Each query exits while the import still holds its transaction: readers do not wait for writers.
        #expect(try Self.idsInWorld(folder) == ["old-1", "old-2", "old-3"])
        let missing = try CairnProcess.run(["get", "a-1", "--db", Self.database], in: folder.path)
        #expect(missing.status == 1)
        let info = try CairnProcess.run(["info", "--db", Self.database], in: folder.path)
        #expect(info.status == 0)
        #expect(info.output.contains("features  3\n"))
        #expect(importer.isRunning)

        try importer.closeInput()
        #expect(try importer.waitForExit() == 0)
        let ids = try Self.idsInWorld(folder)
        #expect(ids.count == 3 + 5000)
        #expect(ids.contains("a-1") && ids.contains("a-5000") && ids.contains("old-3"))
        #expect(try CairnProcess.run(["get", "a-1", "--db", Self.database], in: folder.path).status == 0)
    }

    @Test func aDeleteDuringAnImportWaitsAndThenDeletes() throws {
        let folder = try Self.storeWithOldRows()
        let importer = try Self.heldImport(in: folder)
        let delete = try CairnProcess(["delete", "old-2", "a-7", "--db", Self.database], in: folder.path)
        try delete.waitForStandardError(containing: Self.waitingMessage)
        #expect(delete.isRunning)

        try importer.closeInput()
        #expect(try importer.waitForExit() == 0)
        #expect(try delete.waitForExit() == 0)
        // The delete ran after the import committed, so it found a-7, which the import wrote.
        #expect(delete.standardOutput == "deleted old-2\ndeleted a-7\n")
        let store = try FeatureStore(path: folder.path(Self.database))
        #expect(try store.feature(id: "old-2") == nil)
        #expect(try store.feature(id: "a-7") == nil)
        #expect(try store.count() == 3 + 5000 - 2)
    }

    @Test func aWriterGivesUpAtItsBoundAndWritesNothing() throws {
        let folder = try Self.storeWithOldRows()
        let importer = try Self.heldImport(in: folder)
        let delete = try CairnProcess.run(["delete", "old-1", "--db", Self.database, "--wait-seconds", "0.5"], in: folder.path)
        #expect(delete.status == 1)
        #expect(delete.error.hasPrefix(
            "waiting for another writer of s.sqlite to finish (at most 0.5 s; --wait-seconds changes it)...\n"))
        #expect(delete.error.contains(
            "s.sqlite: write transaction gave up: another writer still held the store after 0.5 s of waiting"))
        try importer.closeInput()
        #expect(try importer.waitForExit() == 0)
        #expect(try FeatureStore(path: folder.path(Self.database)).feature(id: "old-1") != nil)
    }

    @Test(arguments: ["-1", "nan", "inf"])
    func waitSecondsMustBeAFiniteNumberOfSecondsZeroOrMore(value: String) {
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["delete", "x", "--wait-seconds", value]) }
    }
}
