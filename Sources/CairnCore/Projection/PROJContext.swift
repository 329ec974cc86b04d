/// One `PJ_CONTEXT`: PROJ's per-thread state (its database connection, error number and log), with PROJ's log
/// messages caught here instead of printed on stderr, so an error can carry the message (the error number alone
/// often says only "Unknown error").
///
/// Not `Sendable`: a context and the objects made in it are used by one thread at a time, as PROJ requires.
final class PROJContext {
    let library: PROJLibrary
    let handle: OpaquePointer
    /// The last error PROJ logged in this context.
    private(set) var lastLoggedMessage: String?

    /// A new context.
    /// - Throws: `CoordinateTransformError` when libproj cannot be opened or gives no context.
    /// - Complexity: one context creation (PROJ opens its database lazily, at the first lookup).
    init() throws(CoordinateTransformError) {
        library = try PROJLibrary.shared.get()
        // proj_context_create() returns NULL only when out of memory.
        guard let handle = library.contextCreate() else {
            throw CoordinateTransformError(coordinateSystem: nil, message: "proj_context_create failed")
        }
        self.handle = handle
        // proj_log_func(ctx, app_data, logf): returns nothing. app_data is this object, unretained: the context is
        // destroyed in deinit, before the object goes.
        library.setLogFunction(handle, Unmanaged.passUnretained(self).toOpaque()) { appData, level, message in
            guard let appData, let message, level == 1 else { return } // PJ_LOG_ERROR = 1
            Unmanaged<PROJContext>.fromOpaque(appData).takeUnretainedValue().lastLoggedMessage = String(cString: message)
        }
    }

    deinit { _ = library.contextDestroy(handle) }

    /// Forgets the last logged message (before a call whose failure is to be explained).
    func clearMessage() { lastLoggedMessage = nil }

    /// The reason of the last failure in this context: PROJ's logged message, else its error number's text.
    /// Corresponding C functions: `proj_context_errno`, `proj_context_errno_string`.
    func failureReason(fallback: String) -> String {
        if let lastLoggedMessage, !lastLoggedMessage.isEmpty { return lastLoggedMessage }
        let number = library.contextErrno(handle)
        if number != 0, let text = library.contextErrnoString(handle, number) { return String(cString: text) }
        return fallback
    }

    /// A PROJ object (a CRS) from its definition, which the caller must `destroy`.
    /// Corresponding C function: `proj_create`.
    func createCRS(_ definition: String) throws(CoordinateTransformError) -> OpaquePointer {
        clearMessage()
        // proj_create returns NULL on error (the reason in the context's errno and log).
        guard let object = definition.withCString({ library.create(handle, $0) }) else {
            throw CoordinateTransformError(coordinateSystem: definition, message: failureReason(fallback: "PROJ does not know it"))
        }
        // proj_is_crs returns 1 for a CRS, 0 for anything else (an operation such as "+proj=merc" without +type=crs).
        guard library.isCRS(object) == 1 else {
            _ = library.destroy(object)
            throw CoordinateTransformError(coordinateSystem: definition,
                message: "not a coordinate reference system (a PROJ string needs +type=crs; or use EPSG:n)")
        }
        return object
    }
}
