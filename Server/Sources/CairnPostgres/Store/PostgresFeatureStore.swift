import CairnCore
import CairnIO
import CairnStore
import Logging
import NIOCore
import PostgresNIO

/// The PostgreSQL/PostGIS store: the same features as the SQLite store (`FeatureStore`), in `cairn_feature`
/// (`PostgresSchema`), for several servers to share. It owns one connection and runs one operation at a time
/// (`PostgresSessionGate`); a connection that broke is opened again by the next operation.
///
/// Every write is one transaction that takes the next generation and logs the ids it changed, which is what
/// replicas follow (`PostgresChangeFeed`).
public final class PostgresFeatureStore: Sendable {
    /// Where the store is.
    public let url: PostgresStoreURL
    private let gate: PostgresSessionGate

    /// How a store is opened: a writer creates and upgrades the schema, a reader only checks its version.
    public enum Access: Sendable {
        /// Reads only: the schema must be this Cairn's (`PostgresStoreError.noSchema`, `.olderSchema`,
        /// `.newerSchema` otherwise), and nothing is created, so a role with only SELECT can read.
        case reading
        /// Writes: runs the migrations first (`PostgresSchema.migrate`), which needs a role that may create tables.
        case writing
    }

    /// Connects to the server at `url` and, for a writer, brings the schema up to date (`PostgresSchema.migrate`);
    /// a reader checks it only (`PostgresSchema.check`).
    /// - Throws: `PostgresStoreError`.
    /// - Complexity: O(1) once migrated.
    public init(url: PostgresStoreURL, access: Access = .writing, logger: Logger = Logger(label: "cairn.postgres")) async throws(PostgresStoreError) {
        self.url = url
        let session = try await PostgresSession.open(url, logger: logger)
        do {
            switch access {
            case .reading: try await PostgresSchema.check(session, url: url)
            case .writing: try await PostgresSchema.migrate(session)
            }
        } catch {
            await session.close()
            throw error
        }
        gate = PostgresSessionGate(url: url, logger: logger, session: session)
    }

    /// Closes the connection (the next operation opens one again).
    /// - Complexity: O(1).
    public func close() async {
        await gate.close()
    }

    /// Runs `body` with the connection to itself; one that failed is dropped, so the next call reconnects.
    func withSession<Result>(_ body: (PostgresSession) async throws(PostgresStoreError) -> Result) async throws(PostgresStoreError) -> Result {
        let session = try await gate.acquire()
        do {
            let result = try await body(session)
            await gate.release(closed: false)
            return result
        } catch {
            await gate.release(closed: session.connection.isClosed)
            throw error
        }
    }

    /// Every feature in the table's order, with the generation they are as of (one consistent read).
    /// - Throws: `PostgresStoreError` (`.invalidRow` for a row that is no valid feature).
    /// - Complexity: O(n).
    public func load() async throws(PostgresStoreError) -> PostgresSnapshot {
        try await withSession { session throws(PostgresStoreError) in
            try await session.transaction("loading the features", isolation: "REPEATABLE READ READ ONLY") { () throws(PostgresStoreError) in
                let (generation, storeID) = try await Self.stamp(session)
                var features: [Feature] = [], positions: [Int64] = []
                try await session.forEachRow(PostgresQuery(unsafeSQL: "SELECT \(PostgresFeatureRow.selectList()) FROM cairn_feature ORDER BY position"),
                                             action: "reading the features") { row throws(PostgresStoreError) in
                    let (feature, position) = try PostgresFeatureRow.decode(row)
                    features.append(feature)
                    positions.append(position)
                }
                return PostgresSnapshot(features: features, positions: positions, generation: generation, storeID: storeID)
            }
        }
    }

    /// The feature `id`, nil when the store has none.
    /// - Throws: `PostgresStoreError` (`.invalidRow` for a row that is no valid feature).
    /// - Complexity: O(log n) (the primary key).
    public func feature(id: String) async throws(PostgresStoreError) -> Feature? {
        try await withSession { session throws(PostgresStoreError) in
            var found: Feature?
            try await session.forEachRow("""
                SELECT \(unescaped: PostgresFeatureRow.selectList()) FROM cairn_feature WHERE id = \(id)
                """, action: "reading feature '\(id)'") { row throws(PostgresStoreError) in
                found = try PostgresFeatureRow.decode(row).feature
            }
            return found
        }
    }

