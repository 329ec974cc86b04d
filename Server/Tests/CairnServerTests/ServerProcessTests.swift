import CairnCLI
import CairnTestSupport
import Foundation
import Testing

/// `cairn-server` (what `cairn serve` runs) as a process: it follows another process's import (this test's own,
/// through the CLI in-process), and SIGTERM stops it cleanly.
@Suite(.serialized) struct ServerProcessTests {
    /// Starts the server on a free port and returns it with its base URL.
    static func start(_ fixture: ServerFixture) throws -> (CairnProcess, String) {
        let server = try CairnProcess(["--db", fixture.db, "--port", "0", "--reload-seconds", "0.1"], in: fixture.folder.path,
                                      executable: "cairn-server")
        try server.waitForStandardError(containing: "cairn serve: listening on ", timeoutSeconds: 60)
        let line = try #require(server.standardError.split(separator: "\n").first { $0.contains("cairn serve: listening on ") })
        let url = String(line.split(separator: " ")[4])
        return (server, url)
    }

    /// The body of a GET, through the system's `curl`, as a user would ask.
    static func get(_ url: String) throws -> String {
        try SystemCommand.text(["curl", "-sS", "--max-time", "10", url])
    }

    @Test func anImportByAnotherProcessShowsWithoutARestart() throws {
        let fixture = try ServerFixture()
        let (server, base) = try Self.start(fixture)
        defer { server.send(signal: SIGTERM) }
        #expect(try Self.get(base + "/features/oslo").contains("no feature with id 'oslo'"))
        let more = try fixture.folder.write("more.csv", "id,name,lat,lon\noslo,Oslo,59.91,10.75\n")
        var importing = try CairnCommand.parseAsRoot(["import", more, "--db", fixture.db, "--no-progress"])
        try importing.run()
        var answer = ""
        for _ in 0..<100 {
            answer = try Self.get(base + "/places/around_location?lat=59.91&long=10.75&rad=1km&format=ids")
            if answer == "oslo\n" { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(answer == "oslo\n")
        #expect(try Self.get(base + "/healthz").contains("\"generation\":2,\"clusters_generation\":2,\"features\":10"))
    }

    @Test func sigtermLetsARequestInFlightFinish() throws {
        let fixture = try ServerFixture(csv: "id,name,lat,lon,radius\nhall,Hall,60.17,24.94,100m\n")
        let rows = 150_000
        var body = "id,user,place,lat,lon,time\n"
        body.reserveCapacity(rows * 48)
        for row in 0..<rows { body += "c\(row),u\(row),hall,60.17,24.94,2026-06-01T18:30:00Z\n" }
        let file = try fixture.folder.write("checkins.csv", body)
        let (server, base) = try Self.start(fixture)
        let output = fixture.folder.path + "/verdicts.csv"
        let upload = Process()
        upload.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        upload.arguments = ["curl", "-sS", "--max-time", "60", "-H", "Content-Type: text/csv", "--data-binary", "@" + file,
                            "-o", output, base + "/checkins/validate"]
        try upload.run()
        // SIGTERM once the server has the request (its body is being read or judged), not before.
        Thread.sleep(forTimeInterval: 0.3)
        server.send(signal: SIGTERM)
        upload.waitUntilExit()
        #expect(upload.terminationStatus == 0)
        #expect(try server.waitForExit(timeoutSeconds: 60) == 0)
        let verdicts = try String(contentsOfFile: output, encoding: .utf8)
        #expect(verdicts.split(separator: "\n").count == rows + 1)
    }

    @Test func sigtermStopsTheServerWithStatusZero() throws {
        let fixture = try ServerFixture()
        let (server, base) = try Self.start(fixture)
        #expect(try Self.get(base + "/healthz").hasPrefix("{\"status\":\"ok\""))
        server.send(signal: SIGTERM)
        #expect(try server.waitForExit(timeoutSeconds: 30) == 0)
    }
}
