import CairnCore
import CGEOS

/// Validity of polygons by GEOS (OGC Simple Features: rings closed and simple, holes inside their shell, parts that
/// do not overlap), with GEOS's reason for an invalid one, and GEOS's repair.
///
/// Owns one GEOS context, so one validator per thread (an import has one).
public final class ShapeValidator {
    private let context: GEOSContext

    /// A validator with a context of its own.
    /// - Throws: `GEOSError` when GEOS cannot start a context.
    /// - Complexity: O(1).
    public init() throws(GEOSError) {
        context = try GEOSContext()
    }

    /// Why `shape` is invalid, in GEOS's words (`Self-intersection[25 0.5]`, or for a ring that is not closed
    /// `IllegalArgumentException: Points of LinearRing do not form a closed linestring`), or nil when it is valid.
    /// Points, lines and their collections are valid as far as Cairn is concerned (nil without asking GEOS).
    /// Corresponding C functions: `GEOSGeomFromWKB_buf_r`, `GEOSisValid_r`, `GEOSisValidReason_r`.
    /// - Complexity: O(n log n) in the number of positions (GEOS's noding).
    public func problem(in shape: Shape) -> String? {
        guard shape.kind.isAreal else { return nil }
        let context = self.context
        do {
            return try context.withGeometry(wkb: shape.wkb) { geometry -> String? in
                // GEOSisValid_r returns 1 valid, 0 invalid, 2 on exception.
                let valid = context.geos.isValid(context.handle, geometry)
                if valid == 1 { return nil }
                // GEOSisValidReason_r returns a string the caller frees with GEOSFree_r, or NULL on exception.
                guard let reason = context.geos.isValidReason(context.handle, geometry) else {
                    return context.error(in: "GEOSisValidReason_r").message
                }
                defer { context.geos.free(context.handle, reason) }
                return String(cString: reason)
            }
        } catch {
            // A ring GEOS cannot even build (not closed, fewer than 4 positions): its message is the reason.
            return error.message
        }
    }

    /// `shape` repaired: its rings closed (the first position repeated where the last differs), then GEOS's
    /// make-valid with the structure method (shells made valid and merged, holes subtracted), parts that collapse
    /// to lines or points dropped, so a polygon stays polygonal.
    /// Corresponding C functions: `GEOSMakeValidWithParams_r`, `GEOSGeomToWKB_buf_r`.
    /// - Throws: `ShapeValidator.RepairError` when nothing with area is left or GEOS fails.
    /// - Complexity: O(n log n).
    public func repaired(_ shape: Shape) throws(RepairError) -> Shape {
        let closed = Self.closingRings(shape.parts)
        var parts = ShapeParts(kind: closed.kind)
        let context = self.context
        let wkb: [UInt8]
        do {
            // Closing the rings keeps every position, each already checked, so the shape is checked again cheaply.
            wkb = try Shape(checking: closed).wkb
        } catch {
            throw RepairError(reason: "\(error)")
        }
        let made: Result<[UInt8], GEOSError>
        do {
            made = try context.withGeometry(wkb: wkb) { geometry -> Result<[UInt8], GEOSError> in
                // GEOSMakeValidParams_create_r returns parameters the caller destroys, or NULL on exception.
                guard let parameters = context.geos.createMakeValidParameters(context.handle) else {
                    return .failure(context.error(in: "GEOSMakeValidParams_create_r"))
                }
                defer { context.geos.destroyMakeValidParameters(context.handle, parameters) }
                // Both setters return 1 on success, 0 on exception.
                guard context.geos.setMakeValidMethod(context.handle, parameters, GEOS_MAKE_VALID_STRUCTURE) == 1,
                      context.geos.setMakeValidKeepCollapsed(context.handle, parameters, 0) == 1 else {
                    return .failure(context.error(in: "GEOSMakeValidParams_setMethod_r"))
                }
                // GEOSMakeValidWithParams_r returns a new geometry the caller destroys, or NULL on exception.
                guard let valid = context.geos.makeValid(context.handle, geometry, parameters) else {
                    return .failure(context.error(in: "GEOSMakeValidWithParams_r"))
                }
                defer { context.geos.destroyGeometry(context.handle, valid) }
                var size = 0
                // GEOSGeomToWKB_buf_r returns a buffer the caller frees with GEOSFree_r, or NULL on exception;
                // 2D, in the machine's byte order (the reader takes either).
                guard let buffer = context.geos.geometryToWKB(context.handle, valid, &size) else {
                    return .failure(context.error(in: "GEOSGeomToWKB_buf_r"))
                }
                defer { context.geos.free(context.handle, buffer) }
                return .success(Array(UnsafeBufferPointer(start: buffer, count: size)))
            }
        } catch {
            throw RepairError(reason: error.message)
        }
        switch made {
        case .failure(let error): throw RepairError(reason: error.message)
        case .success(let bytes):
            do {
                parts = try ShapeParts(wkb: bytes)
                return try Shape(checking: parts)
            } catch ShapeError.empty {
                throw RepairError(reason: "nothing with area is left after repair")
            } catch {
                throw RepairError(reason: "GEOS's repair gave \(error)")
            }
        }
    }

    /// Why a shape could not be repaired.
    public struct RepairError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, in GEOS's words where GEOS said it.
        public let reason: String
        public var description: String { reason }
    }

    /// `parts` with every ring closed: the first position appended where the last differs.
    static func closingRings(_ parts: ShapeParts) -> ShapeParts {
        guard parts.kind.isAreal else { return parts }
        var closed = ShapeParts(kind: parts.kind)
        for polygon in parts.polygonEnds.indices {
            for ring in parts.ringRange(ofPolygon: polygon) {
                let range = parts.positionRange(ofRing: ring)
                for position in range {
                    closed.append(longitude: parts.positions[2 * position], latitude: parts.positions[2 * position + 1])
                }
                let first = range.lowerBound, last = range.upperBound - 1
                if parts.positions[2 * first] != parts.positions[2 * last] || parts.positions[2 * first + 1] != parts.positions[2 * last + 1] {
                    closed.append(longitude: parts.positions[2 * first], latitude: parts.positions[2 * first + 1])
                }
                closed.endRing()
            }
            closed.endPolygon()
        }
        return closed
    }
}
