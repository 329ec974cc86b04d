import CairnCore
import Foundation
import GRDB

/// The embedded store: every feature in one SQLite file (WAL mode), with an R*Tree over their locations.
///
/// Opening creates the file if needed and brings its schema up to date (see `StoreSchema`). All writes go through
/// `write(_:)`, one transaction per call; readers see the last committed state and never block the writer
/// (a GRDB `DatabasePool`: one writer connection, reader connections opened on demand).
///
/// The store is `Sendable`: share one instance between threads. Writes are not reentrant: calling `write` (or
/// `upsert`, `delete`) from inside a `write` closure stops the program (a GRDB precondition); use the writer handed
/// to the closure. Reads made from inside a `write` closure see the store as it was before that transaction.
public final class FeatureStore: Sendable {
    /// The database file's path, as given to `init(path:)`.
    public let path: String
    let pool: DatabasePool

    /// Opens the store at `path`, creating the file when it does not exist, and migrates it to the current schema.
    /// - Throws: `StoreError.notADatabase` for a file that is not SQLite, `.notACairnStore` for another
    ///   application's database (or a newer Cairn's), `.cannotOpen` when SQLite cannot open or create the file.
    /// - Complexity: O(1) for an up-to-date store; a migration may rewrite tables.
    public init(path: String) throws {
        self.path = path
        var configuration = Configuration()
        configuration.label = "cairn-store"
        configuration.prepareDatabase { db in
            // In WAL mode NORMAL keeps the database consistent after a crash; only the last commits may be lost on
            // power failure. FULL would fsync on every commit, which makes single-feature edits slow.
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            guard !db.configuration.readonly else { return }
            // An upsert that fires the R*Tree triggers needs a statement journal; on disk (/var/tmp) that journal
            // cost 2.9 million pwrite calls and 5.5 s of CPU instead of 3.8 s for the GeoNames import (234,908 rows)
            // through the triggers. Keep temporary files in memory.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // A 64 MiB page cache (allocated only as used) lets a whole import stay in memory until commit instead of
            // spilling pages to the WAL mid-transaction.
            try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.read { db in try StoreSchema.checkIsCairnStore(db, path: path) }
            try StoreSchema.migrator.migrate(pool)
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "opening the store")
        }
    }

    /// Runs `body` in one write transaction and commits when it returns; when it throws, everything it wrote is
    /// rolled back and the error is rethrown unchanged.
    ///
    /// ```swift
    /// try store.write { writer in
    ///     try writer.upsert(features)
    ///     try writer.delete(id: "old")
    /// }
    /// ```
    /// The writer is valid only inside `body`.
    /// Every committed call increments the store's `generation()`, whether or not `body` changed anything.
    /// - Throws: the error `body` threw, or a `StoreError` when SQLite fails (including at commit).
    /// - Complexity: that of `body`, plus one commit (one WAL sync).
    public func write<T>(_ body: (FeatureStoreWriter) throws -> T) throws -> T {
        do {
            return try pool.write { db in
                let writer = FeatureStoreWriter(db: db, path: path)
                defer { writer.close() }
                let result = try body(writer)
                try writer.finish()
                try StoreGeneration.increment(db)
                return result
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "write transaction")
        }
    }

    /// Inserts the features or replaces those whose id is already stored, in one transaction.
    /// - Complexity: O(n log N) for n features in a store of N.
    public func upsert(_ features: some Collection<Feature>) throws {
        try write { try $0.upsert(features) }
    }

    /// Deletes the feature with this id (and its R*Tree entry), in its own transaction.
    /// - Returns: whether a feature was deleted.
    /// - Complexity: O(log N).
    @discardableResult
    public func delete(id: String) throws -> Bool {
        try write { try $0.delete(id: id) }
    }

    /// Runs a read in one snapshot, wrapping SQLite errors with the path and `operation`.
    func read<T>(_ operation: String, _ body: (Database) throws -> T) throws -> T {
        do {
            return try pool.read(body)
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: operation)
        }
    }
}
