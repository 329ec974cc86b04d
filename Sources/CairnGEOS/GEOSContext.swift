import CGEOS

/// A GEOS context: the handle every reentrant (`_r`) call takes, with a message handler that keeps GEOS's
/// last error message so that failures become a `GEOSError` carrying it. Finished when the value goes away.
///
/// A context is not `Sendable`: GEOS allows one thread at a time per context, so make one per thread or per
/// operation (they are cheap: a few hundred bytes).
public final class GEOSContext {
    /// The C handle; only this module's thin wrappers use it.
    let handle: OpaquePointer
    /// GEOS's functions, copied from `GEOSLibrary.shared` so that a call is one load from the context.
    let geos: GEOSLibrary
    /// The message of the last error GEOS reported and nobody took yet. Every wrapper takes what its call left
    /// (`error(in:)`), so it is nil between calls. Unchecked exclusivity: it is read once per tree insert or
    /// query, and only GEOS's handler, inside a C call and never during a Swift access, writes it.
    @exclusivity(unchecked) private var pendingMessage: String?

    /// The GEOS library's version: `3.11.1-CAPI-1.17.1`, or `unavailable (<why>)` when libgeos_c cannot be opened.
    /// Corresponding C function: `GEOSversion`.
    /// - Complexity: O(1) once the library is open.
    public static var version: String {
        switch GEOSLibrary.shared {
        // GEOSversion returns a static string (never NULL; the fallback only spares an unwrap).
        case .success(let geos): geos.version().map { String(cString: $0) } ?? "unknown"
        case .failure(let error): "unavailable (\(error))"
        }
    }

    /// Starts a context.
    /// Corresponding C function: `GEOS_init_r`.
    /// - Throws: `GEOSError` when libgeos_c cannot be opened (or lacks a function), or GEOS returns no handle
    ///   (out of memory).
    /// - Complexity: O(1) (the first context of a process also opens libgeos_c).
    public init() throws(GEOSError) {
        let geos = try GEOSLibrary.shared.get()
        self.geos = geos
        // GEOS_init_r returns a new context handle, or NULL when out of memory.
        guard let handle = geos.initialize() else {
            throw GEOSError(function: "GEOS_init_r", message: "GEOS could not start a context (out of memory)")
        }
        self.handle = handle
        // The handler receives a formatted message and the userdata given here: this object, unretained, since
        // the context is finished in deinit, before the object goes away. The previous handler it returns is none.
        _ = geos.setErrorMessageHandler(handle, { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue().pendingMessage = String(cString: message)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        // GEOS_finish_r frees the context; geometries and trees made with it must be gone (they hold the context).
        geos.finish(handle)
    }

    /// Whether GEOS reported an error that no wrapper took yet: checked after a C function that reports failure
    /// only through the handler (a `void` function).
    /// - Complexity: O(1).
    @inline(__always)
    var hasError: Bool { pendingMessage != nil }

    /// The error GEOS reported for `function`, taking its message (or saying that GEOS gave none).
    /// - Complexity: O(message length).
    func error(in function: String) -> GEOSError {
        defer { pendingMessage = nil }
        return GEOSError(function: function, message: pendingMessage ?? "GEOS failed without a message")
    }
}
