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
