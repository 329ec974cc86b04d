import CairnBench
import CairnCore
import CairnTestSupport
import Testing

/// The hard check-in load: seeded, every town a place, check-ins near the circle's edge, 1 % unknown events.
@Suite struct EdgeCheckInLoadTests {
    func files(seed: UInt64) throws -> [String: String] {
        let towns = try SyntheticTowns.make(count: 300, seed: 5)
        var files: [String: String] = [:]
        EdgeCheckInLoad(towns: towns, seed: seed, events: 2_000, checkIns: 20_000).generate { files[$0, default: ""] += $1 }
        return files
    }

    @Test func theSameSeedGivesTheSameFiles() throws {
        let first = try files(seed: 1), second = try files(seed: 1), other = try files(seed: 2)
        #expect(first.keys.sorted() == EdgeCheckInLoad.fileNames.sorted())
        #expect(first == second)
        #expect(first["checkins.csv"] != other["checkins.csv"])
        #expect(first["places.csv"]?.split(separator: "\n").count == 301)
        #expect(first["events.csv"]?.split(separator: "\n").count == 2_001)
        #expect(first["checkins.csv"]?.split(separator: "\n").count == 20_001)
    }

    @Test func checkInsLieNearTheEdgeAndOnePercentNameNoEvent() throws {
        let files = try files(seed: 3)
        var places: [String: (Coordinate, Double)] = [:]
        for line in try #require(files["places.csv"]).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let n = f.count
            places[f[0]] = (try Coordinate(latitude: try #require(Double(f[n - 3])), longitude: try #require(Double(f[n - 2]))),
                            try #require(Double(f[n - 1])))
            #expect((50...2_000).contains(try #require(Double(f[n - 1]))))
        }
        var eventPlaces: [String: String] = [:]
        for line in try #require(files["events.csv"]).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            eventPlaces[f[0]] = f[1]
            let start = try #require(Timestamp(iso8601: f[2])), end = try #require(Timestamp(iso8601: f[3]))
            #expect((1_800...14_400).contains(end.secondsSince1970 - start.secondsSince1970))
        }
        var unknown = 0, near = 0, inside = 0, total = 0
        for line in try #require(files["checkins.csv"]).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            total += 1
            guard let place = eventPlaces[f[2]], let (centre, radius) = places[place] else { unknown += 1; continue }
            let point = try Coordinate(latitude: try #require(Double(f[3])), longitude: try #require(Double(f[4])))
            let ratio = distanceMeters(from: centre, to: point) / radius
            #expect(ratio <= 1.5 * 2.squareRoot() * 1.01)
            if ratio <= 1 { inside += 1 }
            if ratio > 0.7, ratio < 1.5 { near += 1 }
        }
        #expect((100...300).contains(unknown), "\(unknown) of \(total) name an unknown event")
        // Uniform in the ±1.5 r square: π/9 ≈ 35 % inside, most between 0.7 r and 1.5 r.
        #expect(abs(Double(inside) / Double(total - unknown) - .pi / 9) < 0.03)
        #expect(Double(near) / Double(total - unknown) > 0.5)
    }
}
