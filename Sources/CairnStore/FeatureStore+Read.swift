import CairnCore
import GRDB

extension FeatureStore {
    /// The feature with this id, or nil.
    /// - Complexity: O(log N) (the unique index on `id`).
    public func feature(id: String) throws -> Feature? {
        try read("reading feature '\(id)'") { db in
            let statement = try db.cachedStatement(sql: "SELECT \(FeatureRow.columns()) FROM feature WHERE id = ?")
            guard let row = try Row.fetchOne(statement, arguments: [id]) else { return nil }
            return try FeatureRow.decode(row, path: path)
        }
    }

    /// The number of stored features.
    /// - Complexity: O(N): SQLite counts the entries of the smallest index.
    public func count() throws -> Int {
        try read("counting features") { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feature") ?? 0 }
    }

    /// Calls `body` with every feature (of `kind`, when given) in rowid order, that is in first-insertion order.
    /// Rows are read one at a time from a single snapshot, so memory stays constant however large the store.
    /// The iteration reads one snapshot: writes made meanwhile, even by `body`, are not seen. A throw from `body` stops
    /// the iteration and is rethrown.
    /// - Throws: the error `body` threw, or a `StoreError` (`.invalidRow` for a row that is not a valid feature).
    /// - Complexity: O(N), or O(K log N) for the K features of one kind.
    public func forEachFeature(kind: FeatureKind? = nil, _ body: (Feature) throws -> Void) throws {
        try read("reading all features") { db in
            let rows: RowCursor
            if let kind {
                rows = try Row.fetchCursor(
                    db, sql: "SELECT \(FeatureRow.columns()) FROM feature WHERE kind = ? ORDER BY rowid",
                    arguments: [kind.rawValue])
            } else {
                rows = try Row.fetchCursor(db, sql: "SELECT \(FeatureRow.columns()) FROM feature ORDER BY rowid")
            }
            while let row = try rows.next() {
                try body(FeatureRow.decode(row, path: path))
            }
        }
    }

    /// The features whose location lies in the box, edges included, in rowid order, found through the R*Tree and
    /// re-checked against the exact stored coordinates.
    ///
    /// `west > east` means the box crosses the antimeridian (from `west` eastwards to 180, then from -180 to `east`).
    /// Longitudes 180 and -180 are the same meridian: a box reaching one of them holds points stored at the other.
    /// - Throws: `StoreError.invalidBox` for non-finite or out-of-range edges or `south > north`.
    /// - Complexity: O(log N + K) for K results (plus R*Tree over-selection near the edges, re-checked away).
    public func features(inBoxWest west: Double, south: Double, east: Double, north: Double) throws -> [Feature] {
        func invalid(_ reason: String) -> StoreError {
            .invalidBox(west: west, south: south, east: east, north: north, reason: reason)
        }
        guard west.isFinite, south.isFinite, east.isFinite, north.isFinite else { throw invalid("edges must be finite") }
        guard (-90.0...90.0).contains(south), (-90.0...90.0).contains(north) else {
            throw invalid("latitudes must be in [-90, 90]")
        }
        guard (-180.0...180.0).contains(west), (-180.0...180.0).contains(east) else {
            throw invalid("longitudes must be in [-180, 180]")
        }
        guard south <= north else { throw invalid("south must not be north of north") }

        // Longitude ranges to search, each plain (lower <= upper).
        var ranges: [(Double, Double)] = west <= east ? [(west, east)] : [(west, 180), (-180, east)]
        if ranges.contains(where: { $0.1 == 180 }) { ranges.append((-180, -180)) }
        if ranges.contains(where: { $0.0 == -180 }) { ranges.append((180, 180)) }

        return try read("box query") { db in
            // The R*Tree holds 32-bit floats rounded outwards: its test can only over-select, and the exact test on
            // `feature`'s doubles removes the extras.
            let statement = try db.cachedStatement(sql: """
                SELECT f.rowid, \(FeatureRow.columns("f."))
                FROM feature_rtree AS r JOIN feature AS f ON f.rowid = r.rowid
                WHERE r.max_lon >= ?1 AND r.min_lon <= ?2 AND r.max_lat >= ?3 AND r.min_lat <= ?4
                  AND f.longitude BETWEEN ?1 AND ?2 AND f.latitude BETWEEN ?3 AND ?4
                """)
            var found: [Int64: Feature] = [:]
            for (lower, upper) in ranges {
                let rows = try Row.fetchCursor(statement, arguments: [lower, upper, south, north])
                while let row = try rows.next() {
                    let rowid: Int64 = row[0] ?? 0
                    if found[rowid] == nil {
                        found[rowid] = try FeatureRow.decode(row, from: 1, path: path)
                    }
                }
            }
            return found.keys.sorted().compactMap { found[$0] }
        }
    }
}
