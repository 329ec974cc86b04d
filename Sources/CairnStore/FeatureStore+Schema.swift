import GRDB

/// The store's schema, created and upgraded by a GRDB `DatabaseMigrator` (its `grdb_migrations` table records what ran).
///
/// - `feature`: one row per feature. `rowid` is an explicit alias of SQLite's rowid and never changes when a feature
///   is replaced by id; times are seconds since 1970 UTC; `attributes` is the JSON object described in `AttributeJSON`;
///   `geometry` (v4) is the shape as WKB when the feature is more than a point (its latitude and longitude are then
///   the shape's representative point), else NULL.
/// - `feature_rtree`: an SQLite R*Tree with one degenerate box (min == max) per feature, same `rowid`. SQLite keeps its
///   coordinates as 32-bit floats rounded outwards, so it can only over-select: queries re-check the exact doubles in
///   `feature`.
/// - `meta`: key-value rows: `generation` (an integer incremented by every `FeatureStore.write` transaction),
///   `store_id` (32 random hexadecimal digits chosen when the store was created) and `content_id` (32 random
///   hexadecimal digits drawn anew by every write transaction).
/// - Triggers keep `feature_rtree` in step with `feature` for every insert, location change and delete, including edits
///   made with plain SQL outside Cairn.
enum StoreSchema {
    /// The migration identifiers this version knows, oldest first.
    static let migrationIdentifiers = [
        "v1: feature table, kind index, R*Tree and sync triggers",
        "v2: meta table with the store identifier and write generation",
        "v3: content id renewed by every write transaction",
        "v4: geometry column (WKB) for shapes kept whole",
    ]

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration(migrationIdentifiers[0]) { db in
            try db.execute(sql: """
                CREATE TABLE feature (
                    rowid INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    kind TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    radius_m REAL,
                    start_time REAL,
                    end_time REAL,
                    attributes TEXT NOT NULL DEFAULT '{}'
                );
                CREATE INDEX feature_kind ON feature(kind);
                CREATE VIRTUAL TABLE feature_rtree USING rtree(rowid, min_lon, max_lon, min_lat, max_lat);
                """)
            try createRTreeTriggers(db)
        }
        migrator.registerMigration(migrationIdentifiers[1]) { db in
            // `generation` counts committed write transactions (see `FeatureStore.generation()`); `store_id` is random
            // per store file, so a store deleted and re-imported never matches a snapshot of the old one.
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID;
                INSERT INTO meta (key, value) VALUES ('generation', 0), ('store_id', lower(hex(randomblob(16))));
                """)
        }
        migrator.registerMigration(migrationIdentifiers[2]) { db in
            // `content_id` is drawn anew by every write transaction (see `FeatureStore.contentIdentifier()`): a
            // snapshot stamped with it never matches other content, even after a restored backup repeats a generation.
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('content_id', lower(hex(randomblob(16))))")
        }
        migrator.registerMigration(migrationIdentifiers[3]) { db in
            // A feature's whole geometry when it is more than a point, as WKB (`Shape.wkb`); NULL for a point, whose
            // latitude and longitude say it all. Adding a nullable column rewrites no row.
            try db.execute(sql: "ALTER TABLE feature ADD COLUMN geometry BLOB")
        }
        return migrator
    }

    /// Brings the store at `pool` up to date, safely when another process opens the same new file at the same time.
    ///
    /// GRDB's migrator reads which migrations ran before it starts each one's transaction; a process that waited
    /// for another's migration then runs it again and fails ("table feature already exists"). After such a failure,
    /// when the other process has applied more migrations meanwhile, migrating again (which reads the list anew)
    /// finishes the job; a failure with no such progress is real and is thrown.
    /// - Complexity: O(1) for an up-to-date store; at most one retry per migration.
    static func migrate(_ pool: DatabasePool) throws {
        var applied = try pool.read { try migrator.appliedIdentifiers($0) }
        while true {
            do {
                return try migrator.migrate(pool)
            } catch let error as DatabaseError {
                let now = try pool.read { try migrator.appliedIdentifiers($0) }
                guard now.count > applied.count else { throw error }
                applied = now
            }
        }
    }

    /// The triggers that keep `feature_rtree` in step with `feature`, by name. A bulk load into an empty store drops
    /// them for the duration of its transaction and recreates them before commit (see `FeatureStoreWriter`).
    static let rtreeTriggers: [(name: String, sql: String)] = [
        ("feature_rtree_after_insert", """
            CREATE TRIGGER feature_rtree_after_insert AFTER INSERT ON feature BEGIN
                INSERT INTO feature_rtree (rowid, min_lon, max_lon, min_lat, max_lat)
                VALUES (new.rowid, new.longitude, new.longitude, new.latitude, new.latitude);
            END
            """),
        ("feature_rtree_after_move", """
            CREATE TRIGGER feature_rtree_after_move AFTER UPDATE OF rowid, latitude, longitude ON feature
            WHEN old.rowid IS NOT new.rowid OR old.latitude IS NOT new.latitude OR old.longitude IS NOT new.longitude
            BEGIN
                DELETE FROM feature_rtree WHERE rowid = old.rowid;
                INSERT INTO feature_rtree (rowid, min_lon, max_lon, min_lat, max_lat)
                VALUES (new.rowid, new.longitude, new.longitude, new.latitude, new.latitude);
            END
            """),
        ("feature_rtree_after_delete", """
            CREATE TRIGGER feature_rtree_after_delete AFTER DELETE ON feature BEGIN
                DELETE FROM feature_rtree WHERE rowid = old.rowid;
            END
            """),
    ]

    static func createRTreeTriggers(_ db: Database) throws {
        for trigger in rtreeTriggers { try db.execute(sql: trigger.sql) }
    }

    static func dropRTreeTriggers(_ db: Database) throws {
        for trigger in rtreeTriggers { try db.execute(sql: "DROP TRIGGER \(trigger.name)") }
    }

    /// Refuses a database that holds tables but no Cairn migration, or migrations this version does not know.
    /// An empty database (a new or zero-length file) passes and gets migrated.
    static func checkIsCairnStore(_ db: Database, path: String) throws {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name
            """)
        guard !tables.isEmpty else { return }
        let applied = tables.contains("grdb_migrations")
            ? try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") : []
        // Only an empty `grdb_migrations`: another process has just begun migrating this new file.
        guard tables != ["grdb_migrations"] || !applied.isEmpty else { return }
        guard tables.contains("grdb_migrations") else {
            let shown = tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? ", ..." : "")
            throw StoreError.notACairnStore(path: path, reason: "an SQLite database with other tables: \(shown)")
        }
        let known = Set(migrationIdentifiers)
        if !applied.contains(where: known.contains) {
            throw StoreError.notACairnStore(path: path, reason: "an SQLite database of another application")
        }
        if let unknown = applied.first(where: { !known.contains($0) }) {
            throw StoreError.notACairnStore(
                path: path, reason: "made by a newer version of Cairn (unknown migration '\(unknown)'); upgrade Cairn")
        }
    }
}
