import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file without a name, where a long write moves what it would otherwise hold in memory for every row: a
/// snapshot's sections while they are computed (`SnapshotSpill`), the R*Tree's bulk-load entries and an import's
/// record of where each row came from (CairnStore, CairnCLI).
///
/// Created beside the file being written (on its disk, never in a memory-backed temporary folder) and unlinked at
/// once, so nothing is left behind however the process ends; the only window is between `open` and `unlink`, two
/// system calls. Written and read through swift-system's `FileDescriptor`; `unlink` through the C library.
public final class ScratchFile {
    /// A write or read of the scratch file that failed (a full disk): what was done and the system's message.
    public struct Failure: Error, Sendable {
        /// `writing a scratch file` or `reading a scratch file`.
        public let operation: String
        /// The system's message, or `it ended early`.
        public let message: String
    }

    private let descriptor: FileDescriptor
    /// Bytes appended so far.
    /// - Complexity: O(1).
    public private(set) var byteCount = 0

    /// A new, empty scratch file named `namePrefix` plus the process id and a random number until it is unlinked
    /// (so a prefix that a cleaner knows, such as a snapshot's temporaries', lets a name left by a killed process be
    /// removed later), or nil when none can be created (callers then keep what they would have moved in memory).
    /// - Complexity: O(1).
    public init?(namePrefix: String) {
        let name = namePrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            descriptor = try FileDescriptor.open(name, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite])
        } catch {
            return nil
        }
        // unlink(2): 0 on success, -1 with errno; the open descriptor keeps the file until it is closed.
        _ = unlink(name)
    }

    /// A new scratch file in the folder of `path` (`PATH.scratch-…`), or nil when none can be created.
    /// - Complexity: O(1).
    public convenience init?(nextTo path: String) {
        self.init(namePrefix: path + ".scratch-")
    }

    deinit { try? descriptor.close() }

    /// Appends `bytes` at the end of the file.
    /// - Returns: the offset they start at.
    /// - Throws: `Failure` when the write fails (a full disk).
    /// - Complexity: O(n).
    @discardableResult
    public func append(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Int {
        do {
            _ = try descriptor.writeAll(toAbsoluteOffset: Int64(byteCount), bytes)
        } catch {
            throw Failure(operation: "writing a scratch file", message: "\(error)")
        }
        defer { byteCount += bytes.count }
        return byteCount
    }

    /// Reads the bytes at `offset` into `buffer`, as many as fit before the end of what was appended.
    /// - Returns: how many were read.
    /// - Throws: `Failure` when the read fails or the file ends early.
    /// - Complexity: O(n).
    @discardableResult
    public func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(Failure) -> Int {
        let wanted = max(0, min(buffer.count, byteCount - offset))
        var done = 0
        while done < wanted {
            let read: Int
            do {
                read = try descriptor.read(fromAbsoluteOffset: Int64(offset + done),
                                           into: UnsafeMutableRawBufferPointer(rebasing: buffer[done..<wanted]))
            } catch {
                throw Failure(operation: "reading a scratch file", message: "\(error)")
            }
            guard read > 0 else { throw Failure(operation: "reading a scratch file", message: "it ended early") }
            done += read
        }
        return done
    }
}
