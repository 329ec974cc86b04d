import CairnTestSupport
import CairnBench
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

/// `cairn checkins validate --shard I/N`: N runs, one per shard, give together exactly one run's rows.
@Suite struct CheckInShardTests {
    /// Runs `cairn checkins validate` in-process and returns the output's rows (the header dropped).
    func validate(_ arguments: [String], out: String) throws -> [String] {
        var command = try CairnCommand.parseAsRoot(["checkins", "validate"] + arguments + ["--out", out])
        try command.run()
        return CSVText.records(try String(contentsOfFile: out, encoding: .utf8)).dropFirst().map { $0 }
    }

    /// The whole run and the union of its `shards` shards; each shard's rows also keep the whole run's order.
    func expectShardsEqualOneRun(_ base: [String], folder: TemporaryFolder, shards: Int = 4,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let whole = try validate(base, out: folder.path("whole.csv"))
        var union: [String] = []
        for shard in 1...shards {
            let rows = try validate(base + ["--shard", "\(shard)/\(shards)"], out: folder.path("shard-\(shard).csv"))
            // A shard's rows are a subsequence of the whole run's: the same order, nothing added.
            var position = whole.startIndex
            for row in rows {
                guard let found = whole[position...].firstIndex(of: row) else {
                    Issue.record("shard \(shard)/\(shards) wrote a row the whole run did not: \(row)", sourceLocation: sourceLocation)
                    break
                }
                position = found + 1
            }
            union += rows
        }
        #expect(union.count == whole.count, sourceLocation: sourceLocation)
        // The first difference only: the whole lists would fill the log.
        let difference = zip(union.sorted(), whole.sorted()).first { $0.0 != $0.1 }
        #expect(difference == nil, "the shards' rows and the whole run's differ first at \(String(describing: difference))", sourceLocation: sourceLocation)
    }

    func seededTowns() throws -> [Feature] {
        var random = SeededRandom(seed: 21)
        return try (0..<120).map { n in
            try Feature(id: "town-\(n)", kind: .place,
                        location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                        attributes: ["name": .string("Town \(n)")])
        }
    }

    /// The generator's files for `towns` in `folder`, and the arguments that judge its check-ins against them.
    func generated(_ folder: TemporaryFolder, towns: [Feature], checkIns: Int) throws -> [String] {
        let sizes = SyntheticSizes(parks: 60, trailheads: 10, places: 200, events: 300, users: 30, checkIns: checkIns)
        for file in SyntheticDataset(towns: towns, seed: 9, sizes: sizes).generate() {
            _ = try folder.write(file.name, file.text)
        }
        return ["--places", folder.path("places.csv"), "--places", folder.path("parks.csv"),
                "--events", folder.path("events.csv")]
    }

    /// Seeded data, with few users (many duplicates, so the per-user state matters), bad rows beside the good ones,
    /// on two threads with tiny batches (every piece and batch boundary), and one thread.
    @Test func fourShardsOfSeededCheckInsEqualOneRun() throws {
        let folder = try TemporaryFolder()
        let base = try generated(folder, towns: try seededTowns(), checkIns: 6_000)
        let checkIns = try String(contentsOfFile: folder.path("checkins.csv"), encoding: .utf8)
        let bad = [
            "bad-1,,,place-1,10,10,2024-05-01T10:00:00Z",  // no user
            ",user-1,,place-1,10,10,2024-05-01T10:00:00Z",  // no check-in id
            "bad-2,user-2,\"open quote",                     // a quote left open
            "bad-3,user-3,,place-2,91,10,2024-05-01T10:00:00Z",
            "bad-4,user-4,only,three",
        ]
        let file = try folder.write("mixed.csv", checkIns + bad.joined(separator: "\n") + "\n" + checkIns.split(separator: "\n").dropFirst().joined(separator: "\n") + "\n")
        try expectShardsEqualOneRun(base + ["--checkins", file, "--threads", "2", "--batch-bytes", "4096"], folder: folder)
        try expectShardsEqualOneRun(base + ["--checkins", file, "--threads", "1"], folder: folder, shards: 3)
        // A shard of one is the whole run.
        let whole = try validate(base + ["--checkins", file], out: folder.path("a.csv"))
        #expect(try validate(base + ["--checkins", file, "--shard", "1/1"], out: folder.path("b.csv")) == whole)
    }

    /// The bundled towns (Data/geonames-cities500.csv.gz) through the generator, as the README's run uses them.
    @Test func fourShardsOfTheBundledDataEqualOneRun() throws {
        let folder = try TemporaryFolder()
        let towns = try GenerateCommand.readTowns(path: try RepositoryData.path("Data/geonames-cities500.csv.gz"))
        let base = try generated(folder, towns: towns, checkIns: 8_000)
        try expectShardsEqualOneRun(base + ["--checkins", folder.path("checkins.csv")], folder: folder)
    }

    /// The documented rule: XXH64 (seed 0) of the user id's bytes, mod N, plus 1 (reference hashes from xxHash,
    /// the same vectors as the snapshot checksum's test).
    @Test func theShardIsXXH64OfTheUserIdModN() throws {
        #expect(try #require(CheckInUserShard("2/4")).contains(user: ""))        // 0xEF46_DB37_51D8_E999
        #expect(try #require(CheckInUserShard("4/4")).contains(user: "a"))       // 0xD24E_C4F1_A98C_6E5B
        #expect(try #require(CheckInUserShard("3/3")).contains(user: "a"))
        #expect(try #require(CheckInUserShard("2/4")).contains(user: "abc"))     // 0x44BC_2CF5_AD77_0999
        #expect(try #require(CheckInUserShard("1/7")).contains(user: "abc"))
        #expect(!(try #require(CheckInUserShard("1/4")).contains(user: "abc")))
    }

    @Test(arguments: ["0/4", "5/4", "a/b", "1/0", "-1/4", "1/4/2", "2", "/4", "1/", "+1/4", " 1/4", "99999999999999999999/4"])
    func badShardsGetTheUsageErrorWithTheExpectedForm(_ value: String) {
        var message: String?
        do {
            _ = try CairnCommand.parseAsRoot(["checkins", "validate", "--places", "p.csv", "--checkins", "c.csv", "--shard", value])
        } catch {
            message = CairnCommand.message(for: error)
        }
        guard let message else {
            Issue.record("accepted --shard \(value)")
            return
        }
        #expect(message.contains("--shard expects I/N"), "\(message)")
        #expect(message.contains("1 <= I <= N like 2/4"), "\(message)")
        #expect(message.contains("got '\(value)'"), "\(message)")
    }
}
