import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a snapshot atomically: a temporary file next to the target, `fsync`, then `rename`. The file is opened and
/// written through swift-system's `FileDescriptor`; `fsync`, `rename` and `unlink`, which it does not wrap, through
/// the C library.
enum SnapshotFileWriter {
    /// Writes the snapshot `builder` assembles to `path` so that readers see either the previous file or the whole
    /// new one (a reader that has the previous file mapped keeps reading it: a rename never changes the bytes of a
    /// mapped file). With `mapping`, the new file is mapped before its rename and the mapping returned: exactly the
    /// bytes written, even if another writer renames its own file over `path` in the meantime.
    /// - Returns: the file's length, and its mapping when asked for.
    static func writeAtomically(_ builder: SnapshotBuilder, to path: String,
                                mapping: Bool) throws(SnapshotError) -> (byteCount: Int, storage: SnapshotStorage?) {
        func failure(_ operation: String, _ error: any Error) -> SnapshotError {
            SnapshotError(path: path, reason: .io(operation: operation, message: "\(error)"))
        }
        let temporary = temporaryPrefix(of: path) + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor: FileDescriptor
        do {
            // exclusiveCreate (O_EXCL) refuses an existing file; read and write, so that the file can be mapped.
            descriptor = try FileDescriptor.open(temporary, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw failure("create a temporary file to write", error)
        }
        let byteCount: Int
        var storage: SnapshotStorage?
        do throws(SnapshotError) {
            defer { try? descriptor.close() }
            byteCount = try builder.write(to: descriptor, path: path)
            // fsync(2) returns 0 on success, -1 with errno.
            guard fsync(descriptor.rawValue) == 0 else { throw failure("write", Errno(rawValue: errno)) }
            if mapping { storage = try SnapshotStorage(mapping: descriptor, byteCount: byteCount, path: path) }
        } catch {
            unlink(temporary)
            throw error
        }
        // rename(2) replaces `path` atomically within one file system; 0 on success, -1 with errno.
        guard rename(temporary, path) == 0 else {
            let renameError = failure("rename the temporary file to write", Errno(rawValue: errno))
            unlink(temporary)
            throw renameError
        }
        return (byteCount, storage)
    }

    /// The start of the names of `path`'s temporary files: `<path>.tmp-`, followed by the writer's process id, a dash
    /// and a random number.
    static func temporaryPrefix(of path: String) -> String { path + ".tmp-" }

    /// Removes the temporary files that writers of `path` killed before their rename left behind: those whose
    /// process no longer runs. A temporary file of a live process (a writer at work) is left alone.
    /// Corresponding C functions: `opendir`, `readdir`, `kill` (signal 0: does the process exist), `unlink`.
    /// - Returns: the number of files removed.
    /// - Complexity: O(entries of the folder).
    @discardableResult
    static func removeStaleTemporaries(of path: String) -> Int {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let prefix = String(temporaryPrefix(of: path)[(slash.map { path.index(after: $0) } ?? path.startIndex)...])
        // opendir(3) returns NULL with errno when the folder cannot be read: then there is nothing to clean.
        guard let directory = opendir(folder.isEmpty ? "/" : folder) else { return 0 }
        defer { closedir(directory) }
        var removed = 0
        // readdir(3) returns NULL at the end of the folder.
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.hasPrefix(prefix), let pid = Int32(name.dropFirst(prefix.count).prefix { $0 != "-" }), pid > 0 else { continue }
            // kill(2) with signal 0 checks only that the process exists: -1 with ESRCH when it does not.
            guard kill(pid, 0) == -1, errno == ESRCH else { continue }
            if unlink((folder.isEmpty ? "" : folder) + "/" + name) == 0 { removed += 1 }
        }
        return removed
    }
}