    /// The store's generation now.
    /// - Complexity: O(1).
    public func generation() async throws(PostgresStoreError) -> Int64 {
        try await withSession { session throws(PostgresStoreError) in try await Self.stamp(session).generation }
    }

    /// The number of features.
    /// - Complexity: O(n) (PostgreSQL counts).
    public func count() async throws(PostgresStoreError) -> Int {
        try await withSession { session throws(PostgresStoreError) in
            try await session.rows("SELECT count(*) FROM cairn_feature", action: "counting features") { try $0.decode(Int.self) }.first ?? 0
        }
    }

    /// What changed after `generation`: the changed ids' rows as they are now (one consistent read).
    /// - Throws: `PostgresStoreError`.
    /// - Complexity: O(c log n) for c changed ids.
    public func changes(since generation: Int64) async throws(PostgresStoreError) -> PostgresChanges {
        try await withSession { session throws(PostgresStoreError) in
            try await Self.changes(session, since: generation)
        }
    }

    /// One statement, so one round trip and one snapshot: the generation and the horizon, then a row per id changed
    /// after `generation` (none when the log cannot answer: behind the horizon or ahead of the store), with the
    /// feature's columns when it is still present (in the table's order), else NULL (removed ids last, by id). A
    /// replica's feed reads this at every notification; as a transaction of five queries it took six round trips,
    /// each a wait for a busy core.
    static func changes(_ session: PostgresSession, since generation: Int64) async throws(PostgresStoreError) -> PostgresChanges {
        var head: (now: Int64, horizon: Int64)?
        var upserted: [Feature] = [], positions: [Int64] = [], removed: [String] = [], truncated = false
        try await session.forEachRow("""
            WITH head AS (SELECT generation, pruned_through FROM cairn_generation),
            changed AS (
                SELECT DISTINCT unnest(c.ids) AS id FROM cairn_change AS c, head
                WHERE c.generation > \(generation) AND \(generation) >= head.pruned_through AND \(generation) <= head.generation
            )
            SELECT \(unescaped: PostgresFeatureRow.selectList("f.")), c.id, head.generation, head.pruned_through
            FROM head LEFT JOIN changed AS c ON true LEFT JOIN cairn_feature AS f ON f.id = c.id
            ORDER BY f.position NULLS LAST, c.id
            """, action: "reading the changes") { row throws(PostgresStoreError) in
            let change = try PostgresFeatureRow.decodeChange(row)
            head = (change.generation, change.prunedThrough)
            switch (change.changedID, change.present) {
            case (nil, _): break
            case ("", _): truncated = true
            case (_, let (feature, position)?):
                upserted.append(feature)
                positions.append(position)
            case (let id?, nil): removed.append(id)
            }
        }
        guard let (now, horizon) = head else { throw .failed(action: "reading the changes", message: "cairn_generation has no row") }
        // A generation ahead of the store's: the store was made anew under the replica.
        if generation > now { return .reload(at: now) }
        // Behind the horizon: the log no longer holds every id changed after `generation`.
        if generation < horizon { return .reload(at: now, behindHorizon: horizon) }
        if truncated { return .reload(at: now) }
        return PostgresChanges(generation: now, upserted: upserted, upsertedPositions: positions, removedIDs: removed, reloadNeeded: false)
    }

    /// Upserts `features` and deletes `deletedIDs` in one transaction: each upserted feature is written anew (it
    /// takes the last place in the order, as the served index puts it). The last version of an id given twice wins.
    /// - Returns: the ids of `deletedIDs` that were stored, and the generation after the write.
    /// - Complexity: O(m log n).
    @discardableResult
    public func write(upserting features: [Feature], deleting deletedIDs: [String]) async throws(PostgresStoreError) -> (deleted: [String], generation: Int64) {
        try await withSession { session throws(PostgresStoreError) in
            try await session.transaction("writing features") { () throws(PostgresStoreError) in
                var deleted: [String] = []
                for id in deletedIDs {
                    let gone = try await session.rows("DELETE FROM cairn_feature WHERE id = \(id) RETURNING id",
                                                      action: "deleting feature '\(id)'") { try $0.decode(String.self) }
                    deleted += gone
                }
                for feature in features {
                    try await Self.upsert(feature, session)
                }
                return (deleted, try await Self.stamp(session).generation)
            }
        }
    }

