/// Coordinates from one coordinate reference system into another, through PROJ, in batches.
///
/// Any definition PROJ accepts names a system: `EPSG:3067`, `urn:ogc:def:crs:EPSG::2263`, a PROJ string with
/// `+type=crs`, WKT. Axis order is normalised for display (`proj_normalize_for_visualization`), so x is the
/// longitude or easting and y the latitude or northing on both sides, as GeoJSON writes positions, whatever
/// order the system's definition gives (EPSG:4326 itself is latitude first).
///
/// PROJ is opened when the first transform is made (`SharedLibrary`). Each transform owns its PROJ context
/// (`PJ_CONTEXT`); the type is not `Sendable`, so a context is only ever used by the thread that holds the
/// transform: a thread that needs one makes its own.
public final class CoordinateTransform {
    /// The WGS84 longitude/latitude system Cairn stores coordinates in.
    public static let wgs84 = "EPSG:4326"

    /// The source system as given.
    public let source: String
    /// The target system as given.
    public let target: String
    /// The target system's identifier as an OGC URN (`urn:ogc:def:crs:EPSG::3857`) when PROJ knows its
    /// authority and code, else its name: what a GeoJSON `crs` member names.
    public let targetName: String

    private let context: PROJContext
    private let operation: OpaquePointer

    /// A transform from `source` to `target`.
    /// - Throws: `CoordinateTransformError` naming the system PROJ does not know (or PROJ's reason when no
    ///   operation links the two), or saying that libproj cannot be opened.
    /// - Complexity: PROJ's lookups in its database (milliseconds), once.
    /// Corresponding C functions: `proj_create`, `proj_create_crs_to_crs_from_pj`, `proj_normalize_for_visualization`.
    public init(from source: String, to target: String) throws(CoordinateTransformError) {
        let context = try PROJContext()
        let library = context.library
        let sourceCRS = try context.createCRS(source)
        defer { _ = library.destroy(sourceCRS) }
        let targetCRS = try context.createCRS(target)
        defer { _ = library.destroy(targetCRS) }
        context.clearMessage()
        // Both return NULL on error, the reason in the context.
        guard let raw = library.createCRSToCRS(context.handle, sourceCRS, targetCRS, nil, nil) else {
            throw CoordinateTransformError(coordinateSystem: source,
                message: "no transformation to \(target): " + context.failureReason(fallback: "PROJ found none"))
        }
        defer { _ = library.destroy(raw) }
        guard let normalized = library.normalizeForVisualization(context.handle, raw) else {
            throw CoordinateTransformError(coordinateSystem: source,
                message: "cannot put the axes in x/y order: " + context.failureReason(fallback: "PROJ refused"))
        }
        self.source = source
        self.target = target
        self.targetName = Self.name(of: targetCRS, library: library) ?? target
        self.context = context
        self.operation = normalized
    }

    /// A transform from `source` into WGS84 longitude/latitude degrees.
    /// - Throws: `CoordinateTransformError` (see `init(from:to:)`).
    /// - Complexity: see `init(from:to:)`.
    public static func toWGS84(from source: String) throws(CoordinateTransformError) -> CoordinateTransform {
        try CoordinateTransform(from: source, to: wgs84)
    }

    /// A transform from WGS84 longitude/latitude degrees into `target`.
    /// - Throws: `CoordinateTransformError` (see `init(from:to:)`).
    /// - Complexity: see `init(from:to:)`.
    public static func fromWGS84(to target: String) throws(CoordinateTransformError) -> CoordinateTransform {
        try CoordinateTransform(from: wgs84, to: target)
    }

    deinit { _ = context.library.destroy(operation) }

    /// Transforms the positions (`x[i]`, `y[i]`) in place, in one PROJ call; `x` and `y` must have the same count.
    /// A position PROJ cannot transform (outside the system's domain) comes back as infinity in both.
    /// - Complexity: O(n), one call into PROJ for the whole batch.
    /// Corresponding C function: `proj_trans_generic`.
    public func transform(x: inout [Double], y: inout [Double]) {
        precondition(x.count == y.count, "x and y must have one value per position")
        let count = x.count
        guard count > 0 else { return }
        _ = context.library.errnoReset(operation)
        x.withUnsafeMutableBufferPointer { xs in
            y.withUnsafeMutableBufferPointer { ys in
                // proj_trans_generic returns how many positions it transformed; one it cannot becomes HUGE_VAL.
                _ = context.library.transGeneric(operation, 1 /* PJ_FWD */,
                                                 xs.baseAddress, MemoryLayout<Double>.stride, count,
                                                 ys.baseAddress, MemoryLayout<Double>.stride, count,
                                                 nil, 0, 0, nil, 0, 0)
            }
        }
        for index in 0..<count where !x[index].isFinite || !y[index].isFinite {
            x[index] = .infinity
            y[index] = .infinity
        }
    }

    /// Whether a position cannot be longitude/latitude degrees: both ordinates beyond the degree ranges, as
    /// projected metres or feet almost always are (Helsinki in EPSG:3067 is x 385000, y 6672000). One ordinate
    /// out of range is an ordinary bad row (a typed latitude of 95), not a sign of another system.
    /// - Complexity: O(1).
    public static func cannotBeDegrees(x: Double, y: Double) -> Bool {
        x.isFinite && y.isFinite && abs(x) > 180 && abs(y) > 90
    }

    /// Whether `definition` names WGS84 longitude/latitude itself, as GeoJSON's legacy `crs` member often does:
    /// positions need no transform (GeoJSON's order is longitude first whatever the name's axis order).
    /// - Complexity: O(n) in the definition's length.
    public static func namesWGS84Degrees(_ definition: String) -> Bool {
        let upper = definition.uppercased()
        return ["EPSG:4326", "URN:OGC:DEF:CRS:EPSG::4326", "URN:OGC:DEF:CRS:OGC:1.3:CRS84", "URN:OGC:DEF:CRS:OGC::CRS84",
                "OGC:CRS84", "CRS84", "WGS84"].contains(upper)
    }

    /// The system's `urn:ogc:def:crs:AUTHORITY::CODE`, or its name, or nil.
    private static func name(of crs: OpaquePointer, library: PROJLibrary) -> String? {
        // proj_get_id_auth_name/proj_get_id_code return NULL when the object has no identifier at that index.
        if let authority = library.getIdAuthName(crs, 0), let code = library.getIdCode(crs, 0) {
            return "urn:ogc:def:crs:\(String(cString: authority))::\(String(cString: code))"
        }
        return library.getName(crs).map { String(cString: $0) }
    }
}
