import CZlib
import SystemPackage

/// Reads a file's bytes in chunks, decompressing gzip transparently (zlib's `gzread` passes plain files through).
///
/// The path `-` means standard input (plain or gzip as well). The file is opened with swift-system's
/// `FileDescriptor`; zlib reads from a duplicate of it. Memory is one chunk, whatever the file size. Not
/// thread-safe: one reader per source.
public final class ByteSource {
    /// The path naming standard input.
    public static let standardInputPath = "-"

    /// The path as given by the user.
    public let path: String
    /// The file's size on disk in bytes (compressed size for `.gz`), for progress; 0 for standard input.
    public let fileSizeBytes: Int64
    private let handle: gzFile

    /// Opens a file for reading, or standard input for `-`.
    /// - Throws: `InputError` when the file cannot be opened (with the system's reason) or is a directory.
    /// - Complexity: O(1).
    public init(path: String) throws(InputError) {
        self.path = path
        let descriptor: FileDescriptor
        do {
            if path == Self.standardInputPath {
                descriptor = try FileDescriptor.standardInput.duplicate()
            } else {
                descriptor = try FileDescriptor.open(FilePath(path), .readOnly)
            }
        } catch {
            throw InputError(file: path, message: "cannot open: \(error)")
        }
        do {
            let status = try descriptor.stat()
            guard status.type != .directory else {
                try? descriptor.close()
                throw InputError(file: path, message: "is a directory, expected a file")
            }
            fileSizeBytes = status.type == .regular && path != Self.standardInputPath ? status.size : 0
        } catch let error as InputError {
            throw error
        } catch {
            try? descriptor.close()
            throw InputError(file: path, message: "cannot open: \(error)")
        }
        // gzdopen takes over the descriptor (gzclose_r closes it); it returns NULL on failure, leaving it open.
        guard let handle = gzdopen(descriptor.rawValue, "rb") else {
            try? descriptor.close()
            throw InputError(file: path, message: "cannot open: zlib could not start reading")
        }
        gzbuffer(handle, 1 << 17)
        self.handle = handle
    }

    deinit { gzclose_r(handle) }

    /// Reads up to `buffer.count` bytes; returns 0 at the end of the file.
    /// - Throws: `InputError` for a read error or a corrupt or truncated gzip stream.
    /// - Complexity: O(n) in the bytes read.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(InputError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        // gzread returns the number of bytes read, 0 at end of file, -1 on error (message from gzerror).
        let count = gzread(handle, base, UInt32(min(buffer.count, Int(Int32.max))))
        if count < 0 {
            var code: Int32 = 0
            let message = gzerror(handle, &code).map { String(cString: $0) } ?? "read error"
            throw InputError(file: path, message: "cannot read (\(message)); is the file truncated or corrupt?")
        }
        if count == 0 {
            // At the end, gzerror reports Z_BUF_ERROR when a gzip stream stopped before its trailer (a truncated file).
            var code: Int32 = 0
            let message = gzerror(handle, &code).map { String(cString: $0) } ?? ""
            if code == Z_BUF_ERROR {
                throw InputError(file: path, message: "the gzip stream ends early (\(message)); the file is truncated")
            }
        }
        return Int(count)
    }

    /// How far reading has got in the file on disk, in bytes (compressed bytes for `.gz`), for progress bars.
    /// - Complexity: O(1).
    public var bytesConsumed: Int64 { Int64(gzoffset(handle)) }
}
