import CGEOS

/// A GEOS point geometry, made once per query and handed to a tree query and to every prepared test of that
/// query (a C API user makes one point per query: GEOS has no test of a bare x, y before 3.12).
///
/// Belongs to one context, and so to one thread at a time; it keeps its context alive.
public final class GEOSPoint {
    let context: GEOSContext
    /// The C handle; only this module's thin wrappers use it.
    let handle: OpaquePointer

    /// The point (`x`, `y`): longitude, latitude for Cairn's shapes.
    /// Corresponding C function: `GEOSGeom_createPointFromXY_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1) (one allocation in GEOS).
    public init(context: GEOSContext, x: Double, y: Double) throws(GEOSError) {
        self.context = context
        // GEOSGeom_createPointFromXY_r returns a new geometry the caller destroys, or NULL on exception.
        guard let handle = context.geos.createPoint(context.handle, x, y) else {
            throw context.error(in: "GEOSGeom_createPointFromXY_r")
        }
        self.handle = handle
    }

    deinit {
        context.geos.destroyGeometry(context.handle, handle)
    }
}
