import CairnIO
import CairnTestSupport
import Foundation
import Testing

/// The same commands over an SQLite store and a PostgreSQL store holding the same imports print the same bytes:
/// queries (boxes across the antimeridian, around, nearest at a pole, containing), `get`, `cluster` and
/// `checkins validate`. Every command runs through `cairn-postgres` (what `cairn` runs for `--db postgres://…`),
/// whose `import --db FILE.sqlite` and queries over SQLite are the CLI's own.
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil, PostgresTestDatabase.skipReason), .serialized)
struct PostgresQueryParityTests {
    /// `cairn-postgres arguments…` run to its end in `folder`.
    static func run(_ arguments: [String], in folder: String) throws -> (status: Int32, output: String, error: String) {
        let process = try CairnProcess(arguments, in: folder, executable: "cairn-postgres")
        try process.closeInput()
        let status = try process.waitForExit(timeoutSeconds: 600)
        return (status, process.standardOutput, process.standardError)
    }

    /// Imports each file (with its arguments) into both stores, checking that both imports say the same.
    static func importBoth(_ imports: [[String]], sqlite: String, postgres: String, in folder: String) throws {
        for arguments in imports {
            let intoSQLite = try run(["import"] + arguments + ["--no-progress", "--db", sqlite], in: folder)
            let intoPostgres = try run(["import"] + arguments + ["--db", postgres], in: folder)
            #expect(intoSQLite.status == 0, "\(arguments): \(intoSQLite.error)")
            #expect(intoPostgres.status == 0, "\(arguments): \(intoPostgres.error)")
            #expect(intoSQLite.output == intoPostgres.output)
            #expect(intoSQLite.error == intoPostgres.error)
        }
    }

    /// Runs every command against both stores and expects the same status, standard output and error; returns how
    /// many commands printed something (so that a suite of empty answers cannot pass unnoticed).
    static func expectSameAnswers(_ commands: [[String]], sqlite: String, postgres: String, in folder: String) throws -> Int {
        var answered = 0
        for command in commands {
            let fromSQLite = try run(command + ["--db", sqlite], in: folder)
            let fromPostgres = try run(command + ["--db", postgres], in: folder)
            #expect(fromSQLite.status == 0, "\(command): \(fromSQLite.error)")
            #expect(fromPostgres.status == fromSQLite.status, "\(command): \(fromPostgres.error)")
            #expect(fromPostgres.output == fromSQLite.output, "\(command): the answers differ")
            #expect(fromPostgres.error == fromSQLite.error, "\(command)")
            if fromSQLite.output.utf8.count > 100 { answered += 1 }
        }
        return answered
    }

    /// The queries both data sets are asked: boxes (one across the antimeridian, one given with world copies),
    /// around and nearest in both distance models (near the antimeridian, at the north pole), containing, csv and json.
    static func queries(containingAt point: (latitude: Double, longitude: Double)) -> [[String]] {
        let containing = ["--lat", "\(point.latitude)", "--long", "\(point.longitude)"]
        return [
            ["bbox", "--bbox", "170,-50,-170,10"],
            ["bbox", "--bbox", "170,-50,190,10", "--format", "csv"],
            ["bbox", "--bbox", "-10,35,30,60", "--format", "json", "--limit", "300"],
            ["around", "--lat", "60.17", "--long", "24.94", "--rad", "300km"],
            ["around", "--lat", "-18.14", "--long", "178.44", "--rad", "800km", "--model", "sphere", "--format", "csv"],
            ["nearest", "--lat", "-17", "--long", "-179.9", "-k", "25"],
            ["nearest", "--lat", "90", "--long", "0", "-k", "10", "--format", "csv"],
            ["nearest", "--lat", "40.7", "--long", "-74", "-k", "50", "--max-distance", "2000km", "--model", "sphere"],
            ["containing"] + containing,
            ["containing"] + containing + ["--format", "csv", "--model", "sphere"],
            ["cluster", "--zoom", "2"],
            ["cluster", "--zoom", "5", "--bbox", "170,-50,-170,10"],
        ]
    }

