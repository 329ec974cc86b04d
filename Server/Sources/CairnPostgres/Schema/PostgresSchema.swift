import PostgresNIO

/// The PostgreSQL store's schema, created and upgraded by versioned migrations that Cairn's writers run on
/// connecting (`cairn_schema_version` records what ran; readers only check it). Every name starts with `cairn_`,
/// so the store can share a database.
///
/// - `cairn_feature`: one row per feature. `location` is a PostGIS `geography(Point, 4326)` (the WGS84 model
///   Cairn's distances use) with a GiST index; `position` orders the features as the in-memory index does (a
///   written row takes the next value, so an edited feature moves to the end, in the table as in every replica);
///   times are seconds since 1970 UTC; `attributes` is `jsonb` in the shapes of `AttributeJSON`; `shape` (migration 3)
///   a line or polygon kept whole, NULL for a point. Checks refuse
///   rows that are no feature (an unknown kind, a radius <= 0, half a time window), also from plain SQL.
/// - `cairn_generation`: one row, `generation` (incremented by every transaction that changes features),
///   `store_id` (random, chosen at creation), `kept_generations` (how many generations the change log keeps,
///   migration 4) and `pruned_through` (the change log's horizon: it holds every change after it).
/// - `cairn_change` (migration 5): (generation, ids) for every statement that inserted, updated or deleted
///   features, with the ids it changed; the id `''` (never a feature's) marks a `TRUNCATE`. Replicas catch up from
///   it (`changes(since:)`), so nothing is missed between notifications; a replica behind its horizon
///   (`pruned_through`) loads everything instead.
/// - Triggers: statement triggers over transition tables (`cairn_log_changes`) log each changing statement;
///   `cairn_transaction_generation` takes the next generation at a transaction's first change (the row lock on
///   `cairn_generation` orders committing writers, so generations commit in order), prunes the change log to its
///   last `kept_generations` generations, and sends `NOTIFY cairn_change, '<generation>'` once per transaction
///   (delivered at commit). The ids travel in the table, not the payload: a payload holds at most 8000 bytes, and an
///   import changes many thousands of rows.
enum PostgresSchema {
    /// The notification channel replicas listen on.
    static let channel = "cairn_change"

