import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnIO
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// The defects of issue #14 (item 7), each pinned by a test that failed before its fix.
@Suite(.serialized) struct CLIDefectTests {
    let folder: TemporaryFolder
    let db: String
    let places: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path + "/d.sqlite"
        places = try folder.write("places.csv", """
            id,name,lat,lon,radius
            hel,Helsinki,60.16952,24.93545,2km
            esp,Espoo,60.2052,24.6522,5km

            """)
    }

    func run(_ arguments: [String]) throws {
        var command = try CairnCommand.parseAsRoot(arguments)
        try command.run()
    }

    /// Every byte of a file, gunzipped when it is gzip (ByteSource passes plain files through).
    func contents(_ path: String) throws -> [UInt8] {
        let source = try ByteSource(path: path)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let read = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if read == 0 { return bytes }
            bytes += chunk[..<read]
        }
    }

    @Test func eventsFindPlacesImportedByTheSameRun() throws {
        let events = try folder.write("events.csv", """
            id,placeId,startTime,endTime
            match,hel,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z
            run,esp,2026-06-02T08:00:00Z,2026-06-02T10:00:00Z

            """)
        // Without --kind: the events file's start and end times make them events; one run, places first.
        try run(["import", places, events, "--db", db, "--no-progress"])
        let store = try FeatureStore(path: db)
        let place = try #require(try store.feature(id: "hel"))
        let match = try #require(try store.feature(id: "match"))
        #expect(match.location == place.location && match.radiusMeters == place.radiusMeters)
        #expect(try store.feature(id: "run")?.location == store.feature(id: "esp")?.location)
    }

    @Test func clusterHelpListsOnlyTheFormatsItAccepts() throws {
        // The values listed after --format, up to the next option.
        let help = ClusterCommand.helpMessage()
        let formatHelp = try #require(help.range(of: "--format <format>").map { help[$0.upperBound...] })
        let listed = formatHelp.prefix { $0 != "-" }
        #expect(listed.contains("geojson") && !listed.contains("ids") && !listed.contains("csv"), "cluster --help lists a format it refuses: \(listed)")
        for format in ClusterFormat.allCases {
            // mvt is one tile's format: the help says "with --tile", and without it is refused with its own message.
            let shown = format == .mvt ? ["--tile", "0/0/0"] : ["--zoom", "1"]
            _ = try CairnCommand.parseAsRoot(["cluster"] + shown + ["--format", format.rawValue])
        }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["cluster", "--zoom", "1", "--format", "csv"]) }
    }

    @Test(arguments: [["bbox", "--bbox", "20,55,30,65"], ["around", "--lat", "60.17", "--long", "24.94", "--rad", "50km", "--format", "csv"],
                      ["cluster", "--zoom", "3"]])
    func outWithGzNameWritesGzip(arguments: [String]) throws {
        try run(["import", places, "--db", db, "--no-progress"])
        let plain = folder.path + "/out-\(UUID().uuidString).txt", packed = folder.path + "/out-\(UUID().uuidString).txt.gz"
        try run(arguments + ["--db", db, "--out", plain])
        try run(arguments + ["--db", db, "--out", packed])
        let raw = try Array(Data(contentsOf: URL(fileURLWithPath: packed)))
        #expect(Array(raw.prefix(2)) == [0x1F, 0x8B], "a .gz --out must be gzip")
        #expect(try contents(packed) == contents(plain))
        #expect(try !contents(plain).isEmpty)
    }

    @Test func snapshotRefusesAGzName() throws {
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["snapshot", "--db", db, "--out", folder.path + "/s.snapshot.gz"]) }
        _ = try CairnCommand.parseAsRoot(["snapshot", "--db", db, "--out", folder.path + "/s.snapshot"])
    }

    @Test func importReadsStandardInputForDash() throws {
        let saved = dup(0)
        let input = open(places, O_RDONLY)
        #expect(saved >= 0 && input >= 0)
        dup2(input, 0)
        close(input)
        defer {
            dup2(saved, 0)
            close(saved)
        }
        try run(["import", "-", "--format", "csv", "--db", db, "--no-progress"])
        #expect(try FeatureStore(path: db).feature(id: "esp") != nil)
        // Standard input has no name to tell the format by.
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["import", "-", "--db", db]) }
        #expect(CairnCommand.helpMessage(for: ImportCommand.self).contains("'-' reads standard input"))
    }

    @Test func versionIsPrinted() throws {
        do {
            _ = try CairnCommand.parseAsRoot(["--version"])
            Issue.record("--version did not exit")
        } catch {
            #expect(CairnCommand.fullMessage(for: error) == CairnVersion.current)
            #expect(CairnCommand.exitCode(for: error) == .success)
        }
    }
}
