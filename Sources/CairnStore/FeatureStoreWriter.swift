import CairnCore
import GRDB

/// Writes inside one `FeatureStore.write` transaction. Valid only inside that closure.
///
/// Not `Sendable`: it belongs to the thread running the transaction.
public final class FeatureStoreWriter {
    let db: Database
    let path: String
    private(set) var isOpen = true
    /// Whether the first upsert has looked at the store yet.
    private var checkedForBulkLoad = false
    /// True when the store was empty at the first upsert: the R*Tree triggers are dropped for this transaction and
    /// `finish()` packs the whole R*Tree at once (see `RTreeBulkLoad` for the figures).
    private var deferringRTree = false
    /// How much of the packed R*Tree load is held in memory (tests choose small limits), and what it did.
    var rtreeLoadLimits = RTreeBulkLoad.Limits()
    private(set) var rtreeLoadReport: RTreeBulkLoad.Report?

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    /// The upsert statement, prepared on first use and finalized with the transaction.
    private var upsertStatement: RawUpsertStatement?

    func close() {
        isOpen = false
        upsertStatement?.close()
        upsertStatement = nil
    }

    /// Completes the transaction's work before commit: builds the deferred R*Tree and restores its triggers.
    func finish() throws {
        guard deferringRTree else { return }
        do {
            rtreeLoadReport = try RTreeBulkLoad.load(db, storePath: path, limits: rtreeLoadLimits)
            try StoreSchema.createRTreeTriggers(db)
            deferringRTree = false
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "building the R*Tree")
        }
    }

    /// On the first upsert into an empty store, drops the R*Tree triggers until `finish()`. The drop is part of the
    /// transaction, so a rollback restores them, and no other connection ever sees the store without them.
    private func deferRTreeIfEmpty() throws {
        guard !checkedForBulkLoad else { return }
        checkedForBulkLoad = true
        do {
            guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM feature)") == false else { return }
            try StoreSchema.dropRTreeTriggers(db)
            deferringRTree = true
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "upsert")
        }
    }

    /// Inserts each feature, or replaces every field of the stored feature with the same id (its rowid is kept and
    /// its R*Tree entry moves with it). A later feature in `features` replaces an earlier one with the same id.
    /// When the store was empty before this transaction's first upsert, the R*Tree is built in one pass at commit.
    /// - Throws: `StoreError` when SQLite fails; the enclosing `write` then rolls everything back.
    /// - Complexity: O(n log N) for n features in a store of N (B-tree and R*Tree inserts); one prepared statement
    ///   reused for all rows. Into an empty store: O(n log n) in all, most of it B-tree inserts.
    public func upsert(_ features: some Collection<Feature>) throws {
        guard isOpen else { throw StoreError.writerClosed(path: path) }
        var batch = EncodedFeatureBatch()
        for feature in features {
            batch.append(feature)
            if batch.count == Self.encodingChunk {
                try upsertRows(batch, tellingRows: false) { _, _ in }
                batch.removeAll()
            }
        }
        try upsertRows(batch, tellingRows: false) { _, _ in }
    }

    /// Features encoded at a time by the `Feature` upserts: the memory of a chunk, whatever the collection's size.
    private static let encodingChunk = 1024

    /// Where one feature of `upsert(_:written:)` went: its row's rowid and what happened to that row.
    public struct UpsertedRow: Sendable {
        /// What an upsert did to the feature's row.
        public enum Change: Sendable {
            /// A new row.
            case inserted
            /// It replaced a row stored before this transaction (a re-import).
            case replacedStoredRow
            /// It replaced a row this transaction had inserted (an id given twice in one import run).
            case replacedRowOfThisTransaction
        }
        /// The row's rowid.
        public let rowid: Int64
        /// What happened to it.
        public let change: Change
    }

    /// `upsert(_:)`, telling `written` where each feature went, in order, with its position in `features`: so
    /// that an import can notice an id given twice in one run without holding every id itself.
    /// - Throws: `StoreError` when SQLite fails.
    /// - Complexity: as `upsert(_:)`, plus one `max(rowid)` lookup, O(log N), on the first call.
    public func upsert(_ features: [Feature], written: (_ position: Int, _ row: UpsertedRow) -> Void) throws {
        guard isOpen else { throw StoreError.writerClosed(path: path) }
        var batch = EncodedFeatureBatch()
        var first = features.startIndex
        while first < features.endIndex {
            batch.removeAll()
            let end = min(first + Self.encodingChunk, features.endIndex)
            for feature in features[first..<end] { batch.append(feature) }
            let offset = first - features.startIndex
            try upsert(batch) { position, row in written(offset + position, row) }
            first = end
        }
        if features.isEmpty { try upsert(EncodedFeatureBatch(), written: written) }
    }

    /// `upsert(_:written:)` for features already encoded (an import encodes them on its reading thread): the
    /// transaction's thread only binds and steps.
    /// - Throws: `StoreError` when SQLite fails.
    /// - Complexity: O(n log N) for the B-tree inserts, plus one `max(rowid)` lookup, O(log N), on the first call.
    public func upsert(_ batch: EncodedFeatureBatch, written: (_ position: Int, _ row: UpsertedRow) -> Void) throws {
        try upsertRows(batch, tellingRows: true, written: written)
    }

    /// The upserts' one loop; `tellingRows` false skips telling `written` where rows went (and the `max(rowid)`
    /// lookup).
    private func upsertRows(_ batch: EncodedFeatureBatch, tellingRows: Bool,
                            written: (_ position: Int, _ row: UpsertedRow) -> Void) throws {
        guard isOpen else { throw StoreError.writerClosed(path: path) }
        try deferRTreeIfEmpty()
        do {
            // Rows this transaction inserts get rowids above every rowid stored before it (SQLite gives a new row
            // max(rowid) + 1, and an import deletes nothing); a replaced row at or below it was there before.
            var lastRowidBefore: Int64 = 0
            if tellingRows {
                lastRowidBefore = try self.lastRowidBefore ?? Int64.fetchOne(db, sql: "SELECT max(rowid) FROM feature") ?? 0
                self.lastRowidBefore = lastRowidBefore
            }
            let statement = try upsertStatement ?? RawUpsertStatement(db)
            upsertStatement = statement
            try batch.bytes.withUnsafeBufferPointer { bytes in
                for position in batch.rows.indices {
                    let outcome = try statement.upsert(batch.rows[position], bytes: bytes)
                    guard tellingRows else { continue }
                    let change: UpsertedRow.Change = !outcome.replaced ? .inserted
                        : outcome.rowid > lastRowidBefore ? .replacedRowOfThisTransaction : .replacedStoredRow
                    written(position, UpsertedRow(rowid: outcome.rowid, change: change))
                }
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "upsert")
        }
    }

    /// The largest rowid before this transaction's first `upsert(_:written:)`; nil until then.
    private var lastRowidBefore: Int64?

    /// Inserts or replaces one feature; see `upsert(_:)` for a collection.
    /// - Complexity: O(log N).
    public func upsert(_ feature: Feature) throws {
        try upsert(CollectionOfOne(feature))
    }

    /// Deletes the feature with this id and its R*Tree entry.
    /// - Returns: whether a feature was deleted.
    /// - Complexity: O(log N).
    @discardableResult
    public func delete(id: String) throws -> Bool {
        let statement = try prepare("DELETE FROM feature WHERE id = ?", "delete")
        do {
            try statement.execute(arguments: [id])
            return db.changesCount > 0
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "delete")
        }
    }

    private func prepare(_ sql: String, _ operation: String) throws -> Statement {
        guard isOpen else { throw StoreError.writerClosed(path: path) }
        do {
            return try db.cachedStatement(sql: sql)
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: operation)
        }
    }
}
