import CairnCore
import CairnTestSupport
import Testing
import CairnBench

/// The generator: the same seed gives the same files, every verdict kind comes in its share, and the places
/// can be the real towns.
@Suite struct SyntheticDatasetTests {
    let sizes = SyntheticSizes(parks: 50, trailheads: 80, places: 100, events: 120, users: 60, checkIns: 3_000)

    @Test func theSameSeedGivesTheSameFiles() throws {
        let towns = try SyntheticTowns.make(count: 200, seed: 7)
        let first = SyntheticDataset(towns: towns, seed: 42, sizes: sizes).generate()
        let second = SyntheticDataset(towns: towns, seed: 42, sizes: sizes).generate()
        let other = SyntheticDataset(towns: towns, seed: 43, sizes: sizes).generate()
        #expect(first.map(\.name) == ["parks.csv", "trailheads.csv", "places.csv", "events.csv", "users.csv", "checkins.csv", "checkins-expected.csv"])
        #expect(first.map(\.name) == SyntheticDataset.fileNames)
        #expect(first.map(\.text) == second.map(\.text))
        #expect(first.map(\.text) != other.map(\.text))
    }

    @Test func streamingWritesTheSameTextAsInMemory() throws {
        let dataset = SyntheticDataset(towns: try SyntheticTowns.make(count: 200, seed: 7), seed: 9, sizes: sizes)
        var streamed: [String: String] = [:]
        dataset.generate { name, text in streamed[name, default: ""] += text }
        #expect(dataset.generate().map(\.text) == SyntheticDataset.fileNames.map { streamed[$0] ?? "" })
    }

    @Test func everyVerdictKindIsGeneratedInAKnownShare() throws {
        let files = SyntheticDataset(towns: try SyntheticTowns.make(count: 200, seed: 7), seed: 42, sizes: sizes).generate()
        let expected = try #require(files.first { $0.name == "checkins-expected.csv" })
        var counts: [String: Int] = [:]
        for line in expected.text.split(separator: "\n").dropFirst() {
            counts[String(line.split(separator: ",")[2]), default: 0] += 1
        }
        for verdict in SyntheticVerdict.allCases {
            #expect((counts[verdict.rawValue] ?? 0) > 0, "no \(verdict.rawValue) check-ins")
        }
        // Every designed invalid kind gets about 2 %; duplicates get more, since random users also repeat events.
        for verdict in SyntheticVerdict.allCases where verdict != .valid && verdict != .duplicate {
            let share = Double(counts[verdict.rawValue] ?? 0) / Double(sizes.checkIns)
            #expect(share > 0.01 && share < 0.03, "\(verdict.rawValue) share \(share)")
        }
    }

    /// With `placesAreTowns` the places are the towns themselves (ids, names, exact locations).
    @Test func placesCanBeTheRealTowns() throws {
        let towns = try SyntheticTowns.make(count: 200, seed: 7)
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
    }
}
