import CairnCore
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
