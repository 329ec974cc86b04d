import CairnCore
import CGEOS

/// GEOS's C functions that CairnGEOS calls, looked up once in libgeos_c opened at run time (`SharedLibrary`): only
/// runs that validate polygons or bench GEOS load GEOS and the C++ runtime it brings; linking it made every one-off
/// query pay its symbol bindings at start.
///
/// The pointer types come from `geos_c.h` through the shim's `__typeof__` typedefs, so they cannot drift from the
/// header. Opaque GEOS objects stay `OpaquePointer`s inside this module.
struct GEOSLibrary: @unchecked Sendable {
    // @unchecked: C function pointers looked up once and never changed; GEOS's reentrant (`_r`) functions are
    // thread-safe as long as each thread uses its own context (GEOSContext).
    let version: CairnGEOSversion
    let initialize: CairnGEOS_init_r
    let finish: CairnGEOS_finish_r
    let setErrorMessageHandler: CairnGEOSContext_setErrorMessageHandler_r
    let free: CairnGEOSFree_r
    let createRectangle: CairnGEOSGeom_createRectangle_r
    let createPoint: CairnGEOSGeom_createPointFromXY_r
    let destroyGeometry: CairnGEOSGeom_destroy_r
    let geometryFromWKB: CairnGEOSGeomFromWKB_buf_r
    let geometryToWKB: CairnGEOSGeomToWKB_buf_r
    let createTree: CairnGEOSSTRtree_create_r
    let destroyTree: CairnGEOSSTRtree_destroy_r
    let insertIntoTree: CairnGEOSSTRtree_insert_r
    let queryTree: CairnGEOSSTRtree_query_r
    let isValid: CairnGEOSisValid_r
    let isValidReason: CairnGEOSisValidReason_r
    let createMakeValidParameters: CairnGEOSMakeValidParams_create_r
    let destroyMakeValidParameters: CairnGEOSMakeValidParams_destroy_r
    let setMakeValidMethod: CairnGEOSMakeValidParams_setMethod_r
    let setMakeValidKeepCollapsed: CairnGEOSMakeValidParams_setKeepCollapsed_r
    let makeValid: CairnGEOSMakeValidWithParams_r
    let prepare: CairnGEOSPrepare_r
    let destroyPrepared: CairnGEOSPreparedGeom_destroy_r
    let preparedCovers: CairnGEOSPreparedCovers_r

    /// The C API's stable soname first (Debian's libgeos-c1v5), then the development link and macOS's name.
    static let libraryNames = ["libgeos_c.so.1", "libgeos_c.so", "libgeos_c.dylib"]

    /// The library, or why it cannot be used (not installed, or older than GEOS 3.10, which the make-valid
    /// parameters need).
    static let shared: Result<GEOSLibrary, GEOSError> = load(firstOf: libraryNames)

    /// Opens the first of `names` that loads and looks up every function.
    /// - Returns: the table, or a `GEOSError` naming the library or the missing function and the package to install.
    /// - Complexity: the cost of loading the library once, plus one lookup per function.
    static func load(firstOf names: [String]) -> Result<GEOSLibrary, GEOSError> {
        guard let library = SharedLibrary(firstOf: names) else {
            return .failure(GEOSError(function: "dlopen",
                message: "cannot open \(names.joined(separator: ", ")) (install GEOS: apt install libgeos-c1v5): \(SharedLibrary.loadError)"))
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws(GEOSError) -> T {
            guard let function = library.function(name, as: type) else {
                throw GEOSError(function: name,
                    message: "the GEOS library opened has no \(name) (GEOS 3.10 or later is needed: apt install libgeos-c1v5)")
            }
            return function
        }
        do throws(GEOSError) {
            return .success(GEOSLibrary(
                version: try symbol("GEOSversion", CairnGEOSversion.self),
                initialize: try symbol("GEOS_init_r", CairnGEOS_init_r.self),
                finish: try symbol("GEOS_finish_r", CairnGEOS_finish_r.self),
                setErrorMessageHandler: try symbol("GEOSContext_setErrorMessageHandler_r", CairnGEOSContext_setErrorMessageHandler_r.self),
                free: try symbol("GEOSFree_r", CairnGEOSFree_r.self),
                createRectangle: try symbol("GEOSGeom_createRectangle_r", CairnGEOSGeom_createRectangle_r.self),
                createPoint: try symbol("GEOSGeom_createPointFromXY_r", CairnGEOSGeom_createPointFromXY_r.self),
                destroyGeometry: try symbol("GEOSGeom_destroy_r", CairnGEOSGeom_destroy_r.self),
                geometryFromWKB: try symbol("GEOSGeomFromWKB_buf_r", CairnGEOSGeomFromWKB_buf_r.self),
                geometryToWKB: try symbol("GEOSGeomToWKB_buf_r", CairnGEOSGeomToWKB_buf_r.self),
                createTree: try symbol("GEOSSTRtree_create_r", CairnGEOSSTRtree_create_r.self),
                destroyTree: try symbol("GEOSSTRtree_destroy_r", CairnGEOSSTRtree_destroy_r.self),
                insertIntoTree: try symbol("GEOSSTRtree_insert_r", CairnGEOSSTRtree_insert_r.self),
                queryTree: try symbol("GEOSSTRtree_query_r", CairnGEOSSTRtree_query_r.self),
                isValid: try symbol("GEOSisValid_r", CairnGEOSisValid_r.self),
                isValidReason: try symbol("GEOSisValidReason_r", CairnGEOSisValidReason_r.self),
                createMakeValidParameters: try symbol("GEOSMakeValidParams_create_r", CairnGEOSMakeValidParams_create_r.self),
                destroyMakeValidParameters: try symbol("GEOSMakeValidParams_destroy_r", CairnGEOSMakeValidParams_destroy_r.self),
                setMakeValidMethod: try symbol("GEOSMakeValidParams_setMethod_r", CairnGEOSMakeValidParams_setMethod_r.self),
                setMakeValidKeepCollapsed: try symbol("GEOSMakeValidParams_setKeepCollapsed_r", CairnGEOSMakeValidParams_setKeepCollapsed_r.self),
                makeValid: try symbol("GEOSMakeValidWithParams_r", CairnGEOSMakeValidWithParams_r.self),
                prepare: try symbol("GEOSPrepare_r", CairnGEOSPrepare_r.self),
                destroyPrepared: try symbol("GEOSPreparedGeom_destroy_r", CairnGEOSPreparedGeom_destroy_r.self),
                preparedCovers: try symbol("GEOSPreparedCovers_r", CairnGEOSPreparedCovers_r.self)))
        } catch {
            return .failure(error)
        }
    }
}
