import CGEOS

/// A geometry read from well-known binary and prepared once for repeated point tests (GEOS's prepared geometry:
/// its edges indexed on the first test, so each later test is about O(log v) for v vertices).
///
/// Belongs to one context, and so to one thread at a time; it keeps its context alive and owns both the geometry
/// and its prepared form (the prepared form refers to the geometry, so the two go together).
public final class GEOSPreparedGeometry {
    let context: GEOSContext
    /// The geometry's C handle; only this module's thin wrappers use it.
    let geometry: OpaquePointer
    private let prepared: OpaquePointer

    /// The geometry that `wkb` describes, prepared.
    /// Corresponding C functions: `GEOSGeomFromWKB_buf_r`, `GEOSPrepare_r`.
    /// - Throws: `GEOSError` with GEOS's message (`ParseException: …` when the bytes are not WKB).
    /// - Complexity: O(bytes) (the prepared form's index is built at the first test).
    public init(context: GEOSContext, wkb bytes: [UInt8]) throws(GEOSError) {
        self.context = context
        // GEOSGeomFromWKB_buf_r returns a new geometry the caller destroys, or NULL on exception.
        let made = bytes.withUnsafeBufferPointer { buffer in
            context.geos.geometryFromWKB(context.handle, buffer.baseAddress, buffer.count)
        }
        guard let geometry = made else { throw context.error(in: "GEOSGeomFromWKB_buf_r") }
        // GEOSPrepare_r returns a prepared geometry that refers to `geometry` (which must outlive it), or NULL.
        guard let prepared = context.geos.prepare(context.handle, geometry) else {
            context.geos.destroyGeometry(context.handle, geometry)
            throw context.error(in: "GEOSPrepare_r")
        }
        self.geometry = geometry
        self.prepared = prepared
    }

    deinit {
        // The prepared form first: it refers to the geometry.
        context.geos.destroyPrepared(context.handle, prepared)
        context.geos.destroyGeometry(context.handle, geometry)
    }

    /// Whether the geometry covers `point`: inside or on the boundary (Cairn's edge rule).
    /// Corresponding C function: `GEOSPreparedCovers_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(log v) for v vertices after the first test (which indexes the edges, O(v log v)).
    public func covers(_ point: GEOSPoint) throws(GEOSError) -> Bool {
        // GEOSPreparedCovers_r returns 1 (true), 0 (false) or 2 (exception).
        switch context.geos.preparedCovers(context.handle, prepared, point.handle) {
        case 1: return true
        case 0: return false
        default: throw context.error(in: "GEOSPreparedCovers_r")
        }
    }
}
