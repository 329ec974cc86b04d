import GRDB
import GRDBSQLite

/// One prepared statement driven through SQLite's C API (bind, step, reset), for loops that run it once per row.
///
/// Why not GRDB's `Statement.execute(arguments:)` there: its `StatementArguments` (boxed `DatabaseValue`s bound
/// through nested closures) cost about 10,000 instructions a row in the R*Tree bulk load, more than SQLite's insert.
/// Errors come out as GRDB's `DatabaseError` with SQLite's extended code and message, as GRDB's own would.
///
/// Lives inside one transaction on the connection that prepared it; `finalize()` (or deinit) releases it.
final class RawStatement {
    private let connection: OpaquePointer
    private var statement: OpaquePointer?
    let sql: String

    /// Prepares `sql` on the connection of `db`.
    /// - Throws: `DatabaseError` when the connection is closed or SQLite refuses the SQL.
    /// - Complexity: O(size of the SQL).
    init(_ db: Database, sql: String) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database connection is closed")
        }
        self.connection = connection
        self.sql = sql
        var prepared: OpaquePointer?
        // sqlite3_prepare_v2 returns SQLITE_OK and sets the statement, or an error code (statement left NULL).
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw Self.lastError(code, connection: connection, sql: sql) }
        statement = prepared
    }

    deinit { finalize() }

    /// Releases the statement; later steps fail with `SQLITE_MISUSE`.
    func finalize() {
        // sqlite3_finalize accepts NULL and returns the last step's error, which was already reported.
        sqlite3_finalize(statement)
        statement = nil
    }

    /// Binds two integers to parameters 1 and 2 and runs the statement to completion.
    /// - Complexity: that of the statement.
    func execute(_ first: Int64, _ second: Int64) throws {
        let statement = try prepared()
        // Each sqlite3_bind_* returns SQLITE_OK or SQLITE_RANGE/SQLITE_NOMEM; parameters are 1-based.
        let code = sqlite3_bind_int64(statement, 1, first) | sqlite3_bind_int64(statement, 2, second)
        try run(statement, bindCode: code)
    }

    /// Binds `values` to parameters 1 through `values.count` and runs the statement to completion.
    /// - Complexity: that of the statement, plus O(values).
    func execute(_ values: UnsafeBufferPointer<Int64>) throws {
        let statement = try prepared()
        var code = SQLITE_OK
        for (index, value) in values.enumerated() { code |= sqlite3_bind_int64(statement, Int32(index + 1), value) }
        try run(statement, bindCode: code)
    }

    /// Binds an integer to parameter 1 and a blob (copied by SQLite) to parameter 2 and runs the statement.
    /// - Complexity: that of the statement, plus O(bytes) for the copy.
    func execute(_ first: Int64, blob: UnsafeRawBufferPointer) throws {
        let statement = try prepared()
        let code = sqlite3_bind_int64(statement, 1, first)
            | sqlite3_bind_blob(statement, 2, blob.baseAddress, Int32(blob.count), Self.transient)
        try run(statement, bindCode: code)
    }

    /// Steps through every row of a query, calling `body` with the statement for reading columns
    /// (`int64(at:)`, `double(at:)`) until it returns false.
    /// - Complexity: that of the query.
    func forEachRow(_ body: (RawStatement) throws -> Bool) throws {
        let statement = try prepared()
        defer { sqlite3_reset(statement) }
        while true {
            // sqlite3_step returns SQLITE_ROW for each row, SQLITE_DONE at the end, an error code otherwise.
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw Self.lastError(code, connection: connection, sql: sql) }
            guard try body(self) else { return }
        }
    }

    /// Column `index` (0-based) of the current row as an integer.
    func int64(at index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// Column `index` (0-based) of the current row as a double.
    func double(at index: Int32) -> Double { sqlite3_column_double(statement, index) }

    private func prepared() throws -> OpaquePointer {
        guard let statement else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the statement is finalized", sql: sql)
        }
        return statement
    }

    /// Steps a statement whose parameters are bound (with `bindCode`, their OR-ed codes) to SQLITE_DONE.
    private func run(_ statement: OpaquePointer, bindCode: Int32) throws {
        guard bindCode == SQLITE_OK else {
            sqlite3_reset(statement)
            throw Self.lastError(bindCode, connection: connection, sql: sql)
        }
        let stepCode = sqlite3_step(statement)
        // sqlite3_reset returns the step's error again; the step's code is the one to report.
        sqlite3_reset(statement)
        guard stepCode == SQLITE_DONE else { throw Self.lastError(stepCode, connection: connection, sql: sql) }
    }

    /// SQLite's "copy the bytes now" destructor marker for `sqlite3_bind_blob` and `sqlite3_bind_text`.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

    /// The connection's last error as a GRDB error (wrapped into `StoreError` by the writer).
    static func lastError(_ code: Int32, connection: OpaquePointer, sql: String) -> DatabaseError {
        let extended = sqlite3_extended_errcode(connection)
        let message = sqlite3_errmsg(connection).map { String(cString: $0) } ?? "SQLite error \(code)"
        return DatabaseError(resultCode: ResultCode(rawValue: extended), message: message, sql: sql)
    }
}
