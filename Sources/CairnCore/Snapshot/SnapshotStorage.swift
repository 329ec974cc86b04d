import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of a snapshot, kept alive and unchanged for as long as an index reads them in place: a read-only
/// private mapping of the file, or (for bytes handed over in memory) a copy in 8-byte-aligned memory, so that every
/// section, which starts at a multiple of 8, can be read as an array of numbers without copying.
///
/// The file's pages belong to the page cache: a one-off query touches only the pages it reads. A writer replaces a
/// snapshot by renaming a new file over it, never by writing into it, so a mapped file does not change under a reader.
final class SnapshotStorage: @unchecked Sendable {
    // @unchecked: the memory is never written after `init`, and is released only in `deinit`.
    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    private let release: Release

    private enum Release {
        case unmap
        case deallocate
        case nothing
    }

    /// A copy of `array` in aligned memory.
    /// - Complexity: O(n).
    init(copying array: [UInt8]) {
        guard !array.isEmpty else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            release = .nothing
            return
        }
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: array.count, alignment: 8)
        array.withUnsafeBytes { memory.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(memory)
        release = .deallocate
    }

    /// The file at `path`, mapped read-only.
    /// - Throws: `SnapshotError` with reason `.io` when the file cannot be opened, sized or mapped.
    /// - Complexity: O(1) (pages are read when touched).
    convenience init(mapping path: String) throws(SnapshotError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        } catch {
            throw SnapshotError(path: path, reason: .io(operation: "open", message: "\(error)"))
        }
        defer { try? descriptor.close() }
        let size: Int64
        do {
            size = try descriptor.seek(offset: 0, from: .end)
        } catch {
            throw SnapshotError(path: path, reason: .io(operation: "read", message: "\(error)"))
        }
        try self.init(mapping: descriptor, byteCount: Int(size), path: path)
    }

    /// The first `byteCount` bytes of the open file `descriptor`, mapped read-only; the mapping outlives the
    /// descriptor and any rename of the file. `path` names the file in errors.
    /// - Throws: `SnapshotError` with reason `.io` when the file cannot be mapped.
    /// - Complexity: O(1) (pages are read when touched).
    init(mapping descriptor: FileDescriptor, byteCount: Int, path: String) throws(SnapshotError) {
        guard byteCount > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            release = .nothing
            return
        }
        guard let mapped = SnapshotStorage.mapReadOnly(descriptor, byteCount: byteCount) else {
            throw SnapshotError(path: path, reason: .io(operation: "map", message: "\(Errno(rawValue: errno))"))
        }
        bytes = UnsafeRawBufferPointer(start: mapped, count: byteCount)
        release = .unmap
    }

    deinit {
        switch release {
        case .unmap:
            // munmap(2) returns 0, or -1 with errno for a range that was not mapped (impossible here).
            if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
        case .deallocate:
            bytes.deallocate()
        case .nothing:
            break
        }
    }

    /// Maps `byteCount` bytes of the file read-only and private; nil on failure (errno set).
    /// Corresponding C function: `mmap`.
    private static func mapReadOnly(_ descriptor: FileDescriptor, byteCount: Int) -> UnsafeRawPointer? {
        // mmap(2) returns the mapping's address, or MAP_FAILED ((void *) -1) with errno.
        guard let address = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, descriptor.rawValue, 0),
              address != MAP_FAILED else { return nil }
        return UnsafeRawPointer(address)
    }
}
