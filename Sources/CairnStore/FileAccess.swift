#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File permission checks the store needs, behind one thin wrapper (swift-system has no `access`).
enum FileAccess {
    /// Whether the calling process may write `path`.
    /// Corresponding C function: `access`.
    static func isWritable(_ path: String) -> Bool {
        // access(2) returns 0 when the calling process has the permission, -1 with errno otherwise.
        access(path, W_OK) == 0
    }

    /// Whether something exists at `path`.
    /// Corresponding C function: `access`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }
}