    private static func upsert(_ feature: Feature, _ session: PostgresSession) async throws(PostgresStoreError) {
        let location = "SRID=4326;POINT(\(feature.location.longitude.description) \(feature.location.latitude.description))"
        let attributes = AttributeJSON.encode(feature.attributes)
        try await session.execute("""
            INSERT INTO cairn_feature (id, kind, location, radius_m, start_time, end_time, attributes, shape)
            VALUES (\(feature.id), \(feature.kind.rawValue), \(location)::geography, \(feature.radiusMeters),
                    \(feature.timeWindow?.start.secondsSince1970), \(feature.timeWindow?.end.secondsSince1970), \(attributes)::jsonb,
                    CAST(\(PostgresFeatureRow.shapeText(feature)) AS geography))
            ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, location = excluded.location, radius_m = excluded.radius_m,
                start_time = excluded.start_time, end_time = excluded.end_time, attributes = excluded.attributes, shape = excluded.shape
            """, action: "writing feature '\(feature.id)'")
    }

    /// Imports features with `COPY` in one transaction: all of them or, when anything fails (a row the server
    /// refuses, `next` throwing), none. A new id takes the next place in the order, in the order of its first
    /// appearance; an id given again, or already stored, gets its last version's columns (and moves to the end).
    /// - Parameter next: the next feature to import, nil at the end (a reader's records, say).
    /// - Returns: the rows copied and the generation after the import.
    /// - Complexity: O(m log n); the features are streamed in 256 KiB pieces, not held.
    public func importFeatures(_ next: () throws -> Feature?) async throws(PostgresStoreError) -> (copied: Int, generation: Int64) {
        try await withSession { session throws(PostgresStoreError) in
            try await session.transaction("importing features") { () throws(PostgresStoreError) in
                try await session.execute("""
                    CREATE TEMPORARY TABLE cairn_import (
                        line bigserial, id text NOT NULL, kind text NOT NULL, location geography(Point, 4326) NOT NULL,
                        radius_m double precision, start_time double precision, end_time double precision, attributes jsonb NOT NULL,
                        shape geography(Geometry, 4326)
                    ) ON COMMIT DROP
                    """, action: "creating the import table")
                var copied = 0
                var failure: (any Error)?
                try await session.copy(into: "cairn_import", columns: PostgresFeatureRow.copyColumns, action: "copying features") { () throws(PostgresStoreError) -> ByteBuffer? in
                    var buffer = ByteBufferAllocator().buffer(capacity: 1 << 18)
                    do {
                        while buffer.readableBytes < (1 << 18) - 4096, let feature = try next() {
                            PostgresFeatureRow.appendCopyLine(feature, to: &buffer)
                            copied += 1
                        }
                    } catch {
                        failure = error
                        throw .failed(action: "reading the features to import", message: "\(error)")
                    }
                    return buffer.readableBytes == 0 ? nil : buffer
                }
                if let failure { throw .failed(action: "reading the features to import", message: "\(failure)") }
                // The last version of each id, inserted in the order of each id's first line.
                try await session.execute("""
                    INSERT INTO cairn_feature (id, kind, location, radius_m, start_time, end_time, attributes, shape)
                    SELECT last.id, last.kind, last.location, last.radius_m, last.start_time, last.end_time, last.attributes, last.shape
                    FROM (SELECT DISTINCT ON (id) * FROM cairn_import ORDER BY id, line DESC) AS last
                    JOIN (SELECT id, min(line) AS first FROM cairn_import GROUP BY id) AS first ON first.id = last.id
                    ORDER BY first.first
                    ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, location = excluded.location, radius_m = excluded.radius_m,
                        start_time = excluded.start_time, end_time = excluded.end_time, attributes = excluded.attributes,
                        shape = excluded.shape
                    """, action: "storing the imported features")
                return (copied, try await Self.stamp(session).generation)
            }
        }
    }

    /// Imports `features` as `importFeatures(_:)` does with a reader's.
    /// - Complexity: O(m log n).
    public func importFeatures(_ features: [Feature]) async throws(PostgresStoreError) -> (copied: Int, generation: Int64) {
        var position = 0
        return try await importFeatures { () -> Feature? in
            guard position < features.count else { return nil }
            position += 1
            return features[position - 1]
        }
    }

    /// The generation and store id.
    static func stamp(_ session: PostgresSession) async throws(PostgresStoreError) -> (generation: Int64, storeID: String) {
        let rows = try await session.rows("SELECT generation, store_id FROM cairn_generation", action: "reading the generation") {
            try $0.decode((Int64, String).self)
        }
        guard let first = rows.first else { throw .failed(action: "reading the generation", message: "cairn_generation has no row") }
        return first
    }
}
