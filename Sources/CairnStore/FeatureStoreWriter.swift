import CairnCore
import GRDB

/// Writes inside one `FeatureStore.write` transaction. Valid only inside that closure.
///
/// Not `Sendable`: it belongs to the thread running the transaction.
public final class FeatureStoreWriter {
    private let db: Database
    private let path: String
    private var isOpen = true

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    func close() { isOpen = false }

    /// Inserts each feature, or replaces every field of the stored feature with the same id (its rowid is kept and
    /// its R*Tree entry moves with it). A later feature in `features` replaces an earlier one with the same id.
    /// - Throws: `StoreError` when SQLite fails; the enclosing `write` then rolls everything back.
    /// - Complexity: O(n log N) for n features in a store of N (B-tree and R*Tree inserts); one prepared statement
    ///   reused for all rows.
    public func upsert(_ features: some Collection<Feature>) throws {
        let statement = try prepare(FeatureRow.upsertSQL, "upsert")
        do {
            for feature in features {
                try statement.execute(arguments: FeatureRow.arguments(for: feature))
            }
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "upsert")
        }
    }

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
