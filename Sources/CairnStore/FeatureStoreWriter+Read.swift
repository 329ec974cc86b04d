import CairnCore
import GRDB

extension FeatureStoreWriter {
    /// The feature with this id as this transaction sees it: with the writes made so far through this writer, which
    /// `FeatureStore.feature(id:)` (reading the last committed state) does not see.
    /// - Throws: `StoreError.invalidRow` for a stored row that is not a valid feature, or when SQLite fails.
    /// - Complexity: O(log N) (the unique index on `id`).
    public func feature(id: String) throws -> Feature? {
        guard isOpen else { throw StoreError.writerClosed(path: path) }
        do {
            let statement = try db.cachedStatement(sql: "SELECT \(FeatureRow.columns()) FROM feature WHERE id = ?")
            guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
            return try FeatureRow.decode(row, path: path)
        } catch let error as DatabaseError {
            throw StoreError.wrapping(error, path: path, operation: "reading feature '\(id)'")
        }
    }
}
