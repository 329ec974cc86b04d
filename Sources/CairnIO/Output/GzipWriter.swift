import CZlib
import SystemPackage

/// A gzip stream (RFC 1952) made by zlib's `deflate` (CZlib): written to a file descriptor for `OutputFile`
/// (`--out x.gz`, the check-ins' `CheckInOutputFile`), or kept in memory for the server's compressed answers.
///
/// One writer for both, so that a file and an answer are compressed alike: the file's settings are those of zlib's
/// `gzdopen(fd, "wb")` (level 6, 32 KiB window, memory level 8), which this writer replaced, and give the same bytes.
/// The descriptor stays owned by the caller. Public for `compressed(_:level:)` alone, which the server's package
/// (Server/) calls; writing to files stays within this package.
public final class GzipWriter {
    /// Where the compressed bytes go.
    private enum Destination {
        case file(FileDescriptor)
        case memory
    }

    private let destination: Destination
    private let stream: UnsafeMutablePointer<z_stream>
    /// The compressed bytes not yet written (a file), or all of them (memory).
    private var output: [UInt8] = []
    private var finished = false
    /// Bytes of compressed output gathered before a write to the file (gzwrite's own buffer size was 8 KiB; larger
    /// costs nothing and makes fewer system calls).
    private static let fileChunkBytes = 64 << 10

    /// Starts a gzip stream written to `descriptor` at zlib's default level; nil when zlib cannot (out of memory).
    /// - Complexity: O(1).
    package convenience init?(descriptor: FileDescriptor) {
        self.init(destination: .file(descriptor), level: Z_DEFAULT_COMPRESSION)
    }

    /// Starts a gzip stream kept in memory (`finishedBytes()`), at compression `level` (1 fastest to 9 smallest);
    /// nil when zlib cannot (out of memory, a level out of range).
    /// - Complexity: O(1).
    package convenience init?(level: Int) {
        self.init(destination: .memory, level: Int32(clamping: level))
    }

    private init?(destination: Destination, level: Int32) {
        self.destination = destination
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // deflateInit2_ returns Z_OK, else Z_MEM_ERROR, Z_STREAM_ERROR (a bad parameter) or Z_VERSION_ERROR. Window
        // bits 15 + 16 ask for the gzip wrapper (header with mtime 0, CRC-32 and size trailer); memory level 8 is
        // zlib's default.
        guard deflateInit2_(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
                            Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        // deflateEnd frees zlib's state whether or not the stream was finished.
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Compresses `bytes` into one gzip stream in memory, at compression `level`: the whole gzip file.
    /// - Returns: nil when zlib cannot start a stream (out of memory).
    /// - Complexity: O(n).
    public static func compressed(_ bytes: UnsafeRawBufferPointer, level: Int) -> [UInt8]? {
        guard let writer = GzipWriter(level: level) else { return nil }
        // A memory destination has no write to fail: only the file's system calls throw.
        guard (try? writer.write(bytes, path: "")) != nil, (try? writer.finish(path: "")) != nil else { return nil }
        return writer.output
    }

    /// Compresses and writes `bytes` (for a file, in chunks as the compressed bytes gather).
    /// - Throws: `InputError` naming `path` when a write to the file fails.
    /// - Complexity: O(n).
    package func write(_ bytes: UnsafeRawBufferPointer, path: String) throws(InputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let chunk = min(bytes.count - offset, Int(UInt32.max))
            stream.pointee.next_in = UnsafeMutablePointer(mutating: (base + offset).assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = UInt32(chunk)
            try deflateAll(flush: Z_NO_FLUSH, path: path)
            offset += chunk
        }
    }

    /// Writes the end of the deflate stream and the gzip trailer; for a file, writes what is left (the caller
    /// closes the descriptor).
    /// - Throws: `InputError` when the last bytes cannot be written.
    /// - Complexity: O(1) beyond zlib's buffered bytes.
    package func finish(path: String) throws(InputError) {
        guard !finished else { return }
        finished = true
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try deflateAll(flush: Z_FINISH, path: path)
        try drain(path: path, all: true)
    }

    /// Runs deflate until it has taken all its input (`Z_NO_FLUSH`) or ended the stream (`Z_FINISH`), growing the
    /// output as it fills.
    private func deflateAll(flush: Int32, path: String) throws(InputError) {
        while true {
            let room = max(16 << 10, Int(deflateBound(stream, uLong(stream.pointee.avail_in))) / 4)
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: room))
            let status = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress.map { $0 + start }
                stream.pointee.avail_out = UInt32(room)
                // deflate returns Z_OK on progress, Z_STREAM_END when Z_FINISH completed, Z_BUF_ERROR when it could
                // make no progress (no input, no flush), Z_STREAM_ERROR for a corrupt state.
                return deflate(stream, flush)
            }
            output.removeLast(Int(stream.pointee.avail_out))
            stream.pointee.next_out = nil
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw InputError(file: path, message: "cannot write: zlib could not compress (deflate \(status))")
            }
            try drain(path: path, all: false)
            if flush == Z_FINISH ? status == Z_STREAM_END : stream.pointee.avail_in == 0 { return }
        }
    }

    /// For a file, writes the gathered output once there is a chunk of it (or all of it).
    private func drain(path: String, all: Bool) throws(InputError) {
        guard case .file(let descriptor) = destination, !output.isEmpty, all || output.count >= Self.fileChunkBytes else { return }
        do {
            _ = try output.withUnsafeBytes { try descriptor.writeAll($0) }
        } catch {
            throw InputError(file: path, message: "cannot write: \(error)")
        }
        output.removeAll(keepingCapacity: true)
    }
}
