import CairnCore
import GRDB
import GRDBSQLite

/// The upsert statement driven through SQLite's C API: bind, step, reset, with no per-row boxing.
///
/// Why not GRDB's `Statement.execute(arguments:)` here: building a `StatementArguments` (an array of boxed
/// `DatabaseValue`s) and binding it through nested closures was the largest Swift-side cost of an import.
/// Measured on the GeoNames file (234,908 rows, release build, CPU time, three runs each): importing into an empty
/// store took 1.49-1.65 s with GRDB's arguments and 1.15-1.20 s with this statement; replacing all rows took
/// 1.23-1.32 s and 0.93-0.99 s. Everything else in the store goes through GRDB.
///
/// Two statements: a feature without a shape goes through `FeatureRow.pointUpsertSQL`, which leaves the geometry
/// column out; binding NULL to it a row made a point-only import run 1.3 M more SQLite instructions in 20,000 rows.
///
/// Lives inside one write transaction: created by `FeatureStoreWriter`, finalized by `close()`.
final class RawUpsertStatement {
    private let connection: OpaquePointer
    /// The upsert for a feature without a shape, prepared by `init`.
    private var pointStatement: OpaquePointer?
    /// The upsert with the geometry column, prepared at the first feature with a shape.
    private var shapeStatement: OpaquePointer?
    /// Where `replacedRowFunction` notes the rowid of the row an upsert replaced.
    private let replaced = ReplacedRow()

    /// The rowid of the row the last step replaced, set by the SQL function in the statement's DO UPDATE clause.
    final class ReplacedRow {
        var rowid: Int64 = 0
        var happened = false
    }

    /// The upsert, with a DO UPDATE condition that is always true and notes the replaced row's rowid: the one
    /// thing SQLite does not say after an upsert (`sqlite3_last_insert_rowid` tells an insert only). It runs on
    /// replacements alone, a C call each.
    static let sql = FeatureRow.upsertSQL + replacedRowCondition
    static let pointSQL = FeatureRow.pointUpsertSQL + replacedRowCondition
    private static let replacedRowCondition = "\n    WHERE cairn_note_replaced_row(feature.rowid)"
    private static let functionName = "cairn_note_replaced_row"

    /// What one upsert did: the row's rowid, and whether it replaced a row with that id (else it inserted one).
    struct Outcome {
        let rowid: Int64
        let replaced: Bool
    }

    /// SQLite's "copy the bytes now" destructor marker for `sqlite3_bind_text`.
    private static let transient = RawStatement.transient

    /// Prepares `FeatureRow.pointUpsertSQL` on the connection of `db`.
    init(_ db: Database) throws {
        guard let connection = db.sqliteConnection else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the database connection is closed")
        }
        self.connection = connection
        // sqlite3_create_function_v2 returns SQLITE_OK or an error code; the user data is `replaced`, which this
        // statement keeps alive and unregisters (a NULL function) in close(). DIRECTONLY: not from triggers or views.
        let registered = sqlite3_create_function_v2(
            connection, Self.functionName, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, Unmanaged.passUnretained(replaced).toOpaque(),
            { context, _, arguments in
                // Called with one argument (declared above); returns 1 so that the DO UPDATE always runs.
                if let data = sqlite3_user_data(context), let argument = arguments?[0] {
                    let replaced = Unmanaged<ReplacedRow>.fromOpaque(data).takeUnretainedValue()
                    replaced.rowid = sqlite3_value_int64(argument)
                    replaced.happened = true
                }
                sqlite3_result_int(context, 1)
            }, nil, nil, nil)
        guard registered == SQLITE_OK else { throw lastError(registered, sql: Self.pointSQL) }
        do {
            pointStatement = try prepare(Self.pointSQL)
        } catch {
            close()
            throw error
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var prepared: OpaquePointer?
        // sqlite3_prepare_v2 returns SQLITE_OK and sets the statement, or an error code (statement left NULL).
        let code = sqlite3_prepare_v2(connection, sql, -1, &prepared, nil)
        guard code == SQLITE_OK, let prepared else { throw lastError(code, sql: sql) }
        return prepared
    }

