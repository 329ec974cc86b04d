@testable import CairnCLI
import CairnTestSupport
import Foundation
import Testing

/// `cairn serve` runs the separate `cairn-server` executable with the user's arguments, and says how to build it
/// when it is missing.
struct ServeCommandTests {
    /// A stand-in server that prints the arguments it got and exits 7.
    static func fakeServer(in folder: TemporaryFolder) throws -> String {
        let path = try folder.write("fake-server", "#!/bin/sh\necho \"ran $*\"\nexit 7\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    @Test func serveReplacesItselfWithTheServerAndPassesEveryArgument() throws {
        let folder = try TemporaryFolder()
        let server = try Self.fakeServer(in: folder)
        let process = try CairnProcess(["serve", "--db", "s.sqlite", "--port", "0", "--help"], in: folder.path,
                                       environment: ["CAIRN_SERVER": server])
        try process.closeInput()
        #expect(try process.waitForExit(timeoutSeconds: 60) == 7)
        #expect(process.standardOutput == "ran --db s.sqlite --port 0 --help\n")
    }

    @Test func aMissingServerIsNamedWithHowToBuildIt() throws {
        let folder = try TemporaryFolder()
        let process = try CairnProcess(["serve"], in: folder.path, environment: ["CAIRN_SERVER": folder.path + "/nothing"])
        try process.closeInput()
        #expect(try process.waitForExit(timeoutSeconds: 60) == 1)
        #expect(process.standardError.contains("CAIRN_SERVER is '\(folder.path)/nothing', which is not an executable file"))
    }

    @Test func theServerIsLookedForBesideCairnAndInTheServerPackagesTwinBuildFolder() {
        #expect(ServeCommand.serverCandidates(cairnPath: "/src/cairn/.build/x86_64-unknown-linux-gnu/release/cairn") == [
            "/src/cairn/.build/x86_64-unknown-linux-gnu/release/cairn-server",
            "/src/cairn/Server/.build/x86_64-unknown-linux-gnu/release/cairn-server",
        ])
        #expect(ServeCommand.serverCandidates(cairnPath: "/src/cairn/.build-static/release/cairn") == [
            "/src/cairn/.build-static/release/cairn-server", "/src/cairn/Server/.build-static/release/cairn-server",
        ])
        #expect(ServeCommand.serverCandidates(cairnPath: "/usr/local/bin/cairn") == ["/usr/local/bin/cairn-server"])
    }
}
