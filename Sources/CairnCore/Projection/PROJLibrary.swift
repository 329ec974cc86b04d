/// PROJ's C functions that coordinate transforms use, looked up once in libproj opened at run time
/// (`SharedLibrary`): only runs that transform coordinates load PROJ and its dependencies.
///
/// Opaque PROJ objects (`PJ_CONTEXT *`, `PJ *`) are `OpaquePointer`s here and never leave the module.
struct PROJLibrary: @unchecked Sendable {
    // @unchecked: C function pointers looked up once and never changed; PROJ's functions are thread-safe as long as
    // each thread uses its own context (PROJContext).
    typealias ContextCreate = @convention(c) () -> OpaquePointer?
    typealias ContextDestroy = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias Create = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias CreateCRSToCRS = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, OpaquePointer?,
                                               UnsafePointer<UnsafePointer<CChar>?>?) -> OpaquePointer?
    typealias Normalize = @convention(c) (OpaquePointer?, OpaquePointer?) -> OpaquePointer?
    typealias Destroy = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias TransGeneric = @convention(c) (OpaquePointer?, Int32,
                                             UnsafeMutablePointer<Double>?, Int, Int,
                                             UnsafeMutablePointer<Double>?, Int, Int,
                                             UnsafeMutablePointer<Double>?, Int, Int,
                                             UnsafeMutablePointer<Double>?, Int, Int) -> Int
    typealias ContextErrno = @convention(c) (OpaquePointer?) -> Int32
    typealias ContextErrnoString = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    typealias IsCRS = @convention(c) (OpaquePointer?) -> Int32
    typealias GetString = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
    typealias GetIdString = @convention(c) (OpaquePointer?, Int32) -> UnsafePointer<CChar>?
    typealias LogFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void
    typealias SetLogFunction = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, LogFunction?) -> Void
    typealias ErrnoReset = @convention(c) (OpaquePointer?) -> Int32

    let contextCreate: ContextCreate
    let contextDestroy: ContextDestroy
    let create: Create
    let createCRSToCRS: CreateCRSToCRS
    let normalizeForVisualization: Normalize
    let destroy: Destroy
    let transGeneric: TransGeneric
    let contextErrno: ContextErrno
    let contextErrnoString: ContextErrnoString
    let isCRS: IsCRS
    let getName: GetString
    let getIdAuthName: GetIdString
    let getIdCode: GetIdString
    let setLogFunction: SetLogFunction
    let errnoReset: ErrnoReset

    /// PROJ 6 and later (the `proj.h` API with `proj_create_crs_to_crs_from_pj`), newest soname first.
    private static let libraryNames = (19...30).reversed().map { "libproj.so.\($0)" } + ["libproj.so", "libproj.dylib"]

    /// The library, or why it cannot be used (not installed, or too old for a function Cairn calls).
    static let shared: Result<PROJLibrary, CoordinateTransformError> = {
        guard let library = SharedLibrary(firstOf: libraryNames) else {
            return .failure(CoordinateTransformError(coordinateSystem: nil,
                message: "cannot open libproj (install PROJ: Debian's libproj25 and proj-data): \(SharedLibrary.loadError)"))
        }
        func symbol<T>(_ name: String, _ type: T.Type) throws(CoordinateTransformError) -> T {
            guard let function = library.function(name, as: type) else {
                throw CoordinateTransformError(coordinateSystem: nil, message: "libproj has no \(name) (PROJ 6.2 or later is needed)")
            }
            return function
        }
        do throws(CoordinateTransformError) {
            return .success(PROJLibrary(
                contextCreate: try symbol("proj_context_create", ContextCreate.self),
                contextDestroy: try symbol("proj_context_destroy", ContextDestroy.self),
                create: try symbol("proj_create", Create.self),
                createCRSToCRS: try symbol("proj_create_crs_to_crs_from_pj", CreateCRSToCRS.self),
                normalizeForVisualization: try symbol("proj_normalize_for_visualization", Normalize.self),
                destroy: try symbol("proj_destroy", Destroy.self),
                transGeneric: try symbol("proj_trans_generic", TransGeneric.self),
                contextErrno: try symbol("proj_context_errno", ContextErrno.self),
                contextErrnoString: try symbol("proj_context_errno_string", ContextErrnoString.self),
                isCRS: try symbol("proj_is_crs", IsCRS.self),
                getName: try symbol("proj_get_name", GetString.self),
                getIdAuthName: try symbol("proj_get_id_auth_name", GetIdString.self),
                getIdCode: try symbol("proj_get_id_code", GetIdString.self),
                setLogFunction: try symbol("proj_log_func", SetLogFunction.self),
                errnoReset: try symbol("proj_errno_reset", ErrnoReset.self)))
        } catch {
            return .failure(error)
        }
    }()
}
