import CairnCore
import Foundation
import Logging
import PostgresNIO
import Testing
@testable import CairnPostgres

/// A database of its own for one test, on the server named by `CAIRN_TEST_POSTGRES_URL` (scripts/postgres-local
/// start prints one; scripts/test sets it), dropped at the end. Without that variable the suites are skipped, and
/// Swift Testing lists them as skipped with the reason.
final class PostgresTestDatabase: Sendable {
    /// The server's URL from the environment, if any.
    static let serverURL: PostgresStoreURL? = ProcessInfo.processInfo.environment["CAIRN_TEST_POSTGRES_URL"].flatMap { try? PostgresStoreURL($0) }
    /// Why the suites are skipped.
    static let skipReason: Comment = "CAIRN_TEST_POSTGRES_URL is not set: `scripts/postgres-local start` starts a server and prints one"

    let url: PostgresStoreURL
    let logger = Logger(label: "cairn.postgres.tests")

    /// Creates an empty database with a fresh name.
    init() async throws {
        let server = try #require(Self.serverURL)
        let name = "cairn_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        let admin = try await PostgresSession.open(server.with(database: "postgres"), logger: logger)
        try await admin.execute(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), action: "creating a test database")
        await admin.close()
        url = server.with(database: name)
    }

    /// Drops the database (and ends the connections still open to it).
    func drop() async throws {
        let admin = try await PostgresSession.open(url.with(database: "postgres"), logger: logger)
        try await admin.execute(PostgresQuery(unsafeSQL: "DROP DATABASE \(url.database) WITH (FORCE)"), action: "dropping a test database")
        await admin.close()
    }

    /// Runs `sql` through `psql`, as any SQL client would write (not through Cairn).
    func psql(_ sql: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var target = "postgresql://\(url.user)@\(url.host):\(url.port)/\(url.database)"
        if url.host.contains(":") { target = "postgresql://\(url.user)@[\(url.host)]:\(url.port)/\(url.database)" }
        process.arguments = ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", target, "-c", sql]
        if let password = url.password { process.environment = ProcessInfo.processInfo.environment.merging(["PGPASSWORD": password]) { $1 } }
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0 else { throw PostgresStoreError.failed(action: "psql -c \(sql)", message: message) }
    }

    /// Ends every other connection to this database (a network cut, as the replicas see it).
    func terminateOtherConnections() async throws {
        let admin = try await PostgresSession.open(url.with(database: "postgres"), logger: logger)
        try await admin.execute("""
            SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(url.database) AND pid <> pg_backend_pid()
            """, action: "ending connections")
        await admin.close()
    }

    /// Runs `body` with a fresh database, dropped afterwards even when `body` throws.
    static func with(_ body: (PostgresTestDatabase) async throws -> Void) async throws {
        let database = try await PostgresTestDatabase()
        do {
            try await body(database)
        } catch {
            try? await database.drop()
            throw error
        }
        try await database.drop()
    }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `seconds` (a generous bound on a loaded
/// machine; the figures in docs/SERVER.md are measured, not asserted). Returns whether it held, and when.
func eventually(within seconds: Double, _ condition: () async throws -> Bool) async rethrows -> Duration? {
    let start = ContinuousClock.now
    while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
        if try await condition() { return ContinuousClock.now - start }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try await condition() ? ContinuousClock.now - start : nil
}
