import CairnIO
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Where the verdict rows go: a file or standard output, written straight from the rendered batches (no
/// intermediate buffer) through swift-system's `FileDescriptor`.
///
/// A file is written under a temporary name beside it and renamed into place by `commit()`, once the run has
/// completed: a run that fails (a missing input, a bad header, a full disk) leaves an existing file untouched,
/// and the output may even name an input. A name ending in `.gz` (any case) is written gzip-compressed, as
/// `OutputSink` writes the other commands' `--out`.
public final class CheckInOutputFile {
    private let descriptor: FileDescriptor
    private let name: String
    /// The temporary file being written, and the path it becomes; nil for standard output.
    private let paths: (temporary: String, final: String)?
    private var committed = false
    /// zlib's stream for a `.gz` name, nil for plain output (which is written straight to the descriptor).
    private let gzip: GzipWriter?

    /// Opens a temporary file beside `path` (a device or a pipe such as `/dev/stdout` in place: there is nothing
    /// to keep or rename), or standard output when nil or `-`.
    /// - Throws: `CheckInError` when the file cannot be opened for writing.
    /// - Complexity: O(1).
    public init(path: String?) throws(CheckInError) {
        guard let path, path != "-" else {
            descriptor = .standardOutput
            name = "standard output"
            paths = nil
            gzip = nil
            return
        }
        let inPlace = if let info = try? Stat(FilePath(path)) { info.type != .regular } else { false }
        paths = inPlace ? nil : (path + ".partial-\(getpid())", path)
        do {
            descriptor = if let paths {
                try FileDescriptor.open(FilePath(paths.temporary), .writeOnly, options: [.create, .truncate],
                                        permissions: FilePermissions(rawValue: 0o644))
            } else {
                try FileDescriptor.open(FilePath(path), .writeOnly)
            }
        } catch {
            throw CheckInError("\(path): cannot write: \(error)")
        }
        if path.lowercased().hasSuffix(".gz") {
            guard let writer = GzipWriter(descriptor: descriptor) else {
                try? descriptor.close()
                if let paths { unlink(paths.temporary) }
                throw CheckInError("\(path): cannot write: zlib could not start a gzip stream")
            }
            gzip = writer
        } else {
            gzip = nil
        }
        name = path
    }

    /// Ends a gzip stream, closes the file and renames it into place (a device keeps its place; nothing to do for
    /// standard output).
    /// - Throws: `CheckInError` when the file cannot be closed or renamed (the temporary file is removed).
    /// - Complexity: O(1).
    public func commit() throws(CheckInError) {
        guard !committed else { return }
        guard let paths else {
            // A device or a pipe in place: only a gzip stream has a trailer to write.
            do throws(InputError) { try gzip?.finish(path: name) } catch { throw CheckInError(error.description) }
            return
        }
        committed = true
        do {
            try gzip?.finish(path: name)
            try descriptor.close()
            // rename returns 0, or -1 with errno (swift-system has no rename).
            guard rename(paths.temporary, paths.final) == 0 else { throw Errno(rawValue: errno) }
        } catch let error as InputError {
            unlink(paths.temporary)
            throw CheckInError(error.description)
        } catch {
            unlink(paths.temporary)
            throw CheckInError("\(name): cannot write: \(error)")
        }
    }

    deinit {
        if committed { return } // closed and renamed
        if descriptor.rawValue > 2 { try? descriptor.close() }
        // Not committed: the run failed; the temporary file goes and any file at the final path stays as it was.
        if let paths { unlink(paths.temporary) }
    }

    /// Writes all of `bytes` (retrying interrupted and partial writes).
    /// - Throws: `CheckInError` when a write fails (a full disk, a closed pipe).
    /// - Complexity: O(n) in the bytes written.
    public func write(_ bytes: [UInt8]) throws(CheckInError) {
        if let gzip {
            let path = name
            let failure = bytes.withUnsafeBytes { buffer -> InputError? in
                do throws(InputError) { try gzip.write(buffer, path: path) } catch { return error }
                return nil
            }
            if let failure { throw CheckInError(failure.description) }
            return
        }
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw CheckInError("\(name): cannot write: \(error)")
        }
    }
}
