import CairnCore
import Foundation
import GRDB

/// Fills the empty `feature_rtree` with one entry per `feature` row by writing a packed tree straight into the
/// R*Tree's shadow tables, instead of one R*Tree insert per row.
///
/// Why: SQLite's R*Tree insert costs about 9 µs per row here; for the GeoNames file (234,908 points) the per-row
/// inserts took 2.2 s of CPU out of 3.8 s for the whole import, and the packed load takes about 0.2 s. The tree is
/// built bottom-up in Hilbert order (Kamel and Faloutsos, "On packing R-trees", CIKM 1993), which also gives tighter
/// nodes than one-by-one insertion.
///
/// The shadow-table layout is part of SQLite's file format (described at the top of SQLite's `rtree.c`):
/// - `feature_rtree_node(nodeno, data)`: one blob per node, all the size of the root's blob. Bytes 0-1: the tree
///   depth, big-endian, in the root (node 1) only; bytes 2-3: the number of cells; then cells of an 8-byte big-endian
///   integer (a rowid in a leaf, a child node number otherwise) followed by min_lon, max_lon, min_lat, max_lat as
///   big-endian 32-bit floats.
/// - `feature_rtree_parent(nodeno, parentnode)`: the parent of every node but the root.
/// - `feature_rtree_rowid(rowid, nodeno)`: the leaf holding each rowid.
///
/// Coordinates are rounded outwards to `Float` as SQLite does, so boxes only grow. Tests check the result with SQLite's
/// own `rtreecheck()`. When the shadow tables cannot be written (SQLite's defensive mode makes them read-only) or the
/// tree is not empty, this falls back to plain `INSERT INTO feature_rtree`.
///
/// Memory is bounded whatever the row count: the entries are sorted in chunks and, past one chunk, merged back
/// from a scratch file next to the store (`RTreeEntrySorter`), and the tree is written as its cells arrive
/// (`RTreePackedTreeWriter`).
enum RTreeBulkLoad {
    /// Bytes of one 2-D cell: an 8-byte id and four 4-byte floats.
    static let cellBytes = 24
    /// Bytes before the first cell: depth (2) and cell count (2).
    static let headerBytes = 4

    /// How much of a load is held in memory.
    struct Limits {
        /// Entries sorted in memory at once, 32 bytes each: 8 MiB. The GeoNames file (234,908 rows) fits one
        /// chunk and never touches the scratch file; a larger chunk would save little, the merge being cheap.
        var chunkEntries = 1 << 18
        /// Sorted runs merged at once: 64 covers 16.7 million rows in one pass.
        var mergeFanIn = 64
        /// Entries each run is read (and a merged run written) through: 2,048, 64 KiB.
        var bufferEntries = 1 << 11
    }

    /// What a packed load did, for tests.
    struct Report {
        /// Entries loaded.
        var entries = 0
        /// Sorted runs written to the scratch file (0 when the entries fitted one chunk).
        var runs = 0
        /// Merge passes before the one that builds the tree.
        var extraMergePasses = 0
        /// The most entries held in memory at once.
        var peakEntriesInMemory = 0
    }

