import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically: a temporary file next to the target, `fsync`, then `rename`. The file is opened and
/// written through swift-system's `FileDescriptor`; `fsync`, `rename` and `unlink`, which it does not wrap, through
/// the C library.
enum SnapshotFileWriter {
    /// Writes `bytes` to `path` so that readers see either the previous file or the whole new one (a reader that
    /// has the previous file mapped keeps reading it: a rename never changes the bytes of a mapped file).
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
        func failure(_ operation: String, _ error: any Error) -> SnapshotError {
            SnapshotError(path: path, reason: .io(operation: operation, message: "\(error)"))
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor: FileDescriptor
        do {
            // exclusiveCreate (O_EXCL) refuses an existing file.
            descriptor = try FileDescriptor.open(temporary, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw failure("create a temporary file to write", error)
        }
        do {
            try descriptor.closeAfter {
                _ = try descriptor.writeAll(bytes)
                // fsync(2) returns 0 on success, -1 with errno.
                guard fsync(descriptor.rawValue) == 0 else { throw Errno(rawValue: errno) }
            }
        } catch {
            unlink(temporary)
            throw failure("write", error)
        }
        // rename(2) replaces `path` atomically within one file system; 0 on success, -1 with errno.
        guard rename(temporary, path) == 0 else {
            let renameError = failure("rename the temporary file to write", Errno(rawValue: errno))
            unlink(temporary)
            throw renameError
        }
    }
}
