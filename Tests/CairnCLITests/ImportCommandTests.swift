import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnIO
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

@Suite struct ImportCommandTests {
    /// Runs the importer on `files` and returns the summary, the rejections and the warnings.
    func importFiles(_ files: [String], db: String, strict: Bool = false, options: ImportOptions = ImportOptions())
        throws -> (summary: ImportSummary, rejections: [RowRejection], warnings: [String])
    {
        var rejections: [RowRejection] = []
        var warnings: [String] = []
        let importer = Importer(options: options, strict: strict, reportRejection: { rejections.append($0) },
                                warn: { warnings.append($0) }, showProgress: false)
        let summary = try importer.run(files: files, format: nil, into: try FeatureStore(path: db))
        return (summary, rejections, warnings)
    }

    @Test func badRowsAreReportedByLineAndGoodRowsAreKept() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let file = packageRoot + "/Data/examples/bad-rows.csv"
        let result = try importFiles([file], db: db)
        #expect(result.summary.imported == 6)
        #expect(result.summary.rejected == 8)
        #expect(result.summary.duplicateIds == 1)
        #expect(result.summary.line.hasPrefix("imported 6, rejected 8"))
        let lines = result.rejections.map(\.line)
        #expect(lines == [3, 4, 5, 9, 10, 11, 14, 15])
        for rejection in result.rejections { #expect(rejection.description.hasPrefix("\(file):\(rejection.line): ")) }
        #expect(result.rejections[0].reason.contains("latitude"))
        #expect(result.rejections[2].reason.contains("swapped"))
        #expect(result.rejections[3].reason.contains("radius"))
        #expect(result.rejections[4].reason.contains("longitude"))
        #expect(result.warnings.contains { $0 == "\(file): 1 row gave an id that an earlier row of the file had given; "
                                              + "the later row wins: 'dup' at line 8 (first at line 7)" })

        let store = try FeatureStore(path: db)
        #expect(try store.count() == 5)
        // The line after the unterminated quote on line 15 is read as a row of its own.
        #expect(try store.feature(id: "after")?.location == (try Coordinate(latitude: 60, longitude: 25)))
        let dup = try #require(try store.feature(id: "dup"))
        #expect(dup.attributes["name"] == .string("The second wins"))
        let good3 = try #require(try store.feature(id: "good-3"))
        #expect(good3.radiusMeters == 1200)
        #expect(good3.attributes["name"] == .string("A name on\ntwo lines"))
    }

    @Test func strictImportWritesNothing() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        #expect(throws: Importer.StrictStop.self) {
            _ = try importFiles([packageRoot + "/Data/examples/bad-rows.csv"], db: db, strict: true)
        }
        #expect(try FeatureStore(path: db).count() == 0)
    }

    @Test func anUnreadableFileWritesNothingFromAnyFile() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let good = try folder.write("good.csv", "id,lat,lon\na,1,2\nb,3,4\n")
        #expect(throws: InputError.self) {
            _ = try importFiles([good, folder.path + "/missing.csv"], db: db)
        }
        #expect(try FeatureStore(path: db).count() == 0)
    }

    @Test func reimportingAnIdReplacesIt() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let first = try folder.write("a.csv", "id,lat,lon,name\na,1,2,old\n")
        let second = try folder.write("b.csv", "id,lat,lon,name\na,5,6,new\n")
        _ = try importFiles([first], db: db)
        _ = try importFiles([second], db: db)
        let store = try FeatureStore(path: db)
        #expect(try store.count() == 1)
        let feature = try #require(try store.feature(id: "a"))
        #expect(feature.location == (try Coordinate(latitude: 5, longitude: 6)))
        #expect(feature.attributes["name"] == .string("new"))
    }

    @Test func eventsWithoutCoordinatesTakeTheirPlacesLocationAndRadius() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let places = try folder.write("places.csv", "id,lat,lon,radius\nstadium,60.19,24.93,250m\n")
        let events = try folder.write("events.csv", """
            id,placeId,startTime,endTime,category
            match,stadium,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z,football
            lost,nowhere,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z,football

            """)
        var first = try CairnCommand.parseAsRoot(["import", places, "--kind", "place", "--db", db, "--no-progress"])
        try first.run()
        var second = try CairnCommand.parseAsRoot(["import", events, "--kind", "event", "--db", db, "--no-progress"])
        #expect(throws: ExitCode(3)) { try second.run() }
        let store = try FeatureStore(path: db)
        let match = try #require(try store.feature(id: "match"))
        #expect(match.location == (try Coordinate(latitude: 60.19, longitude: 24.93)))
        #expect(match.radiusMeters == 250)
        #expect(match.timeWindow?.start == Timestamp(iso8601: "2026-06-01T18:00:00Z"))
        #expect(try store.feature(id: "lost") == nil)

        // Without a way to look places up, the same file lacks its coordinate columns.
        #expect(throws: InputError.self) { _ = try importFiles([events], db: db, options: ImportOptions(kind: .event)) }
    }

    /// Counts the calls of a place lookup.
    final class LookupCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var calls: Int { lock.withLock { count } }
        func record() { lock.withLock { count += 1 } }
    }

    @Test func eachPlaceIsLookedUpOncePerRun() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        var places = "id,lat,lon,radius\n"
        for n in 0..<5 { places += "p\(n),\(60 + Double(n) / 8),\(24 + Double(n) / 4),\(100 + 50 * n)m\n" }
        var first = try CairnCommand.parseAsRoot(["import", try folder.write("places.csv", places), "--kind", "place", "--db", db, "--no-progress"])
        try first.run()
        var events = "id,placeId,startTime,endTime\n"
        for n in 0..<600 { events += "e\(n),\(n % 6 == 5 ? "missing" : "p\(n % 6)"),2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n" }
        let eventFiles = [try folder.write("a.csv", events), try folder.write("b.csv", events.replacingOccurrences(of: "\ne", with: "\nf"))]
        let store = try FeatureStore(path: db)
        let counter = LookupCounter()
        let options = ImportOptions(kind: .event, placeLookup: { id in
            counter.record()
            return try? store.feature(id: id)
        })
        let result = try importFiles(eventFiles, db: db, options: options)
        // Six distinct ids across two files: the five stored places are read through the run's own transaction
        // (and remembered); only the missing one is asked of the caller's lookup, once, not once per row.
        #expect(counter.calls == 1)
        #expect(result.summary.imported == 1_000 && result.summary.rejected == 200)
        for prefix in ["e", "f"] {
            for n in [0, 1, 4, 5, 599] {
                let event = try store.feature(id: "\(prefix)\(n)")
                guard n % 6 != 5 else { #expect(event == nil); continue }
                let place = try #require(try store.feature(id: "p\(n % 6)"))
                #expect(event?.location == place.location && event?.radiusMeters == place.radiusMeters)
            }
        }
    }

    /// A place written by the run is found once its batch is in the store (read through the run's transaction), and
    /// a place the run writes again is found at its new location, though an event had looked up the old one.
    @Test func placesWrittenEarlierInTheRunAreFoundThroughItsTransaction() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let filler = Importer.batchSize * 2 + 10
        var rows = "id,kind,lat,lon,placeId,startTime,endTime\nhall,place,10,20,,,\n"
        for n in 0..<filler { rows += "f\(n),place,1,\(Double(n % 300) / 2 - 75),,,\n" }
        rows += "e1,event,,,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\nhall,place,30,40,,,\n"
        for n in 0..<filler { rows += "g\(n),place,2,\(Double(n % 300) / 2 - 75),,,\n" }
        rows += "e2,event,,,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n"
        let store = try FeatureStore(path: db)
        let options = ImportOptions(placeLookup: { id in try? store.feature(id: id) })
        let result = try importFiles([try folder.write("run.csv", rows)], db: db, options: options)
        #expect(result.rejections.isEmpty)
        #expect(try store.feature(id: "e1")?.location == (try Coordinate(latitude: 10, longitude: 20)))
        #expect(try store.feature(id: "e2")?.location == (try Coordinate(latitude: 30, longitude: 40)))
    }

    /// The run's own places are held for two batches at most, however many rows it writes.
    @Test func theRunKeepsAtMostTwoWindowsOfPlaces() throws {
        let places = ImportedPlaces(recentCapacity: 100, outside: { _ in nil })
        for n in 0..<10_000 {
            places.record(try Feature(id: "p\(n)", kind: .place, location: Coordinate(latitude: 0, longitude: 0)))
            #expect(places.rememberedCount <= 200)
        }
        #expect(places.place(id: "p9999") != nil)
        #expect(places.place(id: "p0") == nil) // no store attached: only the recent windows answer
    }

    @Test func thePlaceCacheIsBounded() throws {
        let counter = LookupCounter()
        let place = try Feature(id: "a", kind: .place, location: Coordinate(latitude: 1, longitude: 2))
        let cache = PlaceLookupCache(capacity: 2) { id in
            counter.record()
            return id == "a" ? place : nil
        }
        #expect(cache.place(id: "a") == place && cache.place(id: "b") == nil && cache.place(id: "a") == place)
        #expect(counter.calls == 2)
        // A third id starts afresh: "a" is asked again.
        #expect(cache.place(id: "c") == nil && cache.place(id: "a") == place && cache.place(id: "c") == nil)
        #expect(counter.calls == 4)
    }

    @Test func commandExitsThreeWhenRowsWereRejected() throws {
        let folder = try TemporaryFolder()
        var command = try CairnCommand.parseAsRoot(["import", packageRoot + "/Data/examples/bad-rows.csv", "--db", folder.path + "/t.sqlite", "--no-progress"])
        #expect(throws: ExitCode(3)) { try command.run() }
    }

    @Test func commandValidatesItsArguments() throws {
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["import", "x.csv", "--radius", "wide"]) }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["import", "x.unknown"]) }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["import", "x.csv", "--kind", "castle"]) }
        _ = try CairnCommand.parseAsRoot(["import", "x.csv", "--radius", "1.2km", "--kind", "park"])
    }

    @Test func helpNamesEveryOption() {
        let help = CairnCommand.helpMessage(for: ImportCommand.self)
        for option in ["--kind", "--id-column", "--radius", "--db", "--strict", "--format"] {
            #expect(help.contains(option), "help lacks \(option)")
        }
    }

    @Test func infoReportsCountsPerKindAsJSON() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/t.sqlite"
        let file = try folder.write("mixed.csv", "id,kind,lat,lon\na,park,1,2\nb,park,3,4\nc,user,-5,-6\n")
        _ = try importFiles([file], db: db)
        let info = try FeatureStore(path: db).info()
        let json = InfoCommand.json(info, path: db)
        #expect(json.contains("\"features\":3"))
        #expect(json.contains("\"byKind\":{\"park\":2,\"trailhead\":0,\"place\":0,\"event\":0,\"user\":1,\"sighting\":0}"))
        #expect(json.contains("\"west\":-6,\"south\":-5,\"east\":4,\"north\":3"))
    }

    @Test func readCommandsRefuseAMissingStore() throws {
        let folder = try TemporaryFolder()
        var command = try CairnCommand.parseAsRoot(["info", "--db", folder.path + "/none.sqlite"])
        #expect(throws: CLIError.self) { try command.run() }
    }
}