    /// Runs every command (with `--format csv`) on the PostgreSQL store with `--engine memory` and `--engine postgis`
    /// and expects the same ids in the same order and distances within 1 mm; returns the largest distance difference.
    static func expectPostGISAgrees(_ commands: [[String]], postgres: String, in folder: String) throws -> Double {
        var largest = 0.0, distancesCompared = 0
        for command in commands {
            let memory = try run(command + ["--format", "csv", "--db", postgres], in: folder)
            let postgis = try run(command + ["--format", "csv", "--db", postgres, "--engine", "postgis"], in: folder)
            #expect(memory.status == 0, "\(command): \(memory.error)")
            #expect(postgis.status == 0, "\(command): \(postgis.error)")
            // The columns up to distance_m (id, kind, position, radius, times, distance) hold no comma here.
            func rows(_ text: String) -> [(id: Substring, distance: Double?)] {
                let lines = text.split(separator: "\n")
                let column = lines.first?.split(separator: ",").firstIndex(of: "distance_m")
                return lines.dropFirst().map { line in
                    let fields = line.split(separator: ",", omittingEmptySubsequences: false)
                    return (fields[0], column.flatMap { Double(fields[$0]) })
                }
            }
            let fromMemory = rows(memory.output), fromPostGIS = rows(postgis.output)
            #expect(fromPostGIS.map(\.id) == fromMemory.map(\.id), "\(command): other features or another order")
            for (a, b) in zip(fromMemory, fromPostGIS) {
                #expect((a.distance == nil) == (b.distance == nil))
                if let x = a.distance, let y = b.distance {
                    largest = max(largest, abs(x - y))
                    distancesCompared += 1
                }
            }
        }
        // Without a distance_m column both sides read nil and nothing would be compared.
        #expect(distancesCompared > 0, "no distance was compared")
        #expect(largest <= 0.001)
        return largest
    }

    /// The point and box queries of `queries`, plus a kind filter and a `--where`, for both engines.
    static func engineQueries(containingAt point: (latitude: Double, longitude: Double)) -> [[String]] {
        queries(containingAt: point).filter { $0[0] != "cluster" && !$0.contains("sphere") }.map { $0.filter { $0 != "--format" && $0 != "csv" && $0 != "json" } } + [
            ["around", "--lat", "\(point.latitude)", "--long", "\(point.longitude)", "--rad", "1500km", "--kind", "place", "--kind", "park"],
            ["bbox", "--bbox", "-180,-90,180,90", "--kind", "event", "--where", "name!=nothing"],
            ["nearest", "--lat", "\(point.latitude)", "--long", "\(point.longitude)", "-k", "100", "--kind", "place"],
            ["nearest", "--lat", "-90", "--long", "0", "-k", "7", "--max-distance", "9000km"],
        ]
    }

