@testable import CairnCLI
import CairnTestSupport
import Foundation
import Testing

/// A command given `--db postgres://…` runs the separate `cairn-postgres` in its place with every argument (the CLI
/// links no PostgreSQL client); one that cannot read PostgreSQL says so instead of looking for a file by that name.
struct PostgresCompanionTests {
    static let url = "postgres://cairn@127.0.0.1:5999/places"

    /// Runs `cairn arguments…` with a stand-in cairn-postgres that prints the arguments it got and exits 5.
    static func runWithStandIn(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let standIn = try folder.write("fake-postgres", "#!/bin/sh\necho \"ran $*\"\nexit 5\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: standIn)
        let process = try CairnProcess(arguments, in: folder.path, environment: ["CAIRN_POSTGRES": standIn])
        try process.closeInput()
        let status = try process.waitForExit(timeoutSeconds: 60)
        return (status, process.standardOutput, process.standardError)
    }

    @Test(arguments: [
        ["import", "places.csv", "--kind", "place", "--db", url],
        ["bbox", "--bbox", "170,-10,-170,10", "--db", url, "--format", "csv"],
        ["around", "--lat", "60", "--long", "25", "--rad", "2km", "--db", url],
        ["nearest", "--lat", "60", "--long", "25", "-k", "3", "--db", url],
        ["nearest", "--lat", "60", "--long", "25", "--db", url, "--engine", "postgis"],
        ["containing", "--lat", "60", "--long", "25", "--db", url],
        ["get", "place-1", "--db", url],
        ["cluster", "--zoom", "3", "--db", url],
        ["checkins", "validate", "--checkins", "c.csv", "--db", url],
    ])
    func aPostgresStoreIsReadByCairnPostgresGivenEveryArgument(arguments: [String]) throws {
        let ran = try Self.runWithStandIn(arguments)
        #expect(ran.status == 5, "\(ran.error)")
        #expect(ran.output == "ran \(arguments.joined(separator: " "))\n")
    }

    @Test func aCommandThatReadsSQLiteOnlySaysSo() throws {
        let ran = try Self.runWithStandIn(["info", "--db", Self.url])
        #expect(ran.status == 1)
        #expect(ran.output.isEmpty)
        #expect(ran.error.contains("--db \(Self.url): cairn info works on an SQLite store only"))
    }

    @Test func enginePostGISNeedsAPostgresStore() throws {
        #expect(throws: (any Error).self) { _ = try CairnCommand.parseAsRoot(["bbox", "--bbox", "1,1,2,2", "--engine", "postgis"]) }
        #expect(throws: Never.self) { _ = try CairnCommand.parseAsRoot(["bbox", "--bbox", "1,1,2,2", "--engine", "postgis", "--db", Self.url]) }
        #expect(throws: Never.self) { _ = try CairnCommand.parseAsRoot(["bbox", "--bbox", "1,1,2,2", "--engine", "memory"]) }
    }

    @Test func anSQLiteStoreIsNotHandedOn() throws {
        let ran = try Self.runWithStandIn(["bbox", "--bbox", "1,1,2,2", "--db", "missing.sqlite"])
        #expect(ran.status == 1)
        #expect(ran.output.isEmpty)
        #expect(ran.error.contains("no store at 'missing.sqlite'"))
    }
}
