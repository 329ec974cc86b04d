import GRDB

extension FeatureStore {
    /// Every feature's id with its rowid, in rowid order: the order of the store's index, and a position that an
    /// edit never changes (an upsert of a new id appends a larger one).
    /// - Throws: `StoreError` when SQLite fails.
    /// - Complexity: O(N).
    public func forEachRowID(_ body: (_ id: String, _ rowid: Int64) throws -> Void) throws {
        try read("reading the row ids") { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT id, rowid FROM feature ORDER BY rowid")
            while let row = try rows.next() {
                let id: String = row[0], rowid: Int64 = row[1]
                try body(id, rowid)
            }
        }
    }
}
