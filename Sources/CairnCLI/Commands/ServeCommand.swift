import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cairn serve`: runs `cairn-server`, the map backend, with the same arguments.
///
/// The server is an executable of its own, built from the package in `Server/`, so that the CLI neither builds nor
/// links the web stack (Hummingbird, SwiftNIO): linked in, its thousands of protocol conformances made every one-off
/// query slower to start (ArgumentParser's type lookups scan them all), and `swift build` printed that stack's
/// warnings. This command replaces itself with the server (`execv`), so the process id, the signals (SIGTERM drains
/// the requests in flight) and the exit status are the server's own.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the store over HTTP: the map backend (around_location, the viewfinder, clusters, edits, check-ins).",
        discussion: """
            Runs the cairn-server executable with these arguments; `cairn serve --help` prints its options. \
            cairn-server is built by scripts/run and scripts/test, or by `swift build -c release --package-path Server`; \
            it is looked for in $CAIRN_SERVER, next to cairn, in Server/ beside the build cairn comes from, then on PATH.
            """
    )

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The server's options (`cairn serve --help` lists them).", valueName: "options"))
    var arguments: [String] = []

    func run() throws {
        let server = try Self.serverExecutable(environment: ProcessInfo.processInfo.environment)
        fflush(nil) // every C stream, so nothing written before the exec is lost
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        // Only reached when exec failed.
        throw CLIError("cairn serve: cannot run \(server): \(String(cString: strerror(errno)))")
    }

    /// The `cairn-server` to run: `$CAIRN_SERVER` when set, else the first executable among the places the
    /// command's discussion lists.
    /// - Throws: `CLIError` naming every place looked in and how to build the server.
    static func serverExecutable(environment: [String: String]) throws -> String {
        if let chosen = environment["CAIRN_SERVER"], !chosen.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw CLIError("cairn serve: CAIRN_SERVER is '\(chosen)', which is not an executable file")
            }
            return chosen
        }
        let besideCairn = serverCandidates(cairnPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        let onPath = (environment["PATH"] ?? "").split(separator: ":").filter { !$0.isEmpty }.map { String($0) + "/cairn-server" }
        if let found = (besideCairn + onPath).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw CLIError("""
            cairn serve: the server is the separate executable cairn-server, and none was found (looked for \
            \(besideCairn.joined(separator: " and ")), then on PATH). Build it with \
            `swift build -c release --package-path Server` (scripts/run does), or set CAIRN_SERVER to its path.
            """)
    }

    /// Where `cairn-server` may be beside the `cairn` at `cairnPath`, in order: in the same folder (symbolic links
    /// resolved); in `Server/` under the same build folder when `cairnPath` lies in a SwiftPM build folder
    /// (`ROOT/.build/release/cairn` gives `ROOT/Server/.build/release/cairn-server`, `.build-NAME` alike).
    static func serverCandidates(cairnPath: String) -> [String] { companionCandidates("cairn-server", cairnPath: cairnPath) }

    /// Where an executable of the Server package (`cairn-server`, `cairn-postgres`) is looked for: beside `cairn`, then
    /// in `Server/` under the same build folder.
    static func companionCandidates(_ name: String, cairnPath: String) -> [String] {
        let folder = URL(fileURLWithPath: cairnPath).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = [folder.appendingPathComponent(name).path]
        let parts = folder.pathComponents
        if let build = parts.lastIndex(where: { $0 == ".build" || $0.hasPrefix(".build-") || $0.hasPrefix(".build_") }) {
            let twin = parts[..<build] + ["Server"] + parts[build...] + [name]
            candidates.append(NSString.path(withComponents: Array(twin)))
        }
        return candidates
    }
}
