#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File checks the store needs, behind one thin wrapper (swift-system has no `access`).
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

    /// Removes the file at `path`; a missing file is not an error.
    /// Corresponding C function: `unlink`.
    static func remove(_ path: String) {
        // unlink(2) returns 0, or -1 with errno (ENOENT for a missing file, which is what was wanted).
        _ = unlink(path)
    }
}
