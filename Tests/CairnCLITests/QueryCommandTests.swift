import CairnTestSupport
import ArgumentParser
import CairnCore
import CairnStore
import Foundation
import Testing
@testable import CairnCLI

/// The query commands end to end, in-process: parse, run against a small store, read the output file.
@Suite struct QueryCommandTests {
    let folder: TemporaryFolder
    let db: String

    init() throws {
        folder = try TemporaryFolder()
        db = folder.path + "/q.sqlite"
        let places = try folder.write("places.csv", """
            id,name,lat,lon,radius,fenced,difficulty
            hel,Helsinki,60.16952,24.93545,2km,true,
            esp,Espoo,60.2052,24.6522,5km,false,
            suva,Suva,-18.14161,178.44149,3km,true,
            taveuni,Taveuni east,-16.8,-179.9,1km,false,
            west,Taveuni west,-16.8,179.995,1km,true,
            pole,Amundsen-Scott,-90,0,10km,false,
            edge,On the edge,60.0,25.0,,true,

            """)
        var command = try CairnCommand.parseAsRoot(["import", places, "--db", db, "--no-progress"])
        try command.run()
    }

    /// Runs a command with `--out` and returns what it wrote.
    func run(_ arguments: [String]) throws -> String {
        let out = folder.path + "/out-\(UUID().uuidString)"
        var command = try CairnCommand.parseAsRoot(arguments + ["--db", db, "--out", out])
        try command.run()
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    func ids(_ arguments: [String]) throws -> [String] {
        try run(arguments + ["--format", "ids"]).split(separator: "\n").map(String.init)
    }

    @Test func bboxTakesNegativeNumbersAndCrossesTheAntimeridian() throws {
        #expect(try ids(["bbox", "--bbox", "179,-20,-179,-15"]) == ["taveuni", "west"])
        #expect(try ids(["bbox", "--sw", "-20,179", "--ne", "-15,-179"]) == ["taveuni", "west"])
        #expect(try ids(["bbox", "--bbox", "-180,-90,180,90", "--kind", "place", "--where", "fenced"]) == ["hel", "suva", "west", "edge"])
        // A point exactly on the box's corner is inside.
        #expect(try ids(["bbox", "--bbox", "25,59,26,60"]) == ["edge"])
        // Longitudes as a map with world copies gives them: the same meridians, so the same box.
        #expect(try ids(["bbox", "--bbox", "179,-20,181,-15"]) == ["taveuni", "west"])
        #expect(try ids(["bbox", "--sw", "-20,-181", "--ne", "-15,-179"]) == ["taveuni", "west"])
        #expect(try ids(["bbox", "--bbox", "-200,-20,200,-15"]) == ["suva", "taveuni", "west"])
    }

    /// `--limit` keeps the first results in the query's order; 0 gives none; a negative count is refused.
    @Test func limitKeepsTheFirstResultsInTheQuerysOrder() throws {
        let all = try ids(["bbox", "--bbox", "-180,-90,180,90"])
        #expect(all.count == 7)
        #expect(try ids(["bbox", "--bbox", "-180,-90,180,90", "--limit", "3"]) == Array(all.prefix(3)))
        #expect(try ids(["bbox", "--bbox", "-180,-90,180,90", "--limit", "0"]) == [])
        #expect(try ids(["bbox", "--bbox", "-180,-90,180,90", "--limit", "100"]) == all)
        let nearestFirst = try ids(["around", "--lat", "60.17", "--long", "24.94", "--rad", "50km"])
        #expect(nearestFirst.count == 3)
        #expect(try ids(["around", "--lat", "60.17", "--long", "24.94", "--rad", "50km", "--limit", "1"]) == ["hel"])
        #expect(try ids(["containing", "--lat", "60.17", "--long", "24.94", "--limit", "1"]) == ["hel"])
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bbox", "--bbox", "0,0,1,1", "--limit", "-1", "--db", db]) }
    }

    @Test func aroundSortsByDistanceAndAcceptsUnits() throws {
        #expect(try ids(["around", "--lat", "60.17", "--long", "24.9", "--rad", "30km"]) == ["hel", "esp", "edge"])
        #expect(try ids(["around", "--lat", "-16.8", "--long", "180", "--rad", "12km"]) == ["west", "taveuni"])
        #expect(try ids(["around", "--lat", "-89.99", "--long", "120", "--rad", "2km", "--model", "sphere"]) == ["pole"])
    }

    @Test func nearestAndContainingAnswerTheCheckInQuestions() throws {
        #expect(try ids(["nearest", "--lat", "60.17", "--long", "24.94", "-k", "2"]) == ["hel", "esp"])
        #expect(try ids(["nearest", "--lat", "60.17", "--long", "24.94", "-k", "5", "--max-distance", "20km"]) == ["hel", "esp", "edge"])
        #expect(try ids(["nearest", "--lat", "60.17", "--long", "24.94", "-k", "5", "--max-distance", "19km"]) == ["hel", "esp"])
        #expect(try ids(["containing", "--lat", "60.17", "--long", "24.94"]) == ["hel"])
        #expect(try ids(["containing", "--lat", "-16.8", "--long", "-179.999"]) == ["west"])
        #expect(try ids(["containing", "--lat", "-89.95", "--long", "77"]) == ["pole"])
    }

    @Test func formatsCarryDistancesAndProperties() throws {
        let geojson = try run(["nearest", "--lat", "60.17", "--long", "24.94", "-k", "1"])
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geojson.utf8)) as? [String: Any])
        #expect(collection["type"] as? String == "FeatureCollection")
        let feature = try #require((collection["features"] as? [[String: Any]])?.first)
        let properties = try #require(feature["properties"] as? [String: Any])
        #expect(properties["name"] as? String == "Helsinki")
        let expected = distanceMeters(from: try Coordinate(latitude: 60.17, longitude: 24.94), to: try Coordinate(latitude: 60.16952, longitude: 24.93545))
        let distance = try #require(properties["distance_m"] as? Double)
        #expect(abs(distance - expected) < 1e-6)
        let csv = try run(["bbox", "--bbox", "24,60,25,61", "--format", "csv"])
        #expect(csv.hasPrefix("id,kind,latitude,longitude,radiusMeters,startTime,endTime,"))
        let json = try run(["bbox", "--bbox", "24,60,25,61", "--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [Any])?.count == 3)
    }

    @Test func badArgumentsGetPlainSentences() {
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bbox", "--bbox", "1,2,3"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bbox", "--bbox", "0,95,1,96"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bbox"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["around", "--lat", "91", "--long", "0", "--rad", "1km"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["around", "--lat", "1", "--long", "0", "--rad", "far"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["nearest", "--lat", "1", "--long", "0", "-k", "0"]) }
        let help = CairnCommand.helpMessage(for: BBoxCommand.self)
        for option in ["--bbox", "--sw", "--ne", "--kind", "--where", "--format", "--explain", "--db"] { #expect(help.contains(option)) }
    }

    @Test func geohashCommandsWork() throws {
        #expect(try ids(["geohash", "prefix", "ud9"]).contains("hel"))
    }
}
