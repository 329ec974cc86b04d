import CairnCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL store named by `--db postgres://…`. The root package links no NIO (docs/ARCHITECTURE.md,
/// "PostgreSQL"), so `cairn` runs the Server package's `cairn-postgres` in its place with the same arguments (as
/// `cairn serve` runs `cairn-server`). `cairn-postgres` runs these same commands with a `PostgresStoreReader`
/// installed, so a query, `cluster` or `checkins validate` over PostgreSQL builds the same in-memory index and prints
/// through the same encoders as over SQLite: the same bytes for the same features.
/// `cairn-postgres` is looked for in $CAIRN_POSTGRES, beside cairn, in Server/ under the same build folder, then on PATH.
public enum PostgresCompanion {
    /// Whether a `--db` value names a PostgreSQL store rather than an SQLite file.
    /// - Complexity: O(1).
    public static func isStoreURL(_ path: String) -> Bool { path.hasPrefix("postgres://") || path.hasPrefix("postgresql://") }

    // Set once, before the command runs, by cairn-postgres's main; read by the command. The lock keeps that legal.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installedReader: PostgresStoreReader?

    /// Installs the reader the commands use for a PostgreSQL store (cairn-postgres does, before running a command);
    /// without one, a command given a store URL runs cairn-postgres instead.
    /// - Complexity: O(1).
    public static func install(_ reader: PostgresStoreReader) {
        lock.withLock { installedReader = reader }
    }

    /// The reader for a store URL: the installed one in cairn-postgres; in cairn, none: this process is replaced by
    /// cairn-postgres given the same command line, which reaches this point again with its reader (so nothing may be
    /// printed before a command asks). Returns only in cairn-postgres.
    static func reader() throws -> PostgresStoreReader {
        if let reader = lock.withLock({ installedReader }) { return reader }
        let command = CommandLine.arguments.dropFirst().first ?? "cairn"
        try exec(arguments: Array(CommandLine.arguments.dropFirst()), command: "cairn \(command)",
                 environment: ProcessInfo.processInfo.environment)
    }

    /// Replaces this process with `cairn-postgres arguments…` (`arguments` are those after `cairn`).
    /// Returns only by throwing.
    static func exec(arguments: [String], command: String, environment: [String: String]) throws -> Never {
        let tool = try executable(command: command, environment: environment)
        fflush(nil) // every C stream, so nothing written before the exec is lost
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        execv(tool, argv)
        throw CLIError("\(command): cannot run \(tool): \(String(cString: strerror(errno)))")
    }

    static func executable(command: String, environment: [String: String]) throws -> String {
        if let chosen = environment["CAIRN_POSTGRES"], !chosen.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: chosen) else {
                throw CLIError("\(command): CAIRN_POSTGRES is '\(chosen)', which is not an executable file")
            }
            return chosen
        }
        let beside = ServeCommand.companionCandidates("cairn-postgres", cairnPath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        let onPath = (environment["PATH"] ?? "").split(separator: ":").filter { !$0.isEmpty }.map { String($0) + "/cairn-postgres" }
        if let found = (beside + onPath).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        throw CLIError("""
            \(command): a PostgreSQL store is read and written by the separate executable cairn-postgres, and none was \
            found (looked for \(beside.joined(separator: " and ")), then on PATH). Build it with \
            `swift build -c release --package-path Server` (scripts/run does), or set CAIRN_POSTGRES to its path.
            """)
    }
}
