import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output file written under a temporary name in its own folder and renamed over its path by `commit()`, so
/// that a run that fails or is stopped leaves the file that was there untouched and never a half-written one.
/// Shared by `OutputSink` and the check-ins' `CheckInOutputFile`.
///
/// A name ending in `.gz` (any case) is written gzip-compressed. A path that is a device, a pipe or a socket
/// (`/dev/stdout`, `/dev/null`, a FIFO) is written in place: there is no file to keep. A symbolic link is followed:
/// the file it points to is replaced, the link stays. An existing file keeps its permission bits, and one this
/// user may not write is refused as before, though its folder would allow the rename.
/// The rename is not preceded by `fsync`: it protects against a failed or killed run, not against a power cut
/// (that is the snapshot writer's concern, whose file is read back as an index). A run killed before it could
/// remove its temporary file (`kill -9`) leaves it; the next output to the same path removes it.
package final class OutputFile {
    /// The path as the user gave it, for messages.
    package let name: String
    private let descriptor: FileDescriptor
    /// zlib's stream for a `.gz` name, nil for plain output.
    private let gzip: GzipWriter?
    /// The temporary file and the path it becomes; nil when written in place.
    private let paths: (temporary: String, final: String)?
    private var isOpen = true

    /// Opens a temporary file beside `path` (beside the file a symbolic link points to), or a device in place.
    /// - Throws: `InputError` naming `path` and the system's reason.
    /// - Complexity: O(1).
    package init(path: String) throws(InputError) {
        name = path
        let existing = try? Stat(FilePath(path))
        let inPlace = existing.map { $0.type != .regular } ?? false
        if inPlace {
            paths = nil
        } else {
            // realpath resolves a symbolic link (and `.`/`..`): the rename must replace its target, not the link.
            let target = existing != nil ? Self.resolved(path) ?? path : path
            if existing != nil, access(target, W_OK) != 0 {
                throw InputError(file: path, message: "cannot write: \(Errno(rawValue: errno))")
            }
            Self.removeStaleTemporaries(of: target)
            paths = (target + Self.temporaryMarker + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))", target)
        }
        do {
            if let paths {
                // exclusiveCreate (O_EXCL) never reuses a file (or follows a link) someone left at that name.
                descriptor = try FileDescriptor.open(FilePath(paths.temporary), .writeOnly,
                                                     options: [.create, .exclusiveCreate, .closeOnExec],
                                                     permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } else {
                descriptor = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.closeOnExec])
            }
        } catch {
            throw InputError(file: path, message: "cannot write: \(error)")
        }
        if paths != nil, let existing {
            // fchmod returns 0 or -1 with errno; a file that cannot take the old bits keeps the new file's default.
            _ = fchmod(descriptor.rawValue, mode_t(existing.permissions.rawValue))
        }
        if path.lowercased().hasSuffix(".gz") {
            guard let writer = GzipWriter(descriptor: descriptor) else {
                try? descriptor.close()
                if let paths { unlink(paths.temporary) }
                throw InputError(file: path, message: "cannot write: zlib could not start a gzip stream")
            }
            gzip = writer
        } else {
            gzip = nil
        }
    }

    deinit {
        if isOpen { discard() }
    }

    /// Writes all of `bytes` (compressed for `.gz`).
    /// - Throws: `InputError` when a write fails (a full disk, a closed pipe).
    /// - Complexity: O(n) in the bytes written.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(InputError) {
        if let gzip {
            try gzip.write(bytes, path: name)
            return
        }
        do {
            _ = try descriptor.writeAll(bytes)
        } catch {
            throw InputError(file: name, message: "cannot write: \(error)")
        }
    }

    /// Ends a gzip stream, closes the file and renames it over its path.
    /// - Throws: `InputError` when the last bytes cannot be written or the rename fails; the temporary file is
    ///   removed then and the file at the path is left as it was.
    /// - Complexity: O(1) beyond zlib's buffered bytes.
    package func commit() throws(InputError) {
        guard isOpen else { return }
        isOpen = false
        do throws(InputError) {
            try gzip?.finish(path: name)
            do { try descriptor.close() } catch { throw InputError(file: name, message: "cannot write: \(error)") }
            // rename(2) replaces the path atomically within one file system; 0 on success, -1 with errno.
            if let paths, rename(paths.temporary, paths.final) != 0 {
                throw InputError(file: name, message: "cannot write: \(Errno(rawValue: errno))")
            }
        } catch {
            if let paths { unlink(paths.temporary) }
            throw error
        }
    }

    /// Closes the file and removes the temporary file: the file at the path stays as it was.
    /// - Complexity: O(1).
    package func discard() {
        guard isOpen else { return }
        isOpen = false
        try? descriptor.close()
        if let paths { unlink(paths.temporary) }
    }

    /// What follows the path in a temporary file's name, before `PID-RANDOM`.
    static let temporaryMarker = ".tmp-"

    /// Removes the temporary files of `target` (`NAME.tmp-PID-RANDOM` beside it) whose process is gone: what a
    /// killed run left. A running process's file is left alone.
    private static func removeStaleTemporaries(of target: String) {
        let slash = target.lastIndex(of: "/")
        let folder = slash.map { $0 == target.startIndex ? "/" : String(target[..<$0]) } ?? "."
        let prefix = (slash.map { String(target[target.index(after: $0)...]) } ?? target) + temporaryMarker
        // opendir returns NULL with errno when the folder cannot be read: then there is nothing to clean.
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix) else { continue }
            let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = pid_t(parts[0]), pid > 0, pid != getpid(), UInt32(parts[1]) != nil else { continue }
            // kill with signal 0 sends nothing: -1 with ESRCH when no such process exists.
            if kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + name) }
        }
    }

    /// The path with symbolic links resolved, nil when it cannot be (realpath returns NULL with errno).
    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
