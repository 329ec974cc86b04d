import CairnCore
import Foundation
import GRDB

/// The embedded store: every feature in one SQLite file (WAL mode), with an R*Tree over their locations.
///
/// Opening creates the file if needed and brings its schema up to date (see `StoreSchema`). All writes go through
/// `write(_:)`, one transaction per call; readers see the last committed state and never block the writer
/// (a GRDB `DatabasePool`: one writer connection, reader connections opened on demand). Writers of the same file
/// in other processes take turns: a write waits for the one in progress to commit (see `init`).
///
/// The store is `Sendable`: share one instance between threads. Writes are not reentrant: calling `write` (or
/// `upsert`, `delete`) from inside a `write` closure stops the program (a GRDB precondition); use the writer handed
/// to the closure. Reads made from inside a `write` closure see the store as it was before that transaction.
public final class FeatureStore: Sendable {
    /// The database file's path, as given to `init(path:)`.
    public let path: String
    let pool: DatabasePool

    /// How long a write waits for another writer of the same file by default, in seconds: an import of millions of
    /// rows takes tens of seconds, and a write that cannot start within a minute is better told than left hanging.
    /// - Complexity: O(1).
    public static let defaultWriterWaitSeconds = 60.0

    /// The longest a write waits for another writer of the same file, in seconds.
    /// - Complexity: O(1).
    public var writerWaitSeconds: Double { writerWait.limitSeconds }
    private let writerWait: WriterWait

    /// Opens the store at `path`, creating the file when it does not exist, and migrates it to the current schema.
    ///
    /// One writer at a time: a write (and a migration) that finds another process writing the same file waits for it
    /// to commit, up to `writerWaitSeconds` (0: fail at once), calling `onWaitingForWriter` once, at the first such
    /// wait, so a front end can say what it waits for; past the bound it throws `StoreError.busy`. Readers never wait:
    /// they see the last committed state.
    /// - Throws: `StoreError.notADatabase` for a file that is not SQLite, `.notACairnStore` for another
    ///   application's database (or a newer Cairn's), `.cannotOpen` when SQLite cannot open or create the file,
    ///   `.busy` when another writer held the store longer than `writerWaitSeconds` during a migration.
    /// - Complexity: O(1) for an up-to-date store; a migration may rewrite tables.
    public init(path: String, writerWaitSeconds: Double = FeatureStore.defaultWriterWaitSeconds,
                onWaitingForWriter: (@Sendable () -> Void)? = nil) throws {
        self.path = path
        let writerWait = WriterWait(limitSeconds: max(0, writerWaitSeconds), announce: onWaitingForWriter)
        self.writerWait = writerWait
        var configuration = Configuration()
        configuration.label = "cairn-store"
        // The writer connection waits its turn (readers keep GRDB's own short wait, for SQLite's rare WAL recovery).
        configuration.busyMode = .callback { writerWait.shouldRetry(numberOfTries: $0) }
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
        pool = try Self.open(path: path, configuration: configuration, writerWait: writerWait)
    }

    /// Opens the pool, then checks and migrates the schema. A process creating the same new store at that moment
    /// holds it under an exclusive lock while it switches it to WAL, which SQLite reports as busy to a connection
    /// being opened, with no busy handler run: such an open is tried again, with the writers' wait and bound.
    private static func open(path: String, configuration: Configuration, writerWait: WriterWait) throws -> DatabasePool {
        var tries = 0
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try pool.read { db in try StoreSchema.checkIsCairnStore(db, path: path) }
                try StoreSchema.migrate(pool)
                return pool
            } catch let error as DatabaseError {
                guard error.resultCode == .SQLITE_BUSY, writerWait.shouldRetry(numberOfTries: tries) else {
                    throw Self.wrapping(error, path: path, operation: "opening the store", writerWait: writerWait)
                }
                tries += 1
            }
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
    /// The transaction begins with `BEGIN IMMEDIATE` (GRDB's choice for a writer connection): the write lock is taken
    /// before `body` runs, so a wait for another writer happens there, through the busy handler; a deferred
    /// transaction upgrading its lock later would get `SQLITE_BUSY` at once, without the handler.
    /// - Throws: the error `body` threw, or a `StoreError` when SQLite fails (including at commit); `.busy` when
    ///   another writer held the store longer than `writerWaitSeconds`.
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
            throw Self.wrapping(error, path: path, operation: "write transaction", writerWait: writerWait)
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

    /// Wraps an error of the writer connection: `SQLITE_BUSY` after the wait for another writer ran out is `.busy`.
    private static func wrapping(_ error: DatabaseError, path: String, operation: String, writerWait: WriterWait) -> StoreError {
        guard writerWait.takeGaveUp(), error.resultCode == .SQLITE_BUSY else {
            return StoreError.wrapping(error, path: path, operation: operation)
        }
        return .busy(path: path, operation: operation, waitedSeconds: writerWait.limitSeconds)
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
