import GRDBSQLite

/// A prepared statement, finalized on deinit.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer

    init(database: SQLiteDatabase, handle: OpaquePointer) {
        self.database = database
        self.handle = handle
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds an integer to ?1 and four doubles to ?2…?5 and steps to the end (an INSERT).
    /// - Throws: `BenchError` with SQLite's message.
    func run(_ integer: Int64, _ a: Double, _ b: Double, _ c: Double, _ d: Double) throws {
        // sqlite3_bind_* return SQLITE_OK or SQLITE_RANGE for a bad index (not possible with this SQL).
        sqlite3_bind_int64(handle, 1, integer)
        sqlite3_bind_double(handle, 2, a)
        sqlite3_bind_double(handle, 3, b)
        sqlite3_bind_double(handle, 4, c)
        sqlite3_bind_double(handle, 5, d)
        // sqlite3_step returns SQLITE_DONE when an INSERT has run, an error code otherwise.
        let status = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard status == SQLITE_DONE else { throw BenchError.engine("sqlite-rtree", database.lastError) }
    }

    /// Binds four doubles to ?1…?4 and calls `body` with the integer first column of every row.
    @inline(__always)
    func forEachInteger(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ body: (Int) -> Void) {
        sqlite3_bind_double(handle, 1, a)
        sqlite3_bind_double(handle, 2, b)
        sqlite3_bind_double(handle, 3, c)
        sqlite3_bind_double(handle, 4, d)
        // sqlite3_step returns SQLITE_ROW per row, then SQLITE_DONE (or an error code, which ends the loop too:
        // an in-memory R*Tree read has no failure mode but out-of-memory).
        while sqlite3_step(handle) == SQLITE_ROW {
            body(Int(sqlite3_column_int64(handle, 0)))
        }
        sqlite3_reset(handle)
    }
}
