import CairnCore
import CairnTestSupport
import Foundation
import PostgresNIO
import Testing
@testable import CairnPostgres

/// Readers never run migrations: they check the schema version and say what to run, so that a role with only
/// SELECT can read (`cairn bbox --db postgres://…`, a read-only `cairn serve`).
@Suite(.enabled(if: PostgresTestDatabase.serverURL != nil, PostgresTestDatabase.skipReason), .serialized)
struct PostgresReaderTests {
    static let places: [Feature] = {
        var random = SeededRandom(seed: 21)
        return (0..<40).compactMap { n in
            try? Feature(id: "place-\(n)", kind: .place,
                         location: Coordinate(latitude: random.uniform(59.9...60.3), longitude: random.uniform(24.5...25.3)), radiusMeters: 100)
        }
    }()

    /// Whether the database has Cairn's version table (a reader must not create it).
    static func hasSchema(_ database: PostgresTestDatabase) async throws -> Bool {
        let session = try await PostgresSession.open(database.url, logger: database.logger)
        let found = try await session.rows("SELECT to_regclass('cairn_schema_version') IS NOT NULL", action: "test") { try $0.decode(Bool.self) }
        await session.close()
        return found == [true]
    }

    @Test func aReaderOfAnEmptyDatabaseSaysToImportAndCreatesNothing() async throws {
        try await PostgresTestDatabase.with { database in
            let refusal = await #expect(throws: PostgresStoreError.self) { _ = try await PostgresFeatureStore(url: database.url, access: .reading) }
            guard case .noSchema = refusal else { Issue.record("want noSchema, got \(String(describing: refusal))"); return }
            let message = refusal.map { "\($0)" } ?? ""
            #expect(message.contains("has no Cairn schema"))
            #expect(message.contains("cairn import FILE --db \(database.url)"))
            let created = try await Self.hasSchema(database)
            #expect(!created)
        }
    }

    @Test func aReaderOfAnOlderSchemaSaysToRunAWriterAndUpgradesNothing() async throws {
        try await PostgresTestDatabase.with { database in
            let writer = try await PostgresFeatureStore(url: database.url)
            await writer.close()
            try database.psql("DELETE FROM cairn_schema_version WHERE version = \(PostgresSchema.latestVersion)")
            let refusal = await #expect(throws: PostgresStoreError.self) { _ = try await PostgresFeatureStore(url: database.url, access: .reading) }
            guard case .olderSchema(_, let version, let known) = refusal else { Issue.record("want olderSchema, got \(String(describing: refusal))"); return }
            #expect(version == PostgresSchema.latestVersion - 1 && known == PostgresSchema.latestVersion)
            try database.psql("INSERT INTO cairn_schema_version (version, description) VALUES (99, 'from the future')")
            await #expect(throws: PostgresStoreError.self) { _ = try await PostgresFeatureStore(url: database.url, access: .reading) }
        }
    }

    /// A role with only SELECT reads the store and follows its changes; as a writer (what every reader was before)
    /// it fails at the migrations.
    @Test func aRoleWithOnlySelectReadsAndFollows() async throws {
        let role = "cairn_reader_" + String(UInt64.random(in: 0...UInt64.max), radix: 16)
        do {
            try await PostgresTestDatabase.with { database in
                let writer = try await PostgresFeatureStore(url: database.url)
                _ = try await writer.importFeatures(Self.places)
                try database.psql("CREATE ROLE \(role) LOGIN; GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
                let readerURL = PostgresStoreURL(user: role, host: database.url.host, port: database.url.port, database: database.url.database)

                await #expect(throws: PostgresStoreError.self) { _ = try await PostgresFeatureStore(url: readerURL, access: .writing) }
                let reader = try await PostgresFeatureStore(url: readerURL, access: .reading)
                let before = try await reader.load()
                #expect(before.features == Self.places)
                let added = try Feature(id: "added", kind: .park, location: Coordinate(latitude: 60.17, longitude: 24.94))
                try await writer.write(upserting: [added], deleting: ["place-0"])
                let changes = try await reader.changes(since: before.generation)
                #expect(changes.upserted == [added])
                #expect(changes.removedIDs == ["place-0"])
                #expect(!changes.reloadNeeded)
                await reader.close()
                await writer.close()
            }
        } catch {
            try? await Self.dropRole(role)
            throw error
        }
        try await Self.dropRole(role)
    }

    /// `cairn bbox --db postgres://…` on a database without Cairn's schema: exit 1, the advice, nothing created.
    @Test func aQueryOnAnEmptyDatabaseSaysToImport() async throws {
        let folder = try TemporaryFolder()
        try await PostgresTestDatabase.with { database in
            let process = try CairnProcess(["bbox", "--bbox", "24,59,26,61", "--db", database.url.description], in: folder.path,
                                           executable: "cairn-postgres")
            try process.closeInput()
            #expect(try process.waitForExit(timeoutSeconds: 120) == 1)
            #expect(process.standardOutput.isEmpty)
            #expect(process.standardError.contains("has no Cairn schema"), "\(process.standardError)")
            #expect(process.standardError.contains("cairn import FILE --db \(database.url)"), "\(process.standardError)")
            let created = try await Self.hasSchema(database)
            #expect(!created)
        }
    }

    static func dropRole(_ role: String) async throws {
        let server = try #require(PostgresTestDatabase.serverURL)
        let admin = try await PostgresSession.open(server.with(database: "postgres"), logger: .init(label: "cairn.postgres.tests"))
        try await admin.execute(PostgresQuery(unsafeSQL: "DROP ROLE IF EXISTS \(role)"), action: "dropping a test role")
        await admin.close()
    }
}