    /// Loads every `feature` row into the empty R*Tree, with a scratch file next to the store at `storePath`
    /// when the entries do not fit one chunk.
    /// - Returns: what the packed load did, nil when it fell back to inserts.
    /// - Throws: a `DatabaseError`, or `StoreError.io` when the scratch file fails.
    /// - Complexity: O(N log N) for the sort, then O(N) writes; memory O(chunk + fan-in × buffer), not O(N).
    @discardableResult
    static func load(_ db: Database, storePath: String, limits: Limits = Limits()) throws -> Report? {
        let nodeBytes = try Int.fetchOne(db, sql: "SELECT length(data) FROM feature_rtree_node WHERE nodeno = 1") ?? 0
        let capacity = (nodeBytes - headerBytes) / cellBytes
        let isEmpty = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM feature_rtree_rowid") == 0
        guard capacity >= 4, isEmpty else {
            try loadWithInserts(db)
            return nil
        }
        do {
            var report: Report?
            try db.inSavepoint {
                report = try loadPacked(db, nodeBytes: nodeBytes, capacity: capacity, storePath: storePath, limits: limits)
                return .commit
            }
            return report
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR || error.resultCode == .SQLITE_READONLY {
            try loadWithInserts(db)
            return nil
        }
    }

    /// The slow, always-correct path: SQLite's own R*Tree inserts.
    static func loadWithInserts(_ db: Database) throws {
        try db.execute(sql: """
            DELETE FROM feature_rtree;
            INSERT INTO feature_rtree (rowid, min_lon, max_lon, min_lat, max_lat)
            SELECT rowid, longitude, longitude, latitude, latitude FROM feature;
            """)
    }

    private static func loadPacked(_ db: Database, nodeBytes: Int, capacity: Int, storePath: String,
                                   limits: Limits) throws -> Report? {
        // Entries: rowid, the outward-rounded point box and a sort word (its Hilbert key, 32 bits on a
        // 2^16 × 2^16 grid, above its arrival number, 32 bits), so that a plain integer sort orders by key, ties by
        // arrival, which is rowid order, and the layout is deterministic.
        let expected = try Int.fetchOne(db, sql: "SELECT count(*) FROM feature") ?? 0
        guard expected > 0 else { return nil }
        guard expected < 1 << 32 else {
            try loadWithInserts(db)
            return nil
        }
        var sorter = RTreeEntrySorter(limits: limits, storePath: storePath, expectedCount: expected)
        do {
            // Read through a raw statement: GRDB's `Row` per row cost more than the sorter's work on it.
            let rows = try RawStatement(db, sql: "SELECT rowid, longitude, latitude FROM feature ORDER BY rowid")
            try rows.forEachRow { row in
                guard sorter.count < expected else { return false }
                try sorter.append(rowid: row.int64(at: 0), longitude: row.double(at: 1), latitude: row.double(at: 2))
                return true
            }
            guard sorter.count > 0 else { return nil }
            // A load of one chunk writes its rowid table in rowid order (16 bytes an entry held: memory stays
            // bounded by the chunk); past one chunk, leaf by leaf.
            var tree = try RTreePackedTreeWriter(db, nodeBytes: nodeBytes, capacity: capacity, entryCount: sorter.count,
                                                 rowidOrder: sorter.count <= limits.chunkEntries)
            try sorter.forEachSorted { try tree.add($0) }
            try tree.finish()
        } catch let failure as ScratchFile.Failure {
            throw StoreError.io(path: storePath, operation: failure.operation, message: failure.message)
        }
        return Report(entries: sorter.count, runs: sorter.runCount, extraMergePasses: sorter.extraMergePasses,
                      peakEntriesInMemory: sorter.peakEntriesInMemory)
    }

    /// The largest `Float` not above `value`.
    static func roundedDown(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) > value ? f.nextDown : f
    }

    /// The smallest `Float` not below `value`.
    static func roundedUp(_ value: Double) -> Float {
        let f = Float(value)
        return Double(f) < value ? f.nextUp : f
    }

    /// Position of the point on a Hilbert curve over a 2^16 × 2^16 grid of longitude × latitude (below 2^32).
    static func hilbertIndex(longitude: Double, latitude: Double) -> UInt64 {
        let side: UInt32 = 1 << 16
        var x = UInt32(min(max((longitude + 180) / 360, 0), 1) * Double(side - 1))
        var y = UInt32(min(max((latitude + 90) / 180, 0), 1) * Double(side - 1))
        var d: UInt64 = 0
        var s = side / 2
        while s > 0 {
            let rx: UInt32 = (x & s) > 0 ? 1 : 0
            let ry: UInt32 = (y & s) > 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            // Rotate the quadrant so the curve stays continuous.
            if ry == 0 {
                if rx == 1 {
                    x = side - 1 - x
                    y = side - 1 - y
                }
                swap(&x, &y)
            }
            s /= 2
        }
        return d
    }
}
