import CZlib
import SystemPackage

/// A gzip stream written to a file descriptor through zlib's `gzdopen`/`gzwrite` (CZlib), for `OutputSink` and the
/// check-ins' `CheckInOutputFile`.
///
/// The descriptor stays owned by the caller: zlib works on a duplicate, which `finish` closes.
package final class GzipWriter {
    private let handle: gzFile
    private var finished = false

    /// Starts a gzip stream on a duplicate of `descriptor`; nil when zlib cannot (out of memory, bad descriptor).
    /// - Complexity: O(1).
    package init?(descriptor: FileDescriptor) {
        guard let copy = try? descriptor.duplicate() else { return nil }
        // gzdopen returns NULL on failure; it then leaves the descriptor open.
        guard let handle = gzdopen(copy.rawValue, "wb") else {
            try? copy.close()
            return nil
        }
        self.handle = handle
    }

    deinit {
        if !finished { gzclose_w(handle) }
    }

    /// Compresses and writes `bytes`.
    /// - Throws: `InputError` with zlib's message.
    /// - Complexity: O(n).
    package func write(_ bytes: UnsafeRawBufferPointer, path: String) throws(InputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Int(Int32.max))
            // gzwrite returns the uncompressed bytes written, 0 on error (message from gzerror).
            let written = gzwrite(handle, base + offset, UInt32(chunk))
            guard written > 0 else { throw InputError(file: path, message: "cannot write: \(message())") }
            offset += Int(written)
        }
    }

    /// Writes the gzip trailer and closes zlib's descriptor.
    /// - Throws: `InputError` when the last bytes cannot be written.
    /// - Complexity: O(1) beyond zlib's buffered bytes.
    package func finish(path: String) throws(InputError) {
        guard !finished else { return }
        finished = true
        // gzclose_w returns Z_OK on success, Z_ERRNO on a file error, Z_BUF_ERROR/Z_STREAM_ERROR otherwise.
        let status = gzclose_w(handle)
        guard status == Z_OK else { throw InputError(file: path, message: "cannot write: the gzip stream could not be finished (zlib \(status))") }
    }

    private func message() -> String {
        var code: Int32 = 0
        return gzerror(handle, &code).map { String(cString: $0) } ?? "zlib error"
    }
}
