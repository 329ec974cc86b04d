import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `cairn import --db postgres://…` runs `cairn-postgres` (the Server package's PostgreSQL client) in its place, with
/// the same arguments: the root package links no NIO (docs/ARCHITECTURE.md, "PostgreSQL"), as `cairn serve` runs
/// `cairn-server`. It is looked for in $CAIRN_POSTGRES, beside cairn, in Server/ under the same build folder, then on PATH.
enum PostgresImport {
    /// Whether a `--db` value names a PostgreSQL store rather than an SQLite file.
    static func isStoreURL(_ path: String) -> Bool { path.hasPrefix("postgres://") || path.hasPrefix("postgresql://") }

    /// Replaces this process with `cairn-postgres import`'s, given `arguments` (those after `cairn import`).
    /// Returns only by throwing.
    static func exec(arguments: [String], environment: [String: String]) throws -> Never {
        let tool = try executable(environment: environment)
        fflush(nil) // every C stream, so nothing written before the exec is lost
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        execv(tool, argv)
        throw CLIError("cairn import: cannot run \(tool): \(String(cString: strerror(errno)))")
    }

    static func executable(environment: [String: String]) throws -> String {
        if let chosen = environment["CAIRN_POSTGRES"], !chosen.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw CLIError("cairn import: CAIRN_POSTGRES is '\(chosen)', which is not an executable file")
            }
            return chosen
        }
        let beside = ServeCommand.companionCandidates("cairn-postgres", cairnPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        let onPath = (environment["PATH"] ?? "").split(separator: ":").filter { !$0.isEmpty }.map { String($0) + "/cairn-postgres" }
        if let found = (beside + onPath).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw CLIError("""
            cairn import: a PostgreSQL store is written by the separate executable cairn-postgres, and none was found \
            (looked for \(beside.joined(separator: " and ")), then on PATH). Build it with \
            `swift build -c release --package-path Server` (scripts/run does), or set CAIRN_POSTGRES to its path.
            """)
    }
}
