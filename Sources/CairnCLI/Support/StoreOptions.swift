import ArgumentParser
import CairnCore
import CairnStore
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `--db PATH` and `--wait-seconds S` options shared by every command that reads or writes the store.
struct StoreOptions: ParsableArguments {
    // One help for every command that takes a store, so it names the commands that refuse PostgreSQL (`open`).
    @Option(name: .customLong("db"), help: ArgumentHelp(
        "The store: an SQLite file, or PostgreSQL/PostGIS as postgres://user@host:port/database (not for info, delete, intersects and snapshot, which take an SQLite file only).",
        valueName: "path"))
    var path: String = "cairn.sqlite"

    @Option(name: .customLong("wait-seconds"), parsing: .unconditional, help: ArgumentHelp(
        "How long a write waits for another writer of the store (an import, a delete) to finish, in seconds; 0 fails at once. Queries never wait.",
        valueName: "seconds"))
    var waitSeconds: Double = FeatureStore.defaultWriterWaitSeconds

    func validate() throws {
        guard waitSeconds.isFinite, waitSeconds >= 0 else {
            throw ValidationError("--wait-seconds must be a number of seconds, 0 or more, got \(waitSeconds)")
        }
    }

    /// Whether `--db` names a PostgreSQL store (`postgres://…`), which cairn-postgres reads (`PostgresCompanion`).
    var isPostgres: Bool { PostgresCompanion.isStoreURL(path) }

    /// Every feature of the PostgreSQL store `--db` names, in the store's order. In cairn, this process is first
    /// replaced by cairn-postgres given the same command line (`PostgresCompanion.reader()`).
    /// - Complexity: O(n).
    func postgresFeatures() throws -> [Feature] { try PostgresCompanion.reader().features(path) }

    /// The feature `id` of the PostgreSQL store `--db` names, nil when there is none (as `postgresFeatures`).
    /// - Complexity: O(log n) (the store's primary key).
    func postgresFeature(id: String) throws -> Feature? { try PostgresCompanion.reader().feature(path, id) }

    /// Opens the store, creating it when `create` is true; otherwise a missing file is an error with advice.
    /// A write that has to wait for another writer says so once on stderr, with the bound and the option that sets it.
    func open(create: Bool) throws -> FeatureStore {
        if isPostgres {
            // The commands that read PostgreSQL ask for `postgresFeatures` before this; the others cannot.
            let command = CommandLine.arguments.dropFirst().first ?? "this command"
            throw CLIError("""
                --db \(path): cairn \(command) works on an SQLite store only; a PostgreSQL store is read by import, \
                get, the queries (bbox, around, nearest, containing), cluster, tiles, checkins validate and serve
                """)
        }
        if !create, access(path, F_OK) != 0 {
            throw CLIError("no store at '\(path)'; import data first (cairn import FILE --db \(path)) or pass --db PATH")
        }
        let message = "waiting for another writer of \(path) to finish (at most \(String(format: "%g", waitSeconds)) s; "
            + "--wait-seconds changes it)..."
        return try FeatureStore(path: path, writerWaitSeconds: waitSeconds) { Terminal.printError(message) }
    }
}

/// An error printed as `error: message` with exit status 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}
