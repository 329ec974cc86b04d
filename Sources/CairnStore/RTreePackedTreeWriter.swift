import GRDB

/// Writes a packed R*Tree into the shadow tables as its leaf cells arrive in sorted order, holding one node under
/// construction per level (a few kilobytes), never the tree's levels.
///
/// The shape is fixed by the entry count before the first cell arrives: each level has ceil(cells below / capacity)
/// nodes, and cells are spread evenly (the first `cells % nodes` nodes get one more); the root is node 1, then the
/// nodes are numbered level by level from the top. A node is written when its last cell arrives, and becomes a
/// cell of the node above. See `RTreeBulkLoad` for the shadow-table layout.
struct RTreePackedTreeWriter {
    /// One level's node under construction.
    private struct Level {
        /// Nodes on this level, and cells spread over them (entries for the leaves, else the nodes below).
        let nodeCount: Int
        let cellCount: Int
        /// The node number of its first node.
        let firstNumber: Int64
        /// Index of the node being filled, and its cells so far.
        var node = 0
        var cells = 0
        var blob: [UInt8]
        var minLon = Float.infinity, maxLon = -Float.infinity, minLat = Float.infinity, maxLat = -Float.infinity

        /// The number of the node being filled.
        var number: Int64 { firstNumber + Int64(node) }
        /// Cells the node being filled gets.
        var plannedCells: Int { cellCount / nodeCount + (node < cellCount % nodeCount ? 1 : 0) }
    }

    private var levels: [Level] = []
    /// Raw statements: GRDB's boxed arguments cost more per row than SQLite's inserts (see `RawStatement`).
    private let writeNode: RawStatement
    private let writeParent: RawStatement
    /// One `feature_rtree_rowid` insert of n rows at index n - 1, prepared when first needed: `finish()` writes up
    /// to `capacity` rows a statement, sharing SQLite's per-statement cost; the per-leaf path uses the one-row one.
    private var writeRowids: [RawStatement?]
    /// The rowid and node number pairs `finish()` inserts next.
    private var pendingRowids: [Int64] = []
    private let db: Database
    /// With `rowidOrder`, the leaf node of each entry by its arrival number (the entries' rank in rowid order,
    /// `RTreeEntry.order`'s low 32 bits), and its rowid: the rowid table is then written in rowid order at
    /// `finish()`, appending to its B-tree, where leaf order inserts all over it (about 4,400 instructions a row).
    private var leafByArrival: [Int64] = []
    private var rowidByArrival: [Int64] = []

    /// A writer for a tree of `entryCount` leaf cells (at least one), nodes of `nodeBytes` holding `capacity` cells.
    /// With `rowidOrder` (for loads that fit in memory: 16 bytes an entry are held until `finish()`), the entries'
    /// arrival numbers run from 0 to `entryCount` - 1, and the rowid table is written in rowid order.
    init(_ db: Database, nodeBytes: Int, capacity: Int, entryCount: Int, rowidOrder: Bool = false) throws {
        var shape: [(nodeCount: Int, cellCount: Int)] = []
        var below = entryCount
        repeat {
            let nodeCount = (below + capacity - 1) / capacity
            shape.append((nodeCount, below))
            below = nodeCount
        } while below > 1
        var firstNumbers = [Int64](repeating: 0, count: shape.count)
        var next: Int64 = 1
        for level in shape.indices.reversed() {
            firstNumbers[level] = next
            next += Int64(shape[level].nodeCount)
        }
        levels = shape.indices.map { level in
            Level(nodeCount: shape[level].nodeCount, cellCount: shape[level].cellCount,
                  firstNumber: firstNumbers[level], blob: [UInt8](repeating: 0, count: nodeBytes))
        }
        writeNode = try RawStatement(db, sql: "INSERT OR REPLACE INTO feature_rtree_node (nodeno, data) VALUES (?, ?)")
        writeParent = try RawStatement(db, sql: "INSERT INTO feature_rtree_parent (nodeno, parentnode) VALUES (?, ?)")
        writeRowids = Array(repeating: nil, count: capacity)
        pendingRowids.reserveCapacity(2 * capacity)
        self.db = db
        if rowidOrder {
            leafByArrival = Array(repeating: 0, count: entryCount)
            rowidByArrival = Array(repeating: 0, count: entryCount)
        }
    }

