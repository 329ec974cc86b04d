import CairnBench
import CairnTestSupport
import CairnCore
import Foundation
import Testing
@testable import CairnCLI

/// The generator's options for the issue's perf run, and its refusals.
@Suite struct GenerateOptionTests {
    /// With `placesAreTowns` the places are the towns themselves, the events sit at them, and
    /// `cairn checkins validate` gives every check-in the verdict it was built for.
    @Test func checkInsAtTheRealTownsGetTheirVerdicts() throws {
        let towns = try SyntheticTowns.make(count: 200, seed: 7)
        let sizes = SyntheticSizes(parks: 20, trailheads: 5, places: 150, events: 200, users: 30, checkIns: 1_500)
        let files = SyntheticDataset(towns: towns, seed: 3, sizes: sizes, placesAreTowns: true).generate()
        let folder = try TemporaryFolder()
        for file in files { _ = try folder.write(file.name, file.text) }
        let cli = CheckInCLITests()
        let lines = try cli.validate(["--places", folder.path + "/places.csv", "--places", folder.path + "/parks.csv",
                                      "--events", folder.path + "/events.csv", "--checkins", folder.path + "/checkins.csv"], folder: folder)
        let expected = try #require(files.first { $0.name == "checkins-expected.csv" }).text
            .split(separator: "\n").dropFirst().map { String($0.split(separator: ",")[2]) }
        #expect(cli.verdicts(lines) == expected)
    }

    /// The command writes exactly the library's files for the towns it reads, and names each with its row count.
    @Test func theCommandWritesTheGeneratorsFiles() throws {
        let folder = try TemporaryFolder()
        let towns = try SyntheticTowns.make(count: 30, seed: 12)
        let rows = towns.map { town in
            "\(town.id.dropFirst(5)),Town \(town.id.dropFirst(5)),\(town.location.latitude),\(town.location.longitude)"
        }
        let townsFile = try folder.write("towns.csv", (["geonameid,name,latitude,longitude"] + rows).joined(separator: "\n") + "\n")
        let out = folder.path("out")
        var command = try CairnCommand.parseAsRoot([
            "generate", "--towns", townsFile, "--out", out, "--seed", "8", "--parks", "5", "--trailheads", "6",
            "--places", "7", "--events", "9", "--users", "4", "--checkins", "50",
        ])
        try command.run()
        let read = try GenerateCommand.readTowns(path: townsFile)
        let sizes = SyntheticSizes(parks: 5, trailheads: 6, places: 7, events: 9, users: 4, checkIns: 50)
        for file in SyntheticDataset(towns: read, seed: 8, sizes: sizes).generate() {
            let written = try String(contentsOfFile: out + "/" + file.name, encoding: .utf8)
            #expect(written == file.text, "\(file.name)")
        }
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