    /// The migrations this version knows, oldest first: a version, a description and its statements.
    static let migrations: [(version: Int, description: String, statements: [String])] = [
        (1, "features with a geography column and GiST index, generation, change log, triggers", [
            "CREATE EXTENSION IF NOT EXISTS postgis",
            "CREATE SEQUENCE cairn_feature_order",
            """
            CREATE TABLE cairn_feature (
                id text PRIMARY KEY CHECK (id <> ''),
                position bigint NOT NULL DEFAULT nextval('cairn_feature_order'),
                kind text NOT NULL CHECK (kind IN ('park', 'trailhead', 'place', 'event', 'user', 'sighting')),
                location geography(Point, 4326) NOT NULL,
                radius_m double precision CHECK (radius_m > 0 AND radius_m < 'Infinity'),
                start_time double precision CHECK (start_time > '-Infinity' AND start_time < 'Infinity'),
                end_time double precision CHECK (end_time > '-Infinity' AND end_time < 'Infinity'),
                attributes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
                CHECK ((start_time IS NULL) = (end_time IS NULL)),
                CHECK (start_time <= end_time),
                CHECK (kind NOT IN ('event', 'sighting') OR start_time IS NOT NULL)
            )
            """,
            "CREATE INDEX cairn_feature_location ON cairn_feature USING gist (location)",
            "CREATE INDEX cairn_feature_position ON cairn_feature (position)",
            "CREATE INDEX cairn_feature_kind ON cairn_feature (kind)",
            """
            CREATE TABLE cairn_generation (
                only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
                generation bigint NOT NULL,
                store_id text NOT NULL
            )
            """,
            "INSERT INTO cairn_generation (generation, store_id) VALUES (0, md5(random()::text || clock_timestamp()::text))",
            "CREATE TABLE cairn_change (generation bigint NOT NULL, id text NOT NULL, PRIMARY KEY (generation, id))",
            """
            CREATE FUNCTION cairn_feature_moves() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                NEW.position := nextval('cairn_feature_order');
                RETURN NEW;
            END $$
            """,
            """
            CREATE FUNCTION cairn_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                g bigint := nullif(current_setting('cairn.generation', true), '')::bigint;
            BEGIN
                IF g IS NULL THEN
                    UPDATE cairn_generation SET generation = generation + 1 RETURNING generation INTO g;
                    PERFORM set_config('cairn.generation', g::text, true);
                    PERFORM pg_notify('cairn_change', g::text);
                END IF;
                IF TG_OP = 'TRUNCATE' THEN
                    INSERT INTO cairn_change VALUES (g, '') ON CONFLICT DO NOTHING;
                ELSIF TG_OP = 'DELETE' THEN
                    INSERT INTO cairn_change VALUES (g, OLD.id) ON CONFLICT DO NOTHING;
                ELSE
                    INSERT INTO cairn_change VALUES (g, NEW.id) ON CONFLICT DO NOTHING;
                    IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN
                        INSERT INTO cairn_change VALUES (g, OLD.id) ON CONFLICT DO NOTHING;
                    END IF;
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER cairn_feature_moves BEFORE UPDATE ON cairn_feature
            FOR EACH ROW EXECUTE FUNCTION cairn_feature_moves()
            """,
            """
            CREATE TRIGGER cairn_feature_change AFTER INSERT OR UPDATE OR DELETE ON cairn_feature
            FOR EACH ROW EXECUTE FUNCTION cairn_record_change()
            """,
            """
            CREATE TRIGGER cairn_feature_truncate AFTER TRUNCATE ON cairn_feature
            FOR EACH STATEMENT EXECUTE FUNCTION cairn_record_change()
            """,
        ]),
        // `--engine postgis`: a box is a longitude/latitude rectangle, which the geography index (geocentric boxes)
        // cannot serve; containing bounds its search by the largest radius, which this radius index finds at once.
        (2, "indexes for queries answered by PostGIS: location as geometry, radius", [
            "CREATE INDEX cairn_feature_location_geometry ON cairn_feature USING gist ((location::geometry))",
            "CREATE INDEX cairn_feature_radius ON cairn_feature (radius_m)",
        ]),
        // Shapes kept whole, as the SQLite store keeps them (its `geometry` WKB column): geography, whose WKB
        // keeps the doubles as given, so a shape reads back bit for bit. `location` stays the representative point.
        (3, "shapes kept whole: a geography column beside the point", [
            "ALTER TABLE cairn_feature ADD COLUMN shape geography(Geometry, 4326)",
        ]),
        // The change log keeps the last `kept_generations` generations: pruned in the writer's transaction, in the
        // trigger, so every writer (plain SQL too) keeps it bounded with no job to schedule. `pruned_through` is the
        // horizon: a replica that holds an older generation cannot catch up from the log and loads everything.
        (4, "the change log keeps the last kept_generations generations; pruned_through is its horizon", [
            """
            ALTER TABLE cairn_generation
                ADD COLUMN pruned_through bigint NOT NULL DEFAULT 0,
                ADD COLUMN kept_generations bigint NOT NULL DEFAULT \(defaultKeptGenerations) CHECK (kept_generations >= 1)
            """,
            """
            CREATE OR REPLACE FUNCTION cairn_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                g bigint := nullif(current_setting('cairn.generation', true), '')::bigint;
                horizon bigint;
            BEGIN
                IF g IS NULL THEN
                    UPDATE cairn_generation SET generation = generation + 1,
                        pruned_through = greatest(pruned_through, generation + 1 - kept_generations)
                    RETURNING generation, pruned_through INTO g, horizon;
                    DELETE FROM cairn_change WHERE generation <= horizon;
                    PERFORM set_config('cairn.generation', g::text, true);
                    PERFORM pg_notify('cairn_change', g::text);
                END IF;
                IF TG_OP = 'TRUNCATE' THEN
                    INSERT INTO cairn_change VALUES (g, '') ON CONFLICT DO NOTHING;
                ELSIF TG_OP = 'DELETE' THEN
                    INSERT INTO cairn_change VALUES (g, OLD.id) ON CONFLICT DO NOTHING;
                ELSE
                    INSERT INTO cairn_change VALUES (g, NEW.id) ON CONFLICT DO NOTHING;
                    IF TG_OP = 'UPDATE' AND OLD.id <> NEW.id THEN
                        INSERT INTO cairn_change VALUES (g, OLD.id) ON CONFLICT DO NOTHING;
                    END IF;
                END IF;
                RETURN NULL;
            END $$
            """,
        ]),
        // One log row per changing statement, its ids in an array, written by statement triggers over transition
        // tables. Pruning runs in the writer's transaction under the generation's row lock: with a row per id, the
        // write that pushed an import's generation past the horizon deleted every one of its rows while all other
        // writers waited. Now that generation is one row (its array kept out of line by TOAST), and an import no
        // longer runs a PL/pgSQL call and an index insert per row. (Figures: docs/PERFORMANCE.md, "Session 17".)
        // The generation function repeats migration 4's body: a migration's text is history and is never shared.
        (5, "the change log keeps one row per changing statement, its ids in an array", [
            "DROP TRIGGER cairn_feature_change ON cairn_feature",
            "DROP TRIGGER cairn_feature_truncate ON cairn_feature",
            "DROP FUNCTION cairn_record_change()",
            "ALTER TABLE cairn_change RENAME TO cairn_change_by_id",
            "CREATE TABLE cairn_change (generation bigint NOT NULL, ids text[] NOT NULL CHECK (cardinality(ids) > 0))",
            "INSERT INTO cairn_change SELECT generation, array_agg(id ORDER BY id) FROM cairn_change_by_id GROUP BY generation",
            "DROP TABLE cairn_change_by_id",
            "CREATE INDEX cairn_change_generation ON cairn_change (generation)",
            // The transaction's generation, taken at its first change: the row lock on `cairn_generation` is then
            // held to commit, so generations commit in order. Pruning is here so that every writer (plain SQL too)
            // keeps the log bounded with no job to schedule.
            """
            CREATE FUNCTION cairn_transaction_generation() RETURNS bigint LANGUAGE plpgsql AS $$
            DECLARE
                g bigint := nullif(current_setting('cairn.generation', true), '')::bigint;
                horizon bigint;
            BEGIN
                IF g IS NULL THEN
                    UPDATE cairn_generation SET generation = generation + 1,
                        pruned_through = greatest(pruned_through, generation + 1 - kept_generations)
                    RETURNING generation, pruned_through INTO g, horizon;
                    DELETE FROM cairn_change WHERE generation <= horizon;
                    PERFORM set_config('cairn.generation', g::text, true);
                    PERFORM pg_notify('cairn_change', g::text);
                END IF;
                RETURN g;
            END $$
            """,
            // One function for the three statement triggers: PL/pgSQL plans a query at its first run, so the
            // branch naming a transition table a trigger does not have is never planned for it. A statement that
            // changes no row takes no generation, as the row triggers before it.
            """
            CREATE FUNCTION cairn_log_changes() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                changed text[];
            BEGIN
                IF TG_OP = 'TRUNCATE' THEN
                    changed := ARRAY[''];
                ELSIF TG_OP = 'INSERT' THEN
                    SELECT array_agg(id) INTO changed FROM cairn_inserted;
                ELSIF TG_OP = 'DELETE' THEN
                    SELECT array_agg(id) INTO changed FROM cairn_deleted;
                ELSE
                    SELECT array_agg(DISTINCT id) INTO changed
                    FROM (SELECT id FROM cairn_updated UNION ALL SELECT id FROM cairn_before_update) AS both_sides;
                END IF;
                IF changed IS NOT NULL THEN
                    INSERT INTO cairn_change VALUES (cairn_transaction_generation(), changed);
                END IF;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER cairn_feature_insert AFTER INSERT ON cairn_feature REFERENCING NEW TABLE AS cairn_inserted
            FOR EACH STATEMENT EXECUTE FUNCTION cairn_log_changes()
            """,
            """
            CREATE TRIGGER cairn_feature_update AFTER UPDATE ON cairn_feature
            REFERENCING OLD TABLE AS cairn_before_update NEW TABLE AS cairn_updated
            FOR EACH STATEMENT EXECUTE FUNCTION cairn_log_changes()
            """,
            """
            CREATE TRIGGER cairn_feature_delete AFTER DELETE ON cairn_feature REFERENCING OLD TABLE AS cairn_deleted
            FOR EACH STATEMENT EXECUTE FUNCTION cairn_log_changes()
            """,
            """
            CREATE TRIGGER cairn_feature_truncate AFTER TRUNCATE ON cairn_feature
            FOR EACH STATEMENT EXECUTE FUNCTION cairn_log_changes()
            """,
        ]),
    ]