    /// Adds the next leaf cell in sorted order.
    /// - Complexity: O(1) amortized; a full node costs one write per level it completes.
    mutating func add(_ entry: RTreeEntry) throws {
        let arrival = Int(entry.order & 0xFFFF_FFFF)
        if arrival < leafByArrival.count {
            leafByArrival[arrival] = levels[0].number
            rowidByArrival[arrival] = entry.rowid
        } else {
            // One row a statement: a multi-row insert opens a statement journal, which held every page the
            // statements touched inside the load's savepoint (about 480 MB at 5,000,000 rows).
            try rowStatement(rows: 1).execute(entry.rowid, levels[0].number)
        }
        try add(id: entry.rowid, lon: (entry.minLon, entry.maxLon), lat: (entry.minLat, entry.maxLat), level: 0)
    }

    /// Puts a cell into the node being filled on `level`; writes the node when it is complete and passes it up.
    private mutating func add(id: Int64, lon: (Float, Float), lat: (Float, Float), level: Int) throws {
        let at = RTreeBulkLoad.headerBytes + levels[level].cells * RTreeBulkLoad.cellBytes
        Self.put(UInt64(bitPattern: id), byteCount: 8, into: &levels[level].blob, at: at)
        Self.put(UInt64(lon.0.bitPattern), byteCount: 4, into: &levels[level].blob, at: at + 8)
        Self.put(UInt64(lon.1.bitPattern), byteCount: 4, into: &levels[level].blob, at: at + 12)
        Self.put(UInt64(lat.0.bitPattern), byteCount: 4, into: &levels[level].blob, at: at + 16)
        Self.put(UInt64(lat.1.bitPattern), byteCount: 4, into: &levels[level].blob, at: at + 20)
        levels[level].minLon = min(levels[level].minLon, lon.0); levels[level].maxLon = max(levels[level].maxLon, lon.1)
        levels[level].minLat = min(levels[level].minLat, lat.0); levels[level].maxLat = max(levels[level].maxLat, lat.1)
        levels[level].cells += 1
        guard levels[level].cells == levels[level].plannedCells else { return }

        let number = levels[level].number
        if number == 1 { Self.put(UInt64(levels.count - 1), byteCount: 2, into: &levels[level].blob, at: 0) }
        Self.put(UInt64(levels[level].cells), byteCount: 2, into: &levels[level].blob, at: 2)
        try levels[level].blob.withUnsafeBytes { try writeNode.execute(number, blob: $0) }
        let box = (lon: (levels[level].minLon, levels[level].maxLon), lat: (levels[level].minLat, levels[level].maxLat))
        levels[level].node += 1
        levels[level].cells = 0
        levels[level].minLon = .infinity; levels[level].maxLon = -.infinity
        levels[level].minLat = .infinity; levels[level].maxLat = -.infinity
        for k in levels[level].blob.indices { levels[level].blob[k] = 0 }
        guard level + 1 < levels.count else { return }
        try writeParent.execute(number, levels[level + 1].number)
        try add(id: number, lon: box.lon, lat: box.lat, level: level + 1)
    }

    /// Writes the rowid table of a `rowidOrder` writer, in rowid order, a statement of `capacity` rows at a time;
    /// nothing for the other writers (theirs is written leaf by leaf).
    /// - Complexity: O(n).
    mutating func finish() throws {
        let count = leafByArrival.count
        var start = 0
        while start < count {
            let end = min(start + writeRowids.count, count)
            for arrival in start..<end {
                pendingRowids.append(rowidByArrival[arrival])
                pendingRowids.append(leafByArrival[arrival])
            }
            try flushRowids()
            start = end
        }
        leafByArrival = []
        rowidByArrival = []
    }

    /// Inserts the pending rowid rows in one statement.
    private mutating func flushRowids() throws {
        let rows = pendingRowids.count / 2
        guard rows > 0 else { return }
        let statement = try rowStatement(rows: rows)
        try pendingRowids.withUnsafeBufferPointer { try statement.execute($0) }
        pendingRowids.removeAll(keepingCapacity: true)
    }

    /// The insert of `rows` rowid rows (1 through `capacity`), prepared when first needed.
    private mutating func rowStatement(rows: Int) throws -> RawStatement {
        if let prepared = writeRowids[rows - 1] { return prepared }
        let values = Array(repeating: "(?, ?)", count: rows).joined(separator: ", ")
        let statement = try RawStatement(db, sql: "INSERT INTO feature_rtree_rowid (rowid, nodeno) VALUES \(values)")
        writeRowids[rows - 1] = statement
        return statement
    }

    /// Writes the low `byteCount` bytes of `value` big-endian at `offset`.
    private static func put(_ value: UInt64, byteCount: Int, into blob: inout [UInt8], at offset: Int) {
        for k in 0..<byteCount { blob[offset + k] = UInt8(truncatingIfNeeded: value >> UInt64(8 * (byteCount - 1 - k))) }
    }
}