    deinit { close() }

    /// Finalizes the statements and unregisters their function; later calls to `upsert` fail.
    func close() {
        // sqlite3_finalize accepts NULL and returns the last step's error, which was already reported.
        sqlite3_finalize(pointStatement)
        sqlite3_finalize(shapeStatement)
        pointStatement = nil
        shapeStatement = nil
        // A NULL function removes it; the return code is SQLITE_OK or a misuse error with nothing to undo.
        sqlite3_create_function_v2(connection, Self.functionName, 1, SQLITE_UTF8 | SQLITE_DIRECTONLY, nil, nil, nil, nil, nil)
    }

    /// Inserts or replaces `row`, whose id, attributes and geometry are in `bytes` (its batch's buffer).
    /// - Returns: the row's rowid and whether it replaced a stored row.
    /// - Complexity: O(log N) for the B-tree inserts; the encoding was done when the row was added to its batch.
    @discardableResult
    func upsert(_ row: EncodedFeatureBatch.Row, bytes: UnsafeBufferPointer<UInt8>) throws -> Outcome {
        guard let pointStatement, let base = bytes.baseAddress else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "the upsert statement is closed")
        }
        let statement: OpaquePointer
        if !row.hasShape {
            statement = pointStatement
        } else if let shapeStatement {
            statement = shapeStatement
        } else {
            statement = try prepare(Self.sql)
            shapeStatement = statement
        }
        // Each sqlite3_bind_* returns SQLITE_OK, or SQLITE_RANGE/SQLITE_NOMEM/SQLITE_TOOBIG; parameters are 1-based.
        // The text and blobs are copied (SQLITE_TRANSIENT), so no binding outlives the batch's buffer.
        let text = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
        var code = sqlite3_bind_text(statement, 1, text + row.start, Int32(row.idEnd - row.start), Self.transient)
        code |= bindText(row.kind.rawValue, at: 2, in: statement)
        code |= sqlite3_bind_double(statement, 3, row.latitude)
        code |= sqlite3_bind_double(statement, 4, row.longitude)
        code |= bindOptional(row.radiusMeters, at: 5, in: statement)
        code |= bindOptional(row.startSeconds, at: 6, in: statement)
        code |= bindOptional(row.endSeconds, at: 7, in: statement)
        code |= sqlite3_bind_text(statement, 8, text + row.idEnd, Int32(row.attributesEnd - row.idEnd), Self.transient)
        if row.hasShape {
            code |= sqlite3_bind_blob(statement, 9, base + row.attributesEnd, Int32(row.end - row.attributesEnd), Self.transient)
        }
        guard code == SQLITE_OK else {
            sqlite3_reset(statement)
            throw lastError(code, sql: row.hasShape ? Self.sql : Self.pointSQL)
        }
        replaced.happened = false
        // sqlite3_step returns SQLITE_DONE when the statement completed; anything else is an error here.
        let stepCode = sqlite3_step(statement)
        // sqlite3_reset returns the step's error again; the step's code is the one to report.
        sqlite3_reset(statement)
        guard stepCode == SQLITE_DONE else { throw lastError(stepCode, sql: row.hasShape ? Self.sql : Self.pointSQL) }
        // sqlite3_last_insert_rowid: the rowid of the last row inserted on this connection (by this step here).
        return replaced.happened ? Outcome(rowid: replaced.rowid, replaced: true)
                                 : Outcome(rowid: sqlite3_last_insert_rowid(connection), replaced: false)
    }

    private func bindText(_ text: String, at index: Int32, in statement: OpaquePointer) -> Int32 {
        var text = text
        return text.withUTF8 { sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    private func bindOptional(_ value: Double?, at index: Int32, in statement: OpaquePointer) -> Int32 {
        guard let value else { return sqlite3_bind_null(statement, index) }
        return sqlite3_bind_double(statement, index, value)
    }

    /// The connection's last error as a GRDB error (wrapped into `StoreError` by the writer).
    private func lastError(_ code: Int32, sql: String) -> DatabaseError {
        RawStatement.lastError(code, connection: connection, sql: sql)
    }
}