    @Test func seededDataAnswersTheSameFromSQLiteAndPostgreSQL() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await PostgresTestDatabase.with { database in
            let generated = try Self.run(["generate", "--towns", try RepositoryData.path("Data/geonames-cities500.csv.gz"),
                                          "--out", folder.path("data"), "--seed", "21", "--parks", "200", "--trailheads", "200",
                                          "--places", "1500", "--events", "300", "--users", "50", "--checkins", "3000"], in: folder.path)
            try #require(generated.status == 0, "\(generated.error)")
            let sqlite = folder.path(), postgres = database.url.description
            try Self.importBoth([["data/parks.csv", "--kind", "park"], ["data/trailheads.csv", "--kind", "trailhead"],
                                 ["data/places.csv", "--kind", "place"], ["data/events.csv", "--kind", "event"]],
                                sqlite: sqlite, postgres: postgres, in: folder.path)
            // Helsinki's parks, polygons kept whole in both stores: `get` prints the same shape.
            // And New York's boroughs, whose crs member both imports name in the same note.
            try Self.importBoth([[try RepositoryData.path("Data/osm-helsinki-parks.geojson"), "--kind", "park"],
                                 [try RepositoryData.path("Data/nyc-boroughs-epsg2263.geojson.gz"), "--kind", "park"]],
                                sqlite: sqlite, postgres: postgres, in: folder.path)
            var shapedIDs: [String] = []
            try openFeatureReader(path: try RepositoryData.path("Data/osm-helsinki-parks.geojson"), options: ImportOptions(kind: .park))
                .forEachRecord { if $0.shape?.kind.isAreal == true { shapedIDs.append($0.id) } } rejected: { _ in }
            let shapedPark = try #require(shapedIDs.first)
            let place = try #require(String(contentsOfFile: folder.path("data/places.csv"), encoding: .utf8).split(separator: "\n").dropFirst().first)
                .split(separator: ",")
            let point = (latitude: try #require(Double(place[2])), longitude: try #require(Double(place[3])))
            let commands = Self.queries(containingAt: point) + [["get", "park-7"], ["get", "event-3", "--format", "json"],
                                                                ["get", shapedPark], ["get", shapedPark, "--format", "json"],
                                                                ["bbox", "--bbox", "24.8,60.1,25.1,60.3", "--kind", "park"]]
            let answered = try Self.expectSameAnswers(commands, sqlite: sqlite, postgres: postgres, in: folder.path)
            #expect(answered >= commands.count - 2)
            let largest = try Self.expectPostGISAgrees(Self.engineQueries(containingAt: point), postgres: postgres, in: folder.path)
            print("seeded data: largest |PostGIS - Cairn| distance \(largest) m")

            // Check-ins judged against either store's places and events: the same verdicts, row for row.
            for (store, out) in [(sqlite, "verdicts-sqlite.csv"), (postgres, "verdicts-postgres.csv")] {
                let judged = try Self.run(["checkins", "validate", "--checkins", "data/checkins.csv", "--db", store, "--out", out], in: folder.path)
                #expect(judged.status == 0, "\(judged.error)")
            }
            let fromSQLite = try String(contentsOfFile: folder.path("verdicts-sqlite.csv"), encoding: .utf8)
            #expect(fromSQLite.split(separator: "\n").count == 3001)
            #expect(try String(contentsOfFile: folder.path("verdicts-postgres.csv"), encoding: .utf8) == fromSQLite)
        }
    }

    /// GeoNames' real places (every 40th town, and every town within 10° of the antimeridian), with a radius.
    @Test func geoNamesPlacesAnswerTheSameFromSQLiteAndPostgreSQL() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var towns: [String] = ["id,name,latitude,longitude"]
        var position = 0
        try openFeatureReader(path: try RepositoryData.path("Data/geonames-cities500.csv.gz"), options: ImportOptions(idColumn: "geonameid"))
            .forEachRecord { town in
                defer { position += 1 }
                guard position % 40 == 0 || abs(town.location.longitude) >= 170 else { return }
                guard case .string(let text)? = town.attributes["name"] else { return }
                let name = "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                towns.append("\(town.id),\(name),\(town.location.latitude),\(town.location.longitude)")
            } rejected: { _ in }
        #expect(towns.count > 5000)
        _ = try folder.write("towns.csv", towns.joined(separator: "\n") + "\n")
        try await PostgresTestDatabase.with { database in
            let sqlite = folder.path(), postgres = database.url.description
            try Self.importBoth([["towns.csv", "--kind", "place", "--radius", "25km"]],
                                sqlite: sqlite, postgres: postgres, in: folder.path)
            let suva = (latitude: -18.14161, longitude: 178.44149)
            let answered = try Self.expectSameAnswers(Self.queries(containingAt: suva), sqlite: sqlite, postgres: postgres, in: folder.path)
            #expect(answered >= 10)
            let largest = try Self.expectPostGISAgrees(Self.engineQueries(containingAt: suva), postgres: postgres, in: folder.path)
            print("GeoNames: largest |PostGIS - Cairn| distance \(largest) m")
        }
    }
}
