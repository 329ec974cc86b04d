import CairnTestSupport
import ArgumentParser
import CairnCore
import Foundation
import Testing
import CairnCheckIns
@testable import CairnCLI

/// Check-in defects found in review: each test failed before its fix.
@Suite struct CheckInDefectTests {
    let cli = CheckInCLITests()

    /// One place id of 70,000 bytes: its row carries the whole id, and the other rows stay narrow and whole
    /// (the output table used to widen every slot to the longest id and cut it at 65,535 bytes).
    @Test func aVeryLongPlaceIdIsWrittenWhole() throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "L", count: 70_000)
        let places = try folder.write("places.csv", "id,lat,lon,radius\nshort,0,0,100\n\(long),1,1,100\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n"
            + "a,u,,short,0,0,2026-06-01T10:00:00Z\nb,u,,\(long),1,1,2026-06-01T10:00:00Z\nc,u,,\(long),1,1.01,2026-06-01T10:00:00Z\n"
            + "d,u,,short,0,0,2026-06-01T10:00:00Z\n")
        for format in ["csv", "jsonl"] {
            let lines = try cli.validate(["--places", places, "--checkins", checkIns, "--format", format], folder: folder, out: "o.\(format)")
            if format == "csv" {
                #expect(lines.count == 5)
                #expect(lines[1] == "a,valid,,,100,short,")
                #expect(lines[2] == "b,valid,,,100,\(long),")
                #expect(cli.csvFields(lines[3]).count == 7 && cli.csvFields(lines[3])[5] == long && lines[3].hasPrefix("c,invalid,outside_radius,"))
                #expect(lines[4] == "d,valid,,,100,short,")
            } else {
                #expect(lines.count == 4)
                let places = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["place_id"] as? String }
                #expect(places == ["short", long, long, "short"])
            }
        }
    }

    /// One rule for reading places, the rule `cairn import` follows: numbers as `Double` text reads them (a
    /// hexadecimal float included) and a radius above 0. Places from the file and from the store it was
    /// imported into give the same verdicts.
    @Test func placesAreReadByImportsRule() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,name,lat,lon,radius\nhex,Hex,0x1p3,1,0x1p3\nzero,Zero,1,1,0\nzerom,Zero m,1,1,0m\n"
            + "negative,Negative,1,1,-5\nplain,Plain,2,2,1.5e1\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n"
            + ["hex,8,1", "zero,1,1", "zerom,1,1", "negative,1,1", "plain,2,2"].map { "\($0.split(separator: ",")[0]),u,,\($0),2026-06-01T10:00:00Z" }
                .joined(separator: "\n") + "\n")
        let fromFile = try cli.validate(["--places", places, "--checkins", checkIns], folder: folder)
        #expect(cli.verdicts(fromFile) == ["valid", "unknown_place", "unknown_place", "unknown_place", "valid"])
        #expect(fromFile[1] == "hex,valid,,,8,hex,")
        let db = folder.path + "/store.sqlite"
        var importer = try CairnCommand.parseAsRoot(["import", places, "--kind", "place", "--db", db, "--no-progress"])
        // Import keeps the good rows and exits with 3 when it rejected some (here: the three bad radii).
        #expect(throws: ExitCode(3)) { try importer.run() }
        #expect(try cli.validate(["--db", db, "--checkins", checkIns], folder: folder, out: "db.csv") == fromFile)
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", checkIns, "--radius", "0"]) }
    }

    /// A stray quote followed, lines later, by a properly quoted field: only the stray quote's line is malformed
    /// (they used to pair up and swallow the lines between them, with no message); the same in a places file,
    /// where the bad line is reported and the next places are kept.
    @Test func aStrayQuoteNeverPairsWithALaterQuote() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,name,lat,lon,radius\nS1,\"Bad name,10,20,100\nS2,ok,10,20,100\nS3,ok,10,20,100\n"
            + "S4,\"Quoted\",10,20,100\nP1,p,10,20,100\n")
        let rows = (1...6).map { n in
            let latitude = n == 2 ? "\"10" : "10"
            let place = n == 5 ? "\"P1\"" : (n == 6 ? "S4" : "P1")
            return "s\(n),u\(n),,\(place),\(latitude),20,2026-05-01T10:30:00Z"
        }
        let checkIns = try folder.write("c.csv", (["id,userId,eventId,placeId,latitude,longitude,time"] + rows + ["s7,u7,,S2,10,20,2026-05-01T10:30:00Z"])
            .joined(separator: "\n") + "\n")
        let lines = try cli.validate(["--places", places, "--checkins", checkIns], folder: folder)
        #expect(lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",") }
                == ["s1,valid,", "s2,invalid,malformed_row", "s3,valid,", "s4,valid,", "s5,valid,", "s6,valid,", "s7,valid,"], "\(lines)")
    }

    /// Quotes inside fields and a quoted field broken across lines give the same rows whatever the threads and
    /// the batch size (the batch and piece cuts once counted every quote, the scanner only a field's first).
    @Test func quotesGiveTheSameRowsForEveryThreadCountAndBatchSize() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nP1,10,20,100\n")
        var rows = ["id,userId,eventId,placeId,latitude,longitude,time", "a\"b,u0,,P1,10,20,2026-05-01T10:30:00Z"]
        rows += (1...39).map { "r\($0),u\($0),,P1,10,20,2026-05-01T10:30:00Z" }
        rows += ["\"multi", "line\",um,,P1,10,20,2026-05-01T10:30:00Z"]
        rows += (40...79).map { "r\($0),u\($0),,P1,10,20,2026-05-01T10:30:00Z" }
        let checkIns = try folder.write("c.csv", rows.joined(separator: "\n") + "\n")
        let one = try cli.validate(["--places", places, "--checkins", checkIns, "--threads", "1"], folder: folder, out: "one.csv")
        #expect(one.count == 1 + 82)
        #expect(one[1] == "\"a\"\"b\",valid,,,100,P1,")
        #expect(one[41].contains("malformed_row") && one[42].hasPrefix("\"line\"\"\",valid"))
        for (threads, batch) in [("2", "8388608"), ("2", "64"), ("1", "64"), ("2", "100")] {
            #expect(try cli.validate(["--places", places, "--checkins", checkIns, "--threads", threads, "--batch-bytes", batch],
                                     folder: folder, out: "t\(threads)-\(batch).csv") == one, "threads \(threads), batch \(batch)")
        }
    }

    /// A run that fails leaves `--out` as it was (it is written beside and renamed into place at the end); a
    /// `--stats-out` that cannot be written fails the run before any work. (An `--out` naming an input is refused:
    /// see `OutputSafetyTests`.)
    @Test func aFailedRunLeavesTheOutputFileAlone() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nP1,10,20,100\n")
        let keep = try folder.write("keep.csv", "precious\n")
        func run(_ arguments: [String]) throws {
            var command = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places] + arguments)
            try command.run()
        }
        #expect(throws: (any Error).self) { try run(["--checkins", folder.path + "/missing.csv", "--out", keep]) }
        let noColumns = try folder.write("nocolumns.csv", "id,when\nc,2026\n")
        #expect(throws: (any Error).self) { try run(["--checkins", noColumns, "--out", keep]) }
        #expect(throws: (any Error).self) {
            try run(["--checkins", noColumns, "--out", keep, "--stats-out", folder.path + "/no/such/folder/s.csv"])
        }
        #expect(try String(contentsOfFile: keep, encoding: .utf8) == "precious\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }.isEmpty)
    }

    /// A UTF-8 byte order mark is dropped before anything is read: a quoted header and JSON lines work after it.
    @Test func aByteOrderMarkIsDropped() throws {
        let folder = try TemporaryFolder()
        let bom = "\u{FEFF}"
        let places = try folder.write("places.csv", bom + "\"id\",\"lat\",\"lon\",\"radius\"\r\n\"P1\",10,20,100\r\n")
        let csv = try folder.write("c.csv", bom + "\"id\",\"userId\",\"eventId\",\"placeId\",\"latitude\",\"longitude\",\"time\"\r\n"
            + "\"q1\",\"u1\",\"\",\"P1\",\"10\",\"20\",\"2026-05-01T10:30:00Z\"\r\n")
        #expect(try cli.validate(["--places", places, "--checkins", csv], folder: folder) == [CheckInOutputFormat.csvHeader.trimmingCharacters(in: .newlines), "q1,valid,,,100,P1,"])
        let jsonl = try folder.write("c.jsonl", bom + "{\"id\":\"b1\",\"userId\":\"u\",\"placeId\":\"P1\",\"lat\":10,\"lon\":20,\"time\":\"2026-05-01T10:30:00Z\"}\r\n")
        #expect(try cli.validate(["--places", places, "--checkins", jsonl], folder: folder, out: "j.csv").dropFirst() == ["b1,valid,,,100,P1,"])
        let onlyMark = try folder.write("only.jsonl", bom)
        #expect(try cli.validate(["--places", places, "--checkins", onlyMark], folder: folder, out: "o.csv").count == 1)
    }

    /// A header without the columns a file needs is refused by name, even with no rows under it; an empty file
    /// is read as nothing, with a notice.
    @Test func referenceHeadersNameTheirMissingColumns() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nP1,10,20,100\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\nE1,P1,2026-05-01T10:00:00Z,2026-05-01T12:00:00Z\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\nc1,u,E1,,10,20,2026-05-01T10:30:00Z\n")
        func failure(_ arguments: [String]) throws -> String {
            var command = try CairnCommand.parseAsRoot(["checkins", "validate", "--checkins", checkIns, "--out", folder.path + "/o.csv"] + arguments)
            do { try command.run() } catch { return "\(error)" }
            return "no error"
        }
        let noLongitude = try folder.write("p2.csv", "id,latitude,radiusMeters\nP1,10,100\n")
        #expect(try failure(["--places", noLongitude]).contains("lacks longitude"))
        let noEnd = try folder.write("e2.csv", "id,placeId,startTime\nE1,P1,2026-05-01T10:00:00Z\n")
        #expect(try failure(["--places", places, "--events", noEnd]).contains("lacks endTime"))
        let joinHeaderOnly = try folder.write("j.csv", "user,foo\n")
        #expect(try failure(["--places", places, "--events", events, "--joins", joinHeaderOnly]).contains("lacks eventId"))
        // An empty joins file: no joins at all, so every event check-in is not_joined; said, not silent.
        let emptyJoins = try folder.write("j0.csv", "")
        let rows = try cli.validate(["--places", places, "--events", events, "--joins", emptyJoins, "--checkins", checkIns], folder: folder, out: "j.csv")
        #expect(cli.verdicts(rows) == ["not_joined"])
    }

    /// A check-in naming an event and a place that is not the event's: `place_mismatch`, with the event's place.
    @Test func anEventAndAContradictingPlaceMismatch() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nhall,0,0,100\nyard,0,0,100\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\ngig,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n"
            + "1,ann,gig,hall,0,0,2026-06-01T19:00:00Z\n2,bob,gig,yard,0,0,2026-06-01T19:00:00Z\n3,cat,gig,nowhere,0,0,2026-06-01T19:00:00Z\n")
        let lines = try cli.validate(["--places", places, "--events", events, "--checkins", checkIns], folder: folder)
        #expect(Array(lines.dropFirst()) == ["1,valid,,,100,hall,gig", "2,invalid,place_mismatch,,100,hall,gig", "3,invalid,place_mismatch,,100,hall,gig"])
    }

    /// `--out` and `--stats-out` ending in `.gz` are written gzip-compressed, holding the bytes of a plain run; a
    /// failed run leaves an existing `.gz` output as it was.
    @Test func gzOutputIsGzip() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nP1,10,20,100\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n"
            + "c1,u,,P1,10,20,2026-05-01T10:30:00Z\nc2,u,,P1,11,20,2026-05-01T10:30:00Z\nc3,v,,P9,10,20,2026-05-01T10:30:00Z\n")
        func run(_ arguments: [String]) throws {
            var command = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", checkIns] + arguments)
            try command.run()
        }
        func gunzip(_ path: String) throws -> String {
            let (status, data) = try SystemCommand.run(["gzip", "-dc", path])
            #expect(status == 0, "\(path) is not gzip")
            return String(decoding: data, as: UTF8.self)
        }
        for format in ["csv", "jsonl"] {
            let plain = folder.path("v.\(format)"), packed = folder.path("v.\(format).gz")
            try run(["--format", format, "--out", plain, "--stats-out", folder.path("s.csv")])
            try run(["--format", format, "--out", packed, "--stats-out", folder.path("s.csv.GZ")])
            #expect(try gunzip(packed) == String(contentsOfFile: plain, encoding: .utf8))
            #expect(try gunzip(folder.path("s.csv.GZ")) == String(contentsOfFile: folder.path("s.csv"), encoding: .utf8))
            let before = try Data(contentsOf: URL(fileURLWithPath: packed))
            #expect(throws: (any Error).self) {
                var command = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places,
                                                            "--checkins", folder.path + "/missing.csv", "--out", packed])
                try command.run()
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: packed)) == before)
        }
    }
}
