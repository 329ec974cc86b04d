import CairnCore
import CGEOS

/// GEOS's STRtree (Sort-Tile-Recursive packed R-tree) as a peer, through the reentrant C API with its own
/// context: one tree of the points and one of the circles' bounding rectangles, items stored as their index
/// in the item pointer. Exactness comes from `PeerQueries`' re-check (GEOS compares doubles, so its
/// candidates are exactly the rectangle's).
final class GEOSSTRtreePeer: BenchEngine {
    let name = BenchEngineName.geosSTRtree.rawValue
    // GEOSversion returns a static string.
    let summary = "GEOS \(String(cString: GEOSversion())) STRtree, node capacity 10, reentrant C API"
    private let context: GEOSContext
    private var pointTree: GEOSTree?
    private var circleTree: GEOSTree?
    private var queries = PeerQueries(points: [])

    var reportedMemoryBytes: Int? { nil }

    /// Starts a GEOS context.
    /// - Throws: `BenchError` when GEOS cannot start one.
    init() throws {
        context = try GEOSContext()
    }

    func build(points: [Coordinate]) throws {
        queries = PeerQueries(points: points)
        let tree = try GEOSTree(context: context)
        for (item, point) in points.enumerated() {
            try tree.insert(point: point, item: item)
        }
        tree.finish()
        pointTree = tree
    }

    func buildCircles(_ circles: [BenchCircle], model: DistanceModel) throws -> Bool {
        queries.circles = ContiguousArray(circles)
        let tree = try GEOSTree(context: context)
        for (item, circle) in circles.enumerated() {
            // Across the antimeridian a circle has two disjoint rectangles, both under its item.
            try BenchRect.covering(circleAround: circle.center, radiusMeters: circle.radiusMeters, model: model).forEach { rect in
                try tree.insert(rect: rect, item: item)
            }
        }
        tree.finish()
        circleTree = tree
        return true
    }

    func search(in box: BoundingBox, into results: inout [Int]) {
        guard let pointTree else { return }
        queries.search(in: box, index: pointTree, into: &results)
    }

    func within(radiusMeters: Double, of center: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let pointTree else { return }
        queries.within(radiusMeters: radiusMeters, of: center, model: model, index: pointTree, into: &results)
    }

    func nearest(to point: Coordinate, count: Int, model: DistanceModel, into results: inout [Neighbor]) {
        guard let pointTree else { return }
        queries.nearest(to: point, count: count, model: model, index: pointTree, into: &results)
    }

    func containing(_ point: Coordinate, model: DistanceModel, into results: inout [Int]) {
        guard let circleTree else { return }
        queries.containing(point, model: model, index: circleTree, into: &results)
    }
}

/// A GEOS context handle with an error handler that keeps the last message; finished on deinit.
final class GEOSContext {
    let handle: OpaquePointer
    /// The last error GEOS reported through the handler.
    private(set) var lastError = "unknown GEOS error"

    /// Starts a context. Corresponding C function: `GEOS_init_r`.
    /// - Throws: `BenchError` when GEOS returns no handle.
    init() throws {
        // GEOS_init_r returns a new context handle, or NULL when out of memory.
        guard let handle = GEOS_init_r() else { throw BenchError.engine("geos-strtree", "GEOS_init_r failed") }
        self.handle = handle
        // The handler receives a formatted message and the userdata given here (this object, unretained:
        // the context is finished in deinit, before the object goes away).
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue().lastError = String(cString: message)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { GEOS_finish_r(handle) }
}

/// One STRtree with a node capacity of 10 (GEOS's recommended default), destroyed on deinit.
final class GEOSTree: RectCandidateIndex {
    private let context: GEOSContext
    private let tree: OpaquePointer

    /// Creates an empty tree. Corresponding C function: `GEOSSTRtree_create_r`.
    /// - Throws: `BenchError` with GEOS's message.
    init(context: GEOSContext) throws {
        self.context = context
        // GEOSSTRtree_create_r returns the tree, or NULL on exception.
        guard let tree = GEOSSTRtree_create_r(context.handle, 10) else {
            throw BenchError.engine("geos-strtree", context.lastError)
        }
        self.tree = tree
    }

    deinit { GEOSSTRtree_destroy_r(context.handle, tree) }

    /// Inserts a point under `item`. Corresponding C function: `GEOSSTRtree_insert_r`.
    /// - Throws: `BenchError` with GEOS's message.
    func insert(point: Coordinate, item: Int) throws {
        // GEOSGeom_createPointFromXY_r returns a new geometry the caller destroys, or NULL on exception.
        guard let geometry = GEOSGeom_createPointFromXY_r(context.handle, point.longitude, point.latitude) else {
            throw BenchError.engine("geos-strtree", context.lastError)
        }
        // Since GEOS 3.9 the tree copies the envelope: the geometry can go at once. The item is a pointer-sized
        // value the tree hands back; item + 1 keeps it non-null.
        GEOSSTRtree_insert_r(context.handle, tree, geometry, UnsafeMutableRawPointer(bitPattern: item + 1))
        GEOSGeom_destroy_r(context.handle, geometry)
    }

    /// Inserts a rectangle under `item`. Corresponding C function: `GEOSSTRtree_insert_r`.
    /// - Throws: `BenchError` with GEOS's message.
    func insert(rect: BenchRect, item: Int) throws {
        // GEOSGeom_createRectangle_r returns a new polygon (a point or line when degenerate), or NULL on exception.
        guard let geometry = GEOSGeom_createRectangle_r(context.handle, rect.west, rect.south, rect.east, rect.north) else {
            throw BenchError.engine("geos-strtree", context.lastError)
        }
        GEOSSTRtree_insert_r(context.handle, tree, geometry, UnsafeMutableRawPointer(bitPattern: item + 1))
        GEOSGeom_destroy_r(context.handle, geometry)
    }

    /// Builds the tree now (GEOS 3.11 packs it on the first query; 3.12 has GEOSSTRtree_build_r).
    func finish() {
        var ignored: [Int] = []
        collect(BenchRect(west: 1_000, south: 1_000, east: 1_000, north: 1_000), into: &ignored)
    }

    /// Appends the items whose envelope meets `rect`. Corresponding C function: `GEOSSTRtree_query_r`.
    func collect(_ rect: BenchRect, into candidates: inout [Int]) {
        // The query takes the envelope of a geometry: a rectangle built per query, as a C API user must.
        guard let geometry = GEOSGeom_createRectangle_r(context.handle, rect.west, rect.south, rect.east, rect.north) else { return }
        withUnsafeMutablePointer(to: &candidates) { buffer in
            // The callback gets each matching item and the userdata (here the candidate array).
            GEOSSTRtree_query_r(context.handle, tree, geometry, { item, userdata in
                guard let userdata else { return }
                userdata.assumingMemoryBound(to: [Int].self).pointee.append(Int(bitPattern: item) - 1)
            }, buffer)
        }
        GEOSGeom_destroy_r(context.handle, geometry)
    }
}