    /// How many generations (writing transactions) the change log keeps by default: a replica that misses fewer
    /// catches up from the log, one that misses more loads everything. 100,000: weeks of a map's edits, 17 minutes
    /// at 100 edits/s; one row per changed id, so about 5 MB of single-feature edits.
    /// `UPDATE cairn_generation SET kept_generations = N` changes it for a store.
    static let defaultKeptGenerations = 100_000

    /// The newest version this Cairn knows.
    static var latestVersion: Int { migrations.last?.version ?? 0 }

    /// Checks, without changing anything, that the database holds the schema this Cairn reads (`latestVersion`):
    /// what a reader does, since only writers migrate (a read-only role could not, and a replica should not
    /// upgrade a store under older ones).
    /// - Throws: `PostgresStoreError.noSchema` (no Cairn tables: import first), `.olderSchema` (a writer of this
    ///   version has not run yet), `.newerSchema`, `.failed`.
    /// - Complexity: O(1).
    static func check(_ session: PostgresSession, url: PostgresStoreURL) async throws(PostgresStoreError) {
        let exists = try await session.rows("SELECT to_regclass('cairn_schema_version') IS NOT NULL",
                                            action: "looking for cairn_schema_version") { try $0.decode(Bool.self) }.first ?? false
        guard exists else { throw .noSchema(url: url.description) }
        let applied = try await session.rows("SELECT coalesce(max(version), 0) FROM cairn_schema_version",
                                             action: "reading the schema version") { try $0.decode(Int.self) }.first ?? 0
        guard applied > 0 else { throw .noSchema(url: url.description) }
        guard applied <= latestVersion else { throw .newerSchema(version: applied, known: latestVersion) }
        guard applied == latestVersion else { throw .olderSchema(url: url.description, version: applied, known: latestVersion) }
    }

