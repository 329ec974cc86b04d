import GRDBSQLite

/// An SQLite connection, closed on deinit: a thin wrapper over the C API.
final class SQLiteDatabase {
    let handle: OpaquePointer

    /// Opens a private in-memory database.
    /// - Throws: `BenchError` with SQLite's message.
    init() throws {
        var handle: OpaquePointer?
        // sqlite3_open_v2 returns SQLITE_OK or an error code; it may allocate a handle even on failure.
        let status = sqlite3_open_v2(":memory:", &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw BenchError.engine("sqlite-rtree", "cannot open an in-memory database: \(message)")
        }
        self.handle = handle
    }

    deinit {
        // sqlite3_close_v2 defers the close until every statement is finalized.
        sqlite3_close_v2(handle)
    }

    /// Bytes SQLite's allocator holds for the whole process (sqlite3_memory_used).
    var memoryUsedBytes: Int { Int(sqlite3_memory_used()) }

    /// Runs SQL without results.
    /// - Throws: `BenchError` with SQLite's message.
    func execute(_ sql: String) throws {
        // sqlite3_exec returns SQLITE_OK or an error code; the message would need sqlite3_free, so it is not asked for.
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchError.engine("sqlite-rtree", "\(lastError) in \(sql)")
        }
    }

    /// Compiles a statement.
    /// - Throws: `BenchError` with SQLite's message.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        // sqlite3_prepare_v2 returns SQLITE_OK and a statement (nil for empty SQL) or an error code.
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw BenchError.engine("sqlite-rtree", "\(lastError) in \(sql)")
        }
        return SQLiteStatement(database: self, handle: statement)
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}
