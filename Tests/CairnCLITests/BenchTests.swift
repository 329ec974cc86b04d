import ArgumentParser
import CairnBench
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCLI

/// `cairn bench` as a command: its options and refusals (the bench itself is tested in CairnBenchTests).
@Suite("cairn bench")
struct BenchTests {
    @Test("The command refuses unknown engines and operations and parses the documented options")
    func commandOptions() throws {
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--engines", "cairn,postgis"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--ops", "box-5"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--points", "0"]) }
        let command = try #require(try CairnCommand.parseAsRoot([
            "bench", "--quick", "--dataset", "uniform", "--format", "json", "--engines", "sqlite-rtree,cairn",
            "--ops", "nearest-20,box-10", "--seed", "9",
        ]) as? BenchCommand)
        #expect(command.quick && command.format == .json && command.seed == 9)
        #expect(try command.engineNames() == [.sqliteRTree, .cairn])
        #expect(try command.operationKinds() == [.box(targetResults: 10), .nearest(count: 20)])
    }

    @Test("--db benchmarks a store: drawn queries per operation, or a queries file's, its bad lines counted; options checked")
    func storeBench() throws {
        let folder = try TemporaryFolder()
        let db = folder.path("bench.sqlite")
        let places = try folder.write("places.csv", """
            id,name,lat,lon,radius
            hel,Helsinki,60.16952,24.93545,2km
            esp,Espoo,60.2052,24.6522,5km
            suva,Suva,-18.14161,178.44149,3km
            west,Taveuni west,-16.8,179.995,1km
            pole,Amundsen-Scott,-90,0,10km
            edge,On the edge,60.0,25.0,

            """)
        var importCommand = try CairnCommand.parseAsRoot(["import", places, "--db", db, "--no-progress"])
        try importCommand.run()

        let drawn = try #require(try CairnCommand.parseAsRoot([
            "bench", "--db", db, "--queries", "12", "--threads", "2", "--ops", "nearest-1,box-10,containment",
        ]) as? BenchCommand)
        let report = try drawn.storeReport(db)
        #expect(report.features == 6 && report.rejectedLines == 0 && report.configuration.threads == 2)
        #expect(report.rows.map(\.operation) == ["box-10", "nearest-1", "containment"])
        #expect(report.rows.allSatisfy { $0.queries == 12 })
        #expect(report.rows[1].results == 12)

        let queries = try folder.write("queries.csv", "nearest,60.1,24.9,3\nnearest,60.1,24.9,zero\ncontaining,60.17,24.94\n")
        let fromFile = try #require(try CairnCommand.parseAsRoot(["bench", "--db", db, "--queries", queries, "--format", "json"]) as? BenchCommand)
        let fileReport = try fromFile.storeReport(db)
        #expect(fileReport.rejectedLines == 1)
        #expect(fileReport.rows.map(\.operation) == ["nearest", "containing"])
        #expect(fileReport.rows.map(\.results) == [3, 1])
        #expect(throws: ExitCode(1)) { try fromFile.runStore(db) }

        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--queries", queries]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--threads", "2"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--db", db, "--threads", "0"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--db", db, "--duration", "0"]) }
        #expect(throws: (any Error).self) { try CairnCommand.parseAsRoot(["bench", "--db", db, "--clusters"]) }
        let missing = try #require(try CairnCommand.parseAsRoot(["bench", "--db", folder.path("none.sqlite")]) as? BenchCommand)
        #expect(throws: (any Error).self) { try missing.storeReport(folder.path("none.sqlite")) }
    }
}
