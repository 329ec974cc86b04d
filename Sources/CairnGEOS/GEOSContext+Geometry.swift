import CGEOS

/// Thin wrappers that make a short-lived geometry, hand it to `body` and destroy it: the trees copy what they
/// need from a geometry, so none outlives the call. The handle never leaves this module.
extension GEOSContext {
    /// Calls `body` with the polygon of `envelope` (a point or a line when it is degenerate).
    /// Corresponding C function: `GEOSGeom_createRectangle_r`.
    /// - Throws: `GEOSError` with GEOS's message.
    /// - Complexity: O(1) plus `body`.
    @inline(__always)
    func withRectangle<Result>(_ envelope: Envelope, _ body: (OpaquePointer) -> Result) throws(GEOSError) -> Result {
        // GEOSGeom_createRectangle_r returns a new geometry the caller destroys, or NULL on exception.
        guard let geometry = geos.createRectangle(handle, envelope.minX, envelope.minY, envelope.maxX, envelope.maxY) else {
            throw error(in: "GEOSGeom_createRectangle_r")
        }
        defer { geos.destroyGeometry(handle, geometry) }
        return body(geometry)
    }

    /// Calls `body` with the geometry that well-known binary `bytes` describe: the way shapes will come in
    /// (the polygon work builds on it; today the tests use it to see a GEOS failure surface with its message).
    /// Corresponding C function: `GEOSGeomFromWKB_buf_r`.
    /// - Throws: `GEOSError` with GEOS's message (`ParseException: …`) when the bytes are not WKB.
    /// - Complexity: O(bytes) plus `body`.
    func withGeometry<Result>(wkb bytes: [UInt8], _ body: (OpaquePointer) -> Result) throws(GEOSError) -> Result {
        // GEOSGeomFromWKB_buf_r returns a new geometry the caller destroys, or NULL on exception.
        let made = bytes.withUnsafeBufferPointer { buffer in
            geos.geometryFromWKB(handle, buffer.baseAddress, buffer.count)
        }
        guard let geometry = made else { throw error(in: "GEOSGeomFromWKB_buf_r") }
        defer { geos.destroyGeometry(handle, geometry) }
        return body(geometry)
    }
}
