import CairnCore
import GRDBSQLite

/// SQLite's R*Tree module as a peer: an in-memory database, one `rtree` virtual table of the points (each a
/// degenerate rectangle) and one of the circles' bounding rectangles, queried through prepared statements
/// with the raw C API. Exactness comes from `PeerQueries`' re-check; the R*Tree stores 32-bit floats rounded
/// outwards, so it may return extra candidates but never misses one.
final class SQLiteRTreePeer: BenchEngine {
    let name = BenchEngineName.sqliteRTree.rawValue
    // sqlite3_libversion returns a static string.
    let summary = "SQLite \(String(cString: sqlite3_libversion())) R*Tree, in memory, prepared statements"
    private let database: SQLiteDatabase
    private var pointQuery: SQLiteStatement?
    private var circleQuery: SQLiteStatement?
    private var queries = PeerQueries(points: [])

    var reportedMemoryBytes: Int? { database.memoryUsedBytes }

    /// Opens an empty in-memory database.
    /// - Throws: `BenchError` when SQLite cannot open it.
    init() throws {
        database = try SQLiteDatabase()
    }

    func build(points: [Coordinate]) throws {
        queries = PeerQueries(points: points)
        try database.execute("CREATE VIRTUAL TABLE points USING rtree(id, minLon, maxLon, minLat, maxLat)")
        try database.execute("BEGIN")
        let insert = try database.prepare("INSERT INTO points VALUES (?1, ?2, ?3, ?4, ?5)")
        for (item, point) in points.enumerated() {
            try insert.run(Int64(item), point.longitude, point.longitude, point.latitude, point.latitude)
        }
        try database.execute("COMMIT")
        pointQuery = try database.prepare("SELECT id FROM points WHERE maxLon >= ?1 AND minLon <= ?2 AND maxLat >= ?3 AND minLat <= ?4")
    }

    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool {
        queries.circles = ContiguousArray(circles)
        try database.execute("CREATE VIRTUAL TABLE circles USING rtree(id, minLon, maxLon, minLat, maxLat)")
        try database.execute("BEGIN")
        // One circle may have two rectangles (across the antimeridian): an R*Tree id is unique, so the table
        // keys them by 2 * item + part and the query halves it back.
        let insert = try database.prepare("INSERT INTO circles VALUES (?1, ?2, ?3, ?4, ?5)")
        for (item, circle) in circles.enumerated() {
            var part = 0
            try BenchRect.covering(circleAround: circle.center, radiusMeters: circle.radiusMeters, model: model).forEach { rect in
                try insert.run(Int64(2 * item + part), rect.west, rect.east, rect.south, rect.north)
                part += 1
            }
        }
        try database.execute("COMMIT")
        circleQuery = try database.prepare("SELECT id / 2 FROM circles WHERE maxLon >= ?1 AND minLon <= ?2 AND maxLat >= ?3 AND minLat <= ?4")
        return true
    }

    func search(in box: BoundingBox, into results: inout [Int]) {
        guard let pointQuery else { return }
        queries.search(in: box, index: pointQuery, into: &results)
    }

    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let pointQuery else { return }
        queries.within(radiusMeters: radiusMeters, of: center, model: model, index: pointQuery, into: &results)
    }

    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        guard let pointQuery else { return }
        queries.nearest(to: point, count: count, model: model, index: pointQuery, into: &results)
    }

    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let circleQuery else { return }
        queries.containing(point, model: model, index: circleQuery, into: &results)
    }
}

/// A prepared `SELECT id … WHERE maxLon >= ?1 AND minLon <= ?2 AND maxLat >= ?3 AND minLat <= ?4` is a
/// rectangle index.
extension SQLiteStatement: RectCandidateIndex {
    func collect(_ rect: BenchRect, into candidates: inout [Int]) {
        forEachInteger(rect.west, rect.east, rect.south, rect.north) { candidates.append($0) }
    }
}

/// An SQLite connection, closed on deinit: a thin wrapper over the C API.
final class SQLiteDatabase {
    fileprivate let handle: OpaquePointer

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

    fileprivate var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}

/// A prepared statement, finalized on deinit.
final class SQLiteStatement {
    private let database: SQLiteDatabase
    private let handle: OpaquePointer

    fileprivate init(database: SQLiteDatabase, handle: OpaquePointer) {
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
