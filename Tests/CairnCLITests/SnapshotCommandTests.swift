import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// The CLI's snapshot cache next to the store and `cairn snapshot`, run in-process.
@Suite struct SnapshotCommandTests {
    /// A store with `count` places in a temporary folder.
    func makeStore(_ folder: TemporaryFolder, count: Int = 30) throws -> String {
        let db = folder.path + "/s.sqlite"
        let store = try FeatureStore(path: db)
        try store.upsert(try (0..<count).map { n in
            try Feature(id: "p\(n)", kind: .place, location: Coordinate(latitude: 60 + Double(n) * 0.001, longitude: 25),
                        radiusMeters: 500, attributes: ["name": .string("place \(n)"), "n": .number(Double(n))])
        })
        return db
    }

    /// Parses and runs a command line, as `cairn` would.
    func run(_ arguments: [String]) throws {
        var command = try CairnCommand.parseAsRoot(arguments)
        try command.run()
    }

    func queryOptions(_ arguments: [String]) throws -> QueryOptions {
        try QueryOptions.parse(arguments)
    }

    @Test func aQueryWritesTheSnapshotAndTheNextOneLoadsIt() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        let snapshot = db + ".snapshot"
        #expect(!FileManager.default.fileExists(atPath: snapshot))
        let first = try queryOptions(["--db", db]).loadIndexExplained()
        #expect(first.note.contains("built from the store"))
        #expect(FileManager.default.fileExists(atPath: snapshot))
        let file = try SnapshotFile(contentsOf: snapshot)
        #expect(file.metadata[StoreIndex.generationKey] == "1")
        let second = try queryOptions(["--db", db]).loadIndexExplained()
        #expect(second.note.contains("loaded from snapshot"))
        #expect(second.index.features == first.index.features)
        // --no-snapshot builds from the store.
        let bypass = try queryOptions(["--db", db, "--no-snapshot"]).loadIndexExplained()
        #expect(bypass.note.contains("--no-snapshot"))
    }

    @Test func aDeleteIsVisibleToTheNextQuery() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        try run(["bbox", "--bbox", "24,59,26,61", "--db", db, "--format", "ids"])
        #expect(try SnapshotFile(contentsOf: db + ".snapshot").metadata[StoreIndex.generationKey] == "1")
        try run(["delete", "p3", "p7", "--db", db])
        let after = try queryOptions(["--db", db]).loadIndexExplained()
        #expect(after.note.contains("stale"))
        #expect(after.index.count == 28)
        #expect(!after.index.features.contains { $0.id == "p3" || $0.id == "p7" })
        // The rewritten snapshot now holds the store as it is.
        let reloaded = try queryOptions(["--db", db]).loadIndexExplained()
        #expect(reloaded.note.contains("loaded from snapshot"))
        #expect(reloaded.index.features.map(\.id) == after.index.features.map(\.id))
        #expect(try SnapshotFile(contentsOf: db + ".snapshot").metadata[StoreIndex.generationKey] == "3")
    }

    @Test func anImportIsVisibleToTheNextQuery() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        _ = try queryOptions(["--db", db]).loadIndexExplained().index
        let csv = try folder.write("more.csv", "id,lat,lon,name\nnew-1,61,25,fresh\n")
        try run(["import", csv, "--db", db])
        let index = try queryOptions(["--db", db]).loadIndexExplained().index
        #expect(index.count == 31)
        #expect(index.features.contains { $0.id == "new-1" })
    }

    @Test func aStoreRecreatedAtTheSamePathIsNotConfusedWithTheOld() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder, count: 30)
        _ = try queryOptions(["--db", db]).loadIndexExplained().index
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) }
        _ = try makeStore(folder, count: 5) // generation 1 again, but a new identifier
        let index = try queryOptions(["--db", db]).loadIndexExplained().index
        #expect(index.count == 5)
    }

    @Test func aDamagedSnapshotIsReplaced() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        _ = try queryOptions(["--db", db]).loadIndexExplained().index
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db + ".snapshot"))
        bytes[bytes.count - 3] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: db + ".snapshot"))
        let loaded = try queryOptions(["--db", db]).loadIndexExplained()
        #expect(loaded.note.contains("checksum mismatch"))
        #expect(loaded.index.count == 30)
        #expect(try queryOptions(["--db", db]).loadIndexExplained().note.contains("loaded from snapshot"))
    }

    /// The rebuild after a refused snapshot is said on stderr (the README promises it is never silent), and the
    /// answer is the store's.
    @Test func aRebuildAfterARefusedSnapshotIsSaidOnStandardError() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        let query = ["bbox", "--bbox", "24,59,26,61", "--db", db, "--format", "ids"]
        let first = try CairnProcess.run(query, in: folder.path)
        #expect(first.status == 0 && !first.error.contains("warning"))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: db + ".snapshot"))
        bytes[SnapshotFormat.headerBytes + 9] ^= 0x01 // a section offset: refused when the file is opened
        try bytes.write(to: URL(fileURLWithPath: db + ".snapshot"))
        let second = try CairnProcess.run(query, in: folder.path)
        #expect(second.status == 0)
        #expect(second.output == first.output)
        #expect(second.error.contains("warning: ") && second.error.contains("rebuilt from the store"), "\(second.error)")
        let third = try CairnProcess.run(query, in: folder.path)
        #expect(third.error.isEmpty, "\(third.error)")
    }

    @Test func snapshotCommandWritesAndVerifies() throws {
        let folder = try TemporaryFolder()
        let db = try makeStore(folder)
        let out = folder.path + "/explicit.snapshot"
        try run(["snapshot", "--db", db, "--out", out])
        let file = try SnapshotFile(contentsOf: out)
        #expect(try FeatureIndex(snapshot: file).count == 30)
        #expect(file.metadata[StoreIndex.identifierKey] == (try FeatureStore(path: db).identifier()))
        try run(["snapshot", "--verify", out])
        // A truncated file fails verification with the reason.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
        try bytes.prefix(bytes.count - 10).write(to: URL(fileURLWithPath: out))
        let error = #expect(throws: CLIError.self) { try run(["snapshot", "--verify", out]) }
        #expect(error?.description.contains("truncated at byte \(bytes.count - 10) of \(bytes.count)") == true)
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["snapshot", "--verify", out, "--out", out]) }
    }
}
