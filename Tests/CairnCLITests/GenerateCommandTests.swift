import CairnTestSupport
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

@Suite struct GenerateCommandTests {
    func towns() throws -> [Feature] {
        var random = SeededRandom(seed: 7)
        return try (0..<200).map { n in
            try Feature(id: "town-\(n)", kind: .place,
                        location: Coordinate(latitude: random.uniform(-60...70), longitude: random.uniform(-180...180)),
                        attributes: ["name": .string("Town \(n)")])
        }
    }

    let sizes = SyntheticSizes(parks: 50, trailheads: 80, places: 100, events: 120, users: 60, checkIns: 3_000)

    @Test func theSameSeedGivesTheSameFiles() throws {
        let towns = try towns()
        let first = SyntheticDataset(towns: towns, seed: 42, sizes: sizes).generate()
        let second = SyntheticDataset(towns: towns, seed: 42, sizes: sizes).generate()
        let other = SyntheticDataset(towns: towns, seed: 43, sizes: sizes).generate()
        #expect(first.map(\.name) == ["parks.csv", "trailheads.csv", "places.csv", "events.csv", "users.csv", "checkins.csv", "checkins-expected.csv"])
        #expect(first.map(\.text) == second.map(\.text))
        #expect(first.map(\.text) != other.map(\.text))
    }

    @Test func everyVerdictKindIsGeneratedInAKnownShare() throws {
        let files = SyntheticDataset(towns: try towns(), seed: 42, sizes: sizes).generate()
        let expected = try #require(files.first { $0.name == "checkins-expected.csv" })
        var counts: [String: Int] = [:]
        for line in expected.text.split(separator: "\n").dropFirst() {
            counts[String(line.split(separator: ",")[2]), default: 0] += 1
        }
        for verdict in CheckInVerdict.allCases {
            #expect((counts[verdict.rawValue] ?? 0) > 0, "no \(verdict.rawValue) check-ins")
        }
        // Every designed invalid kind gets about 2 %; duplicates get more, since random users also repeat events.
        for verdict in CheckInVerdict.allCases where verdict != .valid && verdict != .duplicate {
            let share = Double(counts[verdict.rawValue] ?? 0) / Double(sizes.checkIns)
            #expect(share > 0.01 && share < 0.03, "\(verdict.rawValue) share \(share)")
        }
    }
}

/// The generator's options for the issue's perf run, and its refusals.
@Suite struct GenerateOptionTests {
    /// With `placesAreTowns` the places are the towns themselves (ids, names, exact locations), the events sit
    /// at them, and the check-ins still get the verdicts they were built for.
    @Test func placesCanBeTheRealTowns() throws {
        let towns = try GenerateCommandTests().towns()
        let sizes = SyntheticSizes(parks: 20, trailheads: 5, places: 150, events: 200, users: 30, checkIns: 1_500)
        let files = SyntheticDataset(towns: towns, seed: 3, sizes: sizes, placesAreTowns: true).generate()
        let places = try #require(files.first { $0.name == "places.csv" }).text.split(separator: "\n").dropFirst()
        #expect(places.count == 150)
        for (row, town) in zip(places, towns) {
            let fields = row.split(separator: ",").map(String.init)
            #expect(fields[0] == town.id && fields[1] == "Town \(town.id.dropFirst(5))")
            #expect(Double(fields[2]) == (town.location.latitude * 1e6).rounded() / 1e6)
            #expect((30...300).contains(Double(fields[4]) ?? 0))
        }
        // The default (venues near towns) is untouched by the option's existence.
        #expect(SyntheticDataset(towns: towns, seed: 3, sizes: sizes).generate().map(\.text)
                == SyntheticDataset(towns: towns, seed: 3, sizes: sizes, placesAreTowns: false).generate().map(\.text))
        let folder = try TemporaryFolder()
        for file in files { _ = try folder.write(file.name, file.text) }
        let cli = CheckInCLITests()
        let lines = try cli.validate(["--places", folder.path + "/places.csv", "--places", folder.path + "/parks.csv",
                                      "--events", folder.path + "/events.csv", "--checkins", folder.path + "/checkins.csv"], folder: folder)
        let expected = try #require(files.first { $0.name == "checkins-expected.csv" }).text
            .split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
        #expect(cli.verdicts(lines) == expected)
    }

    @Test func checkInsNeedUsersEventsPlacesAndParks() throws {
        for name in ["--users", "--events", "--places", "--parks"] {
            #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["generate", name, "0"]) }
            #expect(throws: Never.self) { _ = try CairnCommand.parseAsRoot(["generate", name, "0", "--checkins", "0"]) }
        }
    }

    @Test func aMissingTownsFileSaysWhereItLooked() throws {
        let folder = try TemporaryFolder()
        var command = try CairnCommand.parseAsRoot(["generate", "--towns", "nowhere/towns.csv.gz", "--out", folder.path])
        do {
            try command.run()
            Issue.record("expected an error")
        } catch {
            let message = String(describing: error)
            #expect(message.contains(FileManager.default.currentDirectoryPath + "/nowhere/towns.csv.gz"))
            #expect(message.contains("--towns FILE"))
        }
    }
}
