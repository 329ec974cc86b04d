import CairnCore
import CairnGEOS

/// GEOS's way to answer "which polygons contain this point", as its documentation recommends and PostGIS does it:
/// an STRtree over the polygons' envelopes, then `GEOSPreparedCovers_r` on each candidate's prepared geometry
/// (prepared once per polygon; covers, not contains, so that the boundary is inside, Cairn's edge rule). One
/// context, one thread; the point of a query is made once and used for the tree and every test.
final class GEOSPreparedPolygonPeer {
    let summary = "GEOS \(GEOSContext.version) STRtree (node capacity 10) + GEOSPreparedCovers_r, reentrant C API"
    private let context: GEOSContext
    private let tree: GEOSSTRtree
    private var prepared: [GEOSPreparedGeometry] = []
    private var candidates: [Int] = []

    /// Starts a context and an empty tree.
    /// - Throws: `BenchError` when GEOS cannot start.
    /// - Complexity: O(1).
    init() throws {
        do {
            context = try GEOSContext()
            tree = try GEOSSTRtree(context: context)
        } catch {
            throw BenchError.engine(BenchEngineName.geosSTRtree.rawValue, "\(error)")
        }
        candidates.reserveCapacity(64)
    }

    /// Reads every shape's WKB into GEOS, prepares it, inserts its envelope and packs the tree; then tests one
    /// point per polygon (its first vertex) so that every prepared geometry's edge index is built, as a long-running
    /// service's would be after its first queries.
    /// - Throws: `BenchError` with GEOS's message.
    /// - Complexity: O(v log v) for v vertices.
    func build(_ shapes: [Shape]) throws {
        do {
            prepared.reserveCapacity(shapes.count)
            for (item, shape) in shapes.enumerated() {
                let geometry = try GEOSPreparedGeometry(context: context, wkb: shape.wkb)
                try tree.insert(geometry, item: item)
                prepared.append(geometry)
            }
            try tree.build()
            for (item, shape) in shapes.enumerated() where shape.vertexCount > 0 {
                let vertex = shape.vertex(0)
                _ = try prepared[item].covers(GEOSPoint(context: context, x: vertex.longitude, y: vertex.latitude))
            }
        } catch {
            throw BenchError.engine(BenchEngineName.geosSTRtree.rawValue, "\(error)")
        }
    }

    /// Appends the items of the polygons that cover `point`, in the tree's order.
    /// - Throws: `BenchError` with GEOS's message.
    /// - Complexity: O(log n + k log v) for k candidates of v vertices.
    func containing(_ point: Coordinate, into results: inout [Int]) throws {
        do {
            let geometry = try GEOSPoint(context: context, x: point.longitude, y: point.latitude)
            candidates.removeAll(keepingCapacity: true)
            try tree.query(geometry, into: &candidates)
            for item in candidates where try prepared[item].covers(geometry) { results.append(item) }
        } catch {
            throw BenchError.engine(BenchEngineName.geosSTRtree.rawValue, "\(error)")
        }
    }
}
