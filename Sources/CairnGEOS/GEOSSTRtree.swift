import CGEOS

/// GEOS's STRtree: a Sort-Tile-Recursive packed R-tree (Leutenegger, Lopez & Edgington, ICDE 1997) of
/// envelopes, each under an item number. Insert everything, then `build()` (or query: the first query packs
/// the tree); GEOS compares the doubles as given, so a query's items are exactly those whose envelope meets it.
///
/// The tree belongs to one context, and so to one thread at a time; it keeps its context alive.
public final class GEOSSTRtree {
    private let context: GEOSContext
    private let tree: OpaquePointer

    /// An empty tree whose nodes hold up to `nodeCapacity` children (10 is GEOS's recommended default).
    /// Corresponding C function: `GEOSSTRtree_create_r`.
    /// - Precondition: `nodeCapacity >= 2` (a node of one child would never pack).
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1).
    public init(context: GEOSContext, nodeCapacity: Int = 10) throws(GEOSError) {
        precondition(nodeCapacity >= 2, "an STRtree node needs room for at least 2 children, not \(nodeCapacity)")
        self.context = context
        // GEOSSTRtree_create_r returns the tree, or NULL on exception.
        guard let tree = context.geos.createTree(context.handle, nodeCapacity) else {
            throw context.error(in: "GEOSSTRtree_create_r")
        }
        self.tree = tree
    }

    deinit {
        // GEOSSTRtree_destroy_r frees the tree (not the items, which are plain numbers here).
        context.geos.destroyTree(context.handle, tree)
    }

    /// Inserts the point (`x`, `y`) under `item`.
    /// Corresponding C function: `GEOSSTRtree_insert_r`.
    /// - Precondition: `0 <= item < Int.max`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1) amortised (the packing happens in `build()`).
    public func insert(x: Double, y: Double, item: Int) throws(GEOSError) {
        // Direct calls rather than a closure wrapper such as `withRectangle`: a build inserts every item, and
        // the closure and its error plumbing cost about 6 % of a GEOS build's instructions.
        // GEOSGeom_createPointFromXY_r returns a new geometry the caller destroys, or NULL on exception.
        guard let geometry = context.geos.createPoint(context.handle, x, y) else {
            throw context.error(in: "GEOSGeom_createPointFromXY_r")
        }
        insert(geometry, item: item)
        context.geos.destroyGeometry(context.handle, geometry)
        if context.hasError { throw context.error(in: "GEOSSTRtree_insert_r") }
    }

    /// Inserts `envelope` under `item`.
    /// Corresponding C function: `GEOSSTRtree_insert_r`.
    /// - Precondition: `0 <= item < Int.max`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1) amortised (the packing happens in `build()`).
    public func insert(_ envelope: Envelope, item: Int) throws(GEOSError) {
        // Direct calls, as for a point.
        // GEOSGeom_createRectangle_r returns a new geometry the caller destroys, or NULL on exception.
        guard let geometry = context.geos.createRectangle(context.handle, envelope.minX, envelope.minY, envelope.maxX, envelope.maxY) else {
            throw context.error(in: "GEOSGeom_createRectangle_r")
        }
        insert(geometry, item: item)
        context.geos.destroyGeometry(context.handle, geometry)
        if context.hasError { throw context.error(in: "GEOSSTRtree_insert_r") }
    }

    /// Inserts `geometry`'s envelope under `item` (the tree copies the envelope).
    /// Corresponding C function: `GEOSSTRtree_insert_r`.
    /// - Precondition: `0 <= item < Int.max`; the geometry belongs to this tree's context.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1) amortised (the packing happens in `build()`).
    public func insert(_ geometry: GEOSPreparedGeometry, item: Int) throws(GEOSError) {
        precondition(geometry.context === context, "a geometry goes into a tree of its own context")
        insert(geometry.geometry, item: item)
        if context.hasError { throw context.error(in: "GEOSSTRtree_insert_r") }
    }

    /// Packs the tree now rather than on the first query. GEOS 3.11 has no call for it (3.12's
    /// `GEOSSTRtree_build_r`), so this is a query of an envelope that meets nothing.
    /// Corresponding C function: `GEOSSTRtree_query_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(n log n) the first time, O(log n) after.
    public func build() throws(GEOSError) {
        var ignored: [Int] = []
        try query(Envelope(x: 1_000, y: 1_000), into: &ignored)
    }

    /// Appends, in the tree's order, the item of every envelope that meets `envelope` (edges included).
    /// Corresponding C function: `GEOSSTRtree_query_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(log n + k) for k items found, on a tree of well-spread envelopes.
    public func query(_ envelope: Envelope, into items: inout [Int]) throws(GEOSError) {
        // The query takes a geometry's envelope: a rectangle made per query, as a C API user must.
        try context.withRectangle(envelope) { geometry in collect(geometry, into: &items) }
        if context.hasError { throw context.error(in: "GEOSSTRtree_query_r") }
    }

    /// Appends the items whose envelope meets `geometry`'s; the caller checks `context.hasError` afterwards.
    @inline(__always)
    private func collect(_ geometry: OpaquePointer, into items: inout [Int]) {
        withUnsafeMutablePointer(to: &items) { buffer in
            // GEOSSTRtree_query_r returns nothing; it calls back with each item and the userdata (here the
            // array), and reports an exception only through the message handler.
            context.geos.queryTree(context.handle, tree, geometry, { item, userdata in
                guard let userdata else { return }
                userdata.assumingMemoryBound(to: [Int].self).pointee.append(Int(bitPattern: item) - 1)
            }, buffer)
        }
    }

    /// Appends, in the tree's order, the item of every envelope that holds `point` (edges included): the
    /// candidates of a containment query, with the point the caller then tests against each.
    /// Corresponding C function: `GEOSSTRtree_query_r`.
    /// - Precondition: the point belongs to this tree's context.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(log n + k) for k items found.
    public func query(_ point: GEOSPoint, into items: inout [Int]) throws(GEOSError) {
        precondition(point.context === context, "a point queries a tree of its own context")
        collect(point.handle, into: &items)
        if context.hasError { throw context.error(in: "GEOSSTRtree_query_r") }
    }

    /// The items whose envelope meets `envelope`.
    /// Corresponding C function: `GEOSSTRtree_query_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(log n + k) for k items found.
    public func query(_ envelope: Envelope) throws(GEOSError) -> [Int] {
        var items: [Int] = []
        try query(envelope, into: &items)
        return items
    }

    /// Inserts `geometry`'s envelope under `item`; the tree copies the envelope (GEOS 3.9 and later), so the
    /// geometry may go at once. The caller checks `context.hasError` afterwards.
    @inline(__always)
    private func insert(_ geometry: OpaquePointer, item: Int) {
        precondition(item >= 0 && item < Int.max, "an STRtree item is a number from 0, not \(item)")
        // GEOSSTRtree_insert_r returns nothing and reports an exception only through the message handler. The
        // item is a pointer-sized value the tree hands back; item + 1 keeps it non-null.
        context.geos.insertIntoTree(context.handle, tree, geometry, UnsafeMutableRawPointer(bitPattern: item + 1))
    }
}
