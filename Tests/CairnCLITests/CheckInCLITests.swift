import CairnTestSupport
import ArgumentParser
import CairnBench
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

@Suite struct CheckInCLITests {
    /// Runs `cairn checkins validate` in-process and returns the output file's lines.
    func validate(_ arguments: [String], folder: TemporaryFolder, out: String = "out.csv") throws -> [String] {
        let path = folder.path + "/" + out
        var command = try CairnCommand.parseAsRoot(["checkins", "validate"] + arguments + ["--out", path])
        try command.run()
        return csvRecords(try String(contentsOfFile: path, encoding: .utf8))
    }

    /// Records of CSV text (a line feed inside quotes does not end one), without their line feeds.
    func csvRecords(_ text: String) -> [String] { CSVText.records(text) }

    /// Fields of one CSV record, unquoted.
    func csvFields(_ record: String) -> [String] {
        var fields: [String] = []
        var current = ""
        var quoted = false
        var previous: Character = " "
        for character in record {
            if character == "\"" {
                if quoted, previous == "\"" { current.append("\"") }
                quoted.toggle()
            } else if character == ",", !quoted {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
            previous = character
        }
        fields.append(current)
        return fields
    }

    func towns() throws -> [Feature] {
        var random = SeededRandom(seed: 11)
        return try (0..<150).map { n in
            try Feature(id: "town-\(n)", kind: .place,
                        location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                        attributes: ["name": .string("Town \(n)")])
        }
    }

    /// Writes the generator's files into `folder`.
    func generated(_ folder: TemporaryFolder, checkIns: Int = 4_000) throws {
        let sizes = SyntheticSizes(parks: 40, trailheads: 10, places: 120, events: 150, users: 40, checkIns: checkIns)
        for file in SyntheticDataset(towns: try towns(), seed: 5, sizes: sizes).generate() {
            _ = try folder.write(file.name, file.text)
        }
    }

    /// The verdict column: `valid` or the reason.
    func verdicts(_ lines: [String]) -> [String] {
        lines.dropFirst().map { line in
            let fields = csvFields(line)
            return fields[1] == "valid" ? "valid" : fields[2]
        }
    }

    @Test func generatedCheckInsGetTheVerdictsTheyWereBuiltFor() throws {
        let folder = try TemporaryFolder()
        try generated(folder)
        let expectedText = try String(contentsOfFile: folder.path + "/checkins-expected.csv", encoding: .utf8)
        let expected = expectedText.split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
        let base = ["--places", folder.path + "/places.csv", "--places", folder.path + "/parks.csv",
                    "--events", folder.path + "/events.csv", "--checkins", folder.path + "/checkins.csv"]
        let parallel = try validate(base + ["--threads", "2"], folder: folder)
        #expect(parallel.first == "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id")
        #expect(verdicts(parallel) == expected)
        #expect(Set(expected).count == 10)
        // One thread, and tiny batches (many batch and piece boundaries): the same bytes.
        #expect(try validate(base + ["--threads", "1"], folder: folder, out: "one.csv") == parallel)
        #expect(try validate(base + ["--threads", "3", "--batch-bytes", "300"], folder: folder, out: "tiny.csv") == parallel)
        // The library, sequentially, agrees row by row (ids, places and events too).
        #expect(parallel.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[0] }
                == expectedText.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[1] })
    }

    @Test func placesAndEventsFromTheStoreGiveTheSameRows() throws {
        let folder = try TemporaryFolder()
        try generated(folder, checkIns: 600)
        let db = folder.path + "/store.sqlite"
        for (file, kind) in [("places.csv", "place"), ("parks.csv", "park"), ("events.csv", "event")] {
            var importer = try CairnCommand.parseAsRoot(["import", folder.path + "/" + file, "--kind", kind, "--db", db, "--no-progress"])
            try importer.run()
        }
        let fromFiles = try validate(["--places", folder.path + "/places.csv", "--places", folder.path + "/parks.csv",
                                      "--events", folder.path + "/events.csv", "--checkins", folder.path + "/checkins.csv"], folder: folder)
        let fromStore = try validate(["--db", db, "--checkins", folder.path + "/checkins.csv"], folder: folder, out: "db.csv")
        #expect(fromStore == fromFiles)
        var missing = try CairnCommand.parseAsRoot(["checkins", "validate", "--db", folder.path + "/none.sqlite", "--checkins", folder.path + "/checkins.csv"])
        #expect(throws: (any Error).self) { try missing.run() }
    }

    @Test func jsonLinesAndGzipInputGiveTheSameRows() throws {
        let folder = try TemporaryFolder()
        try generated(folder, checkIns: 800)
        let csv = try String(contentsOfFile: folder.path + "/checkins.csv", encoding: .utf8)
        var jsonl = ""
        for line in csv.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if f.count != 7 {
                jsonl += "{\"id\":\"\(f[0])\",\"userId\":\"\(f[1])\"\n" // broken JSON: malformed, like the short CSV row
                continue
            }
            func text(_ s: String) -> String { s.isEmpty ? "null" : "\"\(s)\"" }
            let lat = Double(f[4]) == nil || f[4] == "NaN" ? "\"\(f[4])\"" : f[4]
            jsonl += "{\"id\":\(text(f[0])),\"userId\":\(text(f[1])),\"eventId\":\(text(f[2])),\"placeId\":\(text(f[3])),\"lat\":\(lat),\"lon\":\(f[5]),\"time\":\(text(f[6])),\"extra\":{\"a\":[1,2]}}\n"
        }
        _ = try folder.write("checkins.jsonl", jsonl)
        let base = ["--places", folder.path + "/places.csv", "--places", folder.path + "/parks.csv", "--events", folder.path + "/events.csv"]
        let fromCSV = try validate(base + ["--checkins", folder.path + "/checkins.csv"], folder: folder)
        let fromJSON = try validate(base + ["--checkins", folder.path + "/checkins.jsonl"], folder: folder, out: "j.csv")
        #expect(fromJSON == fromCSV)
        _ = try SystemCommand.run(["gzip", "-k", folder.path + "/checkins.csv"])
        #expect(try validate(base + ["--checkins", folder.path + "/checkins.csv.gz"], folder: folder, out: "g.csv") == fromCSV)
        // JSON lines out: one object per check-in, same verdicts.
        let objects = try validate(base + ["--checkins", folder.path + "/checkins.csv", "--format", "jsonl"], folder: folder, out: "o.jsonl")
        #expect(objects.count == fromCSV.count - 1)
        for (object, row) in zip(objects, fromCSV.dropFirst()) {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(object.utf8)) as? [String: Any])
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            #expect(json["checkin_id"] as? String == fields[0])
            #expect(json["verdict"] as? String == fields[1])
            #expect((json["reason"] as? String ?? "") == fields[2])
            #expect((json["place_id"] as? String ?? "") == fields[5])
        }
    }

    @Test func handMadeEdgeCases() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nhall,60.17,24.94,100m\n\"quoted, place\",0,179.9995,200\npole,90,0,1km\nnoradius,1,1,\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\ngig,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n")
        let checkIns = try folder.write("checkins.csv", [
            "id,user,event,place,lat,lon,time,accuracy",
            "zone,ann,gig,,60.17,24.94,2026-06-01T20:30:00+02:00,",      // 18:30Z: valid
            "nozone,bob,gig,,60.17,24.94,2026-06-01T18:00,",             // exactly at the start (UTC): valid
            "end,cat,gig,,60.17,24.94,2026-06-01T22:00:00+02:00,",       // exactly at the end: after_end
            "early,dan,gig,,60.17,24.94,2026-06-01T19:59:59+02:00,",     // before_start
            "zone,ann,gig,,60.17,24.94,2026-06-01T19:00:00Z,",           // repeated id and pair: duplicate
            "far,eve,gig,,60.171,24.94,2026-06-01T19:00:00Z,",           // ~111 m: outside_radius
            "lenient,fay,gig,,60.171,24.94,2026-06-01T19:00:00Z,20",     // ignored accuracy: still outside
            "\"odd, id\",gus,,\"quoted, place\",0,-179.9995,2026-06-01T10:00:00Z,",   // across the antimeridian
            "polar,hal,,pole,89.995,-120,2026-06-01T10:00:00Z,",
            "nan,ian,,pole,NaN,0,2026-06-01T10:00:00Z,",
            "range,jo,,pole,91,0,2026-06-01T10:00:00Z,",
            "badtime,kim,,pole,90,0,2026-06-31T10:00:00Z,",
            "short,lee,,pole,90",
            ",mo,,pole,90,0,2026-06-01T10:00:00Z,",                       // no id: malformed
            "nomatch,ned,,,10,10,2026-06-01T10:00:00Z,",
            "matched,ola,,,60.17,24.9401,2026-06-01T18:30:00Z,",
            "\"multi",
            "line\",pat,,pole,90,0,2026-06-01T10:00:00Z,\r",
            "ghost,quin,nothing,,60.17,24.94,2026-06-01T19:00:00Z,",
            "unterminated,\"ron,,pole,90,0,2026-06-01T10:00:00Z,",
        ].joined(separator: "\n") + "\n")
        let lines = try validate(["--places", places, "--events", events, "--checkins", checkIns], folder: folder)
        #expect(verdicts(lines) == ["valid", "valid", "after_end", "before_start", "duplicate", "outside_radius", "outside_radius",
                                    "valid", "valid", "invalid_coordinate", "invalid_coordinate", "invalid_time", "malformed_row",
                                    "malformed_row", "no_match", "valid", "malformed_row", "valid", "unknown_event", "malformed_row"])
        #expect(lines[6].hasPrefix("far,invalid,outside_radius,111.") && lines[6].hasSuffix(",100,hall,gig"))
        #expect(lines[8] == "\"odd, id\",valid,,,200,\"quoted, place\",")
        #expect(lines[16] == "matched,valid,,,100,hall,gig")
        // Records are lines: a quote left open at the end of its line makes that line malformed, and the
        // next line is a record of its own (here one whose id ends in a quote).
        #expect(lines[17].contains("malformed_row"))
        #expect(lines[18] == "\"line\"\"\",valid,,,1000,pole,")
        #expect(lines[20].hasPrefix("unterminated,invalid,malformed_row,"))
        // Lenient accuracy: the check-in 111 m away with 20 m accuracy is valid (111 - 20 <= 100).
        let lenient = try validate(["--places", places, "--events", events, "--checkins", checkIns, "--accuracy-policy", "lenient"], folder: folder, out: "l.csv")
        #expect(verdicts(lenient)[6] == "valid")
        #expect(verdicts(lenient)[5] == "outside_radius")
    }

    /// #15 item 7: the check-in record limit has a flag: a record over `--max-record-mib` is one `malformed_row`,
    /// and the same record is judged when the limit is raised.
    @Test func maxRecordMiBBoundsOneCheckInRecord() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\np,0,0,100\n")
        let time = "2026-06-01T10:00:00Z"
        let long = "long," + String(repeating: "u", count: 1_100_000) + ",,p,0,0,\(time)"
        let checkIns = try folder.write("c.csv", ["id,userId,eventId,placeId,latitude,longitude,time", "a,u,,p,0,0,\(time)", long,
                                                  "b,u,,p,0,0,\(time)"].joined(separator: "\n") + "\n")
        let verdicts = { (limit: [String]) in
            try self.validate(["--places", places, "--checkins", checkIns, "--batch-bytes", "65536"] + limit, folder: folder)
                .dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(3).joined(separator: ",") }
        }
        #expect(try verdicts(["--max-record-mib", "1"]) == ["a,valid,", "long,invalid,malformed_row", "b,valid,"])
        #expect(try verdicts([]) == ["a,valid,", "long,valid,", "b,valid,"])
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", checkIns, "--max-record-mib", "0"]) }
    }

    @Test func emptyFilesHeaderOnlyAndExitStatus() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\np,0,0,100\n")
        let events = try folder.write("events.csv", "")
        let empty = try folder.write("empty.csv", "")
        let header = try folder.write("header.csv", "id,userId,eventId,placeId,latitude,longitude,time\n")
        let header1 = "checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id"
        #expect(try validate(["--places", places, "--events", events, "--checkins", empty], folder: folder) == [header1])
        #expect(try validate(["--places", places, "--events", events, "--checkins", header], folder: folder) == [header1])
        let bad = try folder.write("bad.csv", "id,userId,eventId,placeId,latitude,longitude,time\nc,u,,p,0,1,2026-06-01T10:00:00Z\n")
        var failing = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", bad, "--fail-on-invalid", "--out", folder.path + "/x.csv"])
        #expect(throws: ExitCode(2)) { try failing.run() }
        let noColumns = try folder.write("nocolumns.csv", "id,when\nc,2026\n")
        var cannot = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", noColumns, "--out", folder.path + "/y.csv"])
        #expect(throws: (any Error).self) { try cannot.run() }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["checkins", "validate", "--checkins", bad]) }
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", places, "--checkins", bad, "--model", "flat"]) }
    }

    @Test func joinsAreRequiredWhenGiven() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("places.csv", "id,lat,lon,radius\nhall,0,0,100\n")
        let events = try folder.write("events.csv", "id,placeId,startTime,endTime\ngig,hall,2026-06-01T18:00:00Z,2026-06-01T20:00:00Z\n")
        let joins = try folder.write("joins.csv", "userId,eventId\nann,gig\nbob,nothing\n")
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n"
            + "1,ann,gig,,0,0,2026-06-01T19:00:00Z\n2,bob,gig,,0,0,2026-06-01T19:00:00Z\n3,cat,,hall,0,0,2026-06-01T19:00:00Z\n")
        let base = ["--places", places, "--events", events, "--checkins", checkIns]
        #expect(verdicts(try validate(base + ["--joins", joins], folder: folder)) == ["valid", "not_joined", "valid"])
        #expect(verdicts(try validate(base, folder: folder, out: "free.csv")) == ["valid", "valid", "valid"])
    }

    @Test func statsCountVisitsAndTheTopVisitor() throws {
        let folder = try TemporaryFolder()
        let places = try folder.write("parks.csv", "id,lat,lon,radius\nfen,0,0,100\nmoor,1,1,100\n")
        let rows = ["bob", "ann", "bob", "ann", "cat", "ann"].enumerated().map { "v\($0.offset),\($0.element),,fen,0,0,2026-06-01T10:00:00Z" }
        let checkIns = try folder.write("c.csv", "id,userId,eventId,placeId,latitude,longitude,time\n" + rows.joined(separator: "\n") + "\nw,zed,,moor,0,0,2026-06-01T10:00:00Z\n")
        _ = try validate(["--places", places, "--checkins", checkIns, "--stats-out", folder.path + "/stats.csv"], folder: folder)
        let stats = try String(contentsOfFile: folder.path + "/stats.csv", encoding: .utf8)
        #expect(stats == "place_id,visits,visitors,top_visitor,top_visitor_visits\nfen,6,3,ann,3\n")
    }
}
