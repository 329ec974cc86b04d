import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file without a name, next to a store, where a long write moves what it would otherwise hold in memory for
/// every row: the R*Tree's bulk-load entries (`RTreeBulkLoad`), an import's record of where each row came from.
///
/// Created in the store's folder (the disk that takes the store's own pages, never a memory-backed temporary
/// folder) and unlinked at once, so nothing is left behind however the process ends; the only window is between
/// `open` and `unlink`, two system calls. Written and read through swift-system's `FileDescriptor`; `unlink`
/// through the C library.
public final class ScratchFile {
    private let descriptor: FileDescriptor
    /// The store's path, for messages.
    private let storePath: String
    /// Bytes appended so far.
    /// - Complexity: O(1).
    public private(set) var byteCount = 0

    /// A new, empty scratch file in the folder of the store at `storePath`, or nil when none can be created
    /// (callers then keep what they would have moved in memory).
    /// - Complexity: O(1).
    public init?(nextTo storePath: String) {
        self.storePath = storePath
        let name = storePath + ".scratch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            descriptor = try FileDescriptor.open(name, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite])
        } catch {
            return nil
        }
        // unlink(2): 0 on success, -1 with errno; the open descriptor keeps the file until it is closed.
        _ = unlink(name)
    }

    deinit { try? descriptor.close() }

    /// Appends `bytes` at the end of the file.
    /// - Returns: the offset they start at.
    /// - Throws: `StoreError.io` when the write fails (a full disk).
    /// - Complexity: O(n).
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        do {
            _ = try descriptor.writeAll(toAbsoluteOffset: Int64(byteCount), bytes)
        } catch {
            throw StoreError.io(path: storePath, operation: "writing a scratch file", message: "\(error)")
        }
        defer { byteCount += bytes.count }
        return byteCount
    }

    /// Reads the bytes at `offset` into `buffer`, as many as fit before the end of what was appended.
    /// - Returns: how many were read.
    /// - Throws: `StoreError.io` when the read fails.
    /// - Complexity: O(n).
    @discardableResult
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let wanted = max(0, min(buffer.count, byteCount - offset))
        var done = 0
        while done < wanted {
            let read: Int
            do {
                read = try descriptor.read(fromAbsoluteOffset: Int64(offset + done),
                                           into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<wanted]))
            } catch {
                throw StoreError.io(path: storePath, operation: "reading a scratch file", message: "\(error)")
            }
            guard read > 0 else {
                throw StoreError.io(path: storePath, operation: "reading a scratch file", message: "it ended early")
            }
            done += read
        }
        return done
    }
}