    /// Brings the database up to date in one transaction, safely when several replicas start at once (an advisory
    /// lock makes the others wait, then find nothing left to do).
    /// - Throws: `PostgresStoreError.newerSchema` for a schema from a newer Cairn, `.failed` for a statement.
    /// - Parameter version: the version to stop at (the latest unless a test builds an older store).
    /// - Complexity: O(1) for an up-to-date database.
    static func migrate(_ session: PostgresSession, upTo version: Int = latestVersion) async throws(PostgresStoreError) {
        try await session.transaction("migrating the schema") { () throws(PostgresStoreError) in
            // The key is arbitrary but fixed: Cairn's migrations exclude each other and nothing else.
            try await session.execute("SELECT pg_advisory_xact_lock(7316235411)", action: "waiting for another migration")
            try await session.execute("""
                CREATE TABLE IF NOT EXISTS cairn_schema_version (
                    version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())
                """, action: "creating cairn_schema_version")
            let applied = try await session.rows("SELECT coalesce(max(version), 0) FROM cairn_schema_version",
                                                 action: "reading the schema version") { try $0.decode(Int.self) }.first ?? 0
            guard applied <= latestVersion else { throw .newerSchema(version: applied, known: latestVersion) }
            for migration in migrations where migration.version > applied && migration.version <= version {
                for statement in migration.statements {
                    try await session.execute(PostgresQuery(unsafeSQL: statement), action: "migration \(migration.version)")
                }
                try await session.execute("""
                    INSERT INTO cairn_schema_version (version, description) VALUES (\(migration.version), \(migration.description))
                    """, action: "recording migration \(migration.version)")
            }
        }
    }
}
