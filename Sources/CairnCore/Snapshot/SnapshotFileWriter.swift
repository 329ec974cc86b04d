#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file atomically with POSIX calls: a temporary file next to the target, `fsync`, then `rename`.
enum SnapshotFileWriter {
    /// Writes `bytes` to `path` so that readers see either the previous file or the whole new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
        func failure(_ operation: String) -> SnapshotError {
            SnapshotError(path: path, reason: .io(operation: operation, message: String(cString: strerror(errno))))
        }
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        // open(2) returns -1 with errno; O_EXCL refuses an existing file.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("create a temporary file to write") }
        var written = 0
        var ok = bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            while written < raw.count {
                // write(2) returns the bytes written or -1 with errno (EINTR: try again).
                let n = write(fd, base + written, raw.count - written)
                if n > 0 { written += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
        // fsync(2) and close(2) return 0 on success, -1 with errno.
        if ok { ok = fsync(fd) == 0 }
        let error = failure("write")
        if close(fd) != 0 { ok = false }
        guard ok else {
            unlink(temporary)
            throw error
        }
        // rename(2) replaces `path` atomically within one file system; 0 on success, -1 with errno.
        guard rename(temporary, path) == 0 else {
            let renameError = failure("rename the temporary file to write")
            unlink(temporary)
            throw renameError
        }
    }
}
