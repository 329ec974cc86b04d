/// The names of the engines `cairn bench` knows, in report order.
public enum BenchEngineName: String, CaseIterable, Sendable {
    case cairn
    case sqliteRTree = "sqlite-rtree"
    case geosSTRtree = "geos-strtree"

    /// A fresh, unbuilt engine of this kind.
    /// - Throws: `BenchError` when the engine's library cannot start (a GEOS context, an SQLite database).
    /// - Complexity: O(1).
    public func makeEngine() throws -> any BenchEngine {
        switch self {
        case .cairn: CairnEngine()
        case .sqliteRTree: try SQLiteRTreePeer()
        case .geosSTRtree: try GEOSSTRtreePeer()
        }
    }
}
