import CairnTestSupport
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// Issue #15 item 3: an `--out` that names the store, its WAL/SHM/snapshot files, an input of the same command or
/// another output is refused (by file identity, whatever the spelling) with exit status 1, and nothing is written.
@Suite(.serialized) struct OutputSafetyTests {
    let folder: TemporaryFolder
    let db: String
    let places: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path + "/o.sqlite"
        places = try folder.write("places.csv", "id,name,lat,lon,radius\nhel,Helsinki,60.16952,24.93545,2km\nesp,Espoo,60.2052,24.6522,5km\n")
        var command = try CairnCommand.parseAsRoot(["import", places, "--db", db, "--no-progress"])
        try command.run()
    }

    /// Runs a command and returns the message of the `CLIError` it throws (exit status 1), nil when it succeeds.
    func refusal(_ arguments: [String]) throws -> String? {
        var command = try CairnCommand.parseAsRoot(arguments)
        do {
            try command.run()
            return nil
        } catch let error as CLIError {
            return error.description
        }
    }

    func storeIsWhole() throws {
        let store = try FeatureStore(path: db)
        #expect(try store.feature(id: "hel") != nil && store.feature(id: "esp") != nil)
    }

    /// Every spelling of the store, its side files and its snapshot: plain, `./`, `dir/..`, a symbolic link, a hard link.
    func spellingsOfTheStore() throws -> [(path: String, role: String)] {
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.path + "/link.sqlite", withDestinationPath: db)
        try manager.linkItem(atPath: db, toPath: folder.path + "/hard.sqlite")
        try manager.createDirectory(atPath: folder.path + "/sub", withIntermediateDirectories: true)
        return [(db, "is the store"), (folder.path + "/./o.sqlite", "is the store"), (folder.path + "/sub/../o.sqlite", "is the store"),
                (folder.path + "/link.sqlite", "is the store"), (folder.path + "/hard.sqlite", "is the store"),
                (db + "-wal", "write-ahead log"), (db + "-shm", "shared-memory index"), (db + ".snapshot", "snapshot")]
    }

    @Test func queryOutOntoTheStoreIsRefused() throws {
        for (path, role) in try spellingsOfTheStore() {
            for query in [["bbox", "--bbox", "20,55,30,65"], ["around", "--lat", "60.17", "--long", "24.94", "--rad", "50km"]] {
                let message = try #require(try refusal(query + ["--db", db, "--out", path]), "\(query[0]) --out \(path) was not refused")
                #expect(message.contains("--out \(path) \(role)") || message.contains(role), "\(message)")
                #expect(message.contains("give another output path"))
            }
        }
        try storeIsWhole()
        // Standard output and any other file still work.
        #expect(try refusal(["bbox", "--bbox", "20,55,30,65", "--db", db, "--out", folder.path + "/r.geojson"]) == nil)
        #expect(try String(contentsOfFile: folder.path + "/r.geojson", encoding: .utf8).contains("hel"))
    }

    /// A store reached through a symbolic link keeps its side files beside the file it points to (SQLite resolves
    /// the link): those are guarded too.
    @Test func theSideFilesOfALinkedStoreAreGuarded() throws {
        try FileManager.default.createDirectory(atPath: folder.path + "/elsewhere", withIntermediateDirectories: true)
        let link = folder.path + "/elsewhere/link.sqlite"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: db)
        #expect(try refusal(["bbox", "--bbox", "20,55,30,65", "--db", link, "--out", db + "-wal"])?.contains("write-ahead log") == true)
        try storeIsWhole()
    }

    @Test func clusterOutOntoTheStoreOrItsInputIsRefused() throws {
        #expect(try refusal(["cluster", "--zoom", "3", "--db", db, "--out", folder.path + "/./o.sqlite"])?.contains("is the store") == true)
        #expect(try refusal(["cluster", "--zoom", "3", "--input", places, "--out", places])?.contains("is the input --input") == true)
        try storeIsWhole()
        #expect(try String(contentsOfFile: places, encoding: .utf8).hasPrefix("id,name"))
    }

    @Test func snapshotOutOntoTheStoreIsRefusedButItsOwnSnapshotIsWritten() throws {
        for path in [db, folder.path + "/./o.sqlite", db + "-wal"] {
            #expect(try refusal(["snapshot", "--db", db, "--out", path]) != nil, "snapshot --out \(path) was not refused")
        }
        try storeIsWhole()
        #expect(try refusal(["snapshot", "--db", db, "--out", db + ".snapshot"]) == nil)
    }

    @Test func checkInsOutOntoAnInputOrTheOtherOutputIsRefused() throws {
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\nc1,u,,hel,60.17,24.94,2026-05-01T10:30:00Z\n")
        let before = try String(contentsOfFile: checkIns, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/places-link.csv", withDestinationPath: places)
        let base = ["checkins", "validate", "--places", places, "--checkins", checkIns]
        #expect(try refusal(base + ["--out", checkIns])?.contains("is the input --checkins") == true)
        #expect(try refusal(base + ["--out", folder.path + "/places-link.csv"])?.contains("is the input --places") == true)
        #expect(try refusal(base + ["--db", db, "--out", db + "-wal"])?.contains("write-ahead log") == true)
        #expect(try refusal(base + ["--stats-out", checkIns])?.contains("is the input --checkins") == true)
        let out = folder.path + "/v.csv"
        #expect(try refusal(base + ["--out", out, "--stats-out", folder.path + "/./v.csv"])?.contains("the file --out writes") == true)
        #expect(try String(contentsOfFile: checkIns, encoding: .utf8) == before)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(try refusal(base + ["--out", out]) == nil)
    }

    @Test func generateOntoItsTownsFileIsRefused() throws {
        let towns = try folder.write("places.csv", "geonameid,name,latitude,longitude\n1,A,60,24\n")
        let message = try refusal(["generate", "--towns", towns, "--out", folder.path, "--parks", "1", "--checkins", "0"])
        #expect(message?.contains("is the input --towns") == true)
        #expect(try String(contentsOfFile: towns, encoding: .utf8).hasPrefix("geonameid"))
    }
}
