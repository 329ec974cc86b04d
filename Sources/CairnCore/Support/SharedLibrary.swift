#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library opened when first needed (`dlopen`) instead of when the process starts.
///
/// Linking a library makes every run pay for loading it and its dependencies before `main`; for PROJ that is about
/// 9 ms (libcurl, GnuTLS, Kerberos, libtiff come with it), more than a one-off box query costs in all. A library
/// opened here is paid for only by the runs that call it.
package struct SharedLibrary: @unchecked Sendable {
    // @unchecked: the handle is never closed and dlsym may be called from any thread.
    private let handle: UnsafeMutableRawPointer

    /// Opens the first of `names` (file names the dynamic loader searches for) that loads.
    /// - Returns: nil when none loads; `loadError` then holds the loader's last message.
    /// - Complexity: the cost of loading the library once.
    package init?(firstOf names: [String]) {
        // dlopen(3) returns a handle, or NULL with the reason in dlerror().
        guard let handle = names.lazy.compactMap({ dlopen($0, RTLD_NOW | RTLD_LOCAL) }).first else { return nil }
        self.handle = handle
    }

    /// The last message of the dynamic loader (why `init(firstOf:)` failed).
    package static var loadError: String {
        dlerror().map { String(cString: $0) } ?? "no message from the dynamic loader"
    }

    /// The function `name` as a C function pointer of type `T`, or nil when the library has no such symbol.
    /// Corresponding C function: `dlsym`.
    /// - Complexity: one symbol lookup.
    package func function<T>(_ name: String, as type: T.Type) -> T? {
        guard let address = dlsym(handle, name) else { return nil }
        return unsafeBitCast(address, to: type)
    }
}
