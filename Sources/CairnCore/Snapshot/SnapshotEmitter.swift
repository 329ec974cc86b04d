import SystemPackage

/// Puts a snapshot's bytes out in file order, into memory or through a file descriptor, and computes the block
/// checksums of the sections as the bytes pass (see `SnapshotFormat`): a file is written without being held whole.
///
/// The bytes before `regionStart` (header and section table) are not in any block; the region ends at `endRegion()`,
/// after which the block checksums (`BSUM`) are appended. A failed write is remembered (`failure`) and nothing more
/// is written, so that callers check once at the end.
struct SnapshotEmitter {
    /// Where the bytes go: nil keeps them all in memory (`takeBytes`).
    private let descriptor: FileDescriptor?
    /// Bytes not yet written (in memory, all of them); `pending[0]` is at file offset `pendingStart`.
    private var pending: [UInt8] = []
    private var pendingStart = 0
    /// The file offset of the next byte.
    private(set) var offset = 0
    /// The blocks before this offset are hashed; hashing stops at the region's end.
    private var hashedEnd: Int
    private var hashing = true
    /// The block checksums so far, as `BSUM` holds them.
    private(set) var sums: [UInt8] = []
    /// The first write that failed.
    private(set) var failure: SnapshotError?
    /// Names the file in errors.
    private let path: String?

    /// Bytes gathered before a write.
    static let writeBytes = 1 << 20

    /// An emitter into memory (`descriptor` nil, with room for `capacity` bytes) or into `descriptor`.
    init(regionStart: Int, descriptor: FileDescriptor?, capacity: Int, path: String?) {
        self.descriptor = descriptor
        self.path = path
        hashedEnd = regionStart
        pending.reserveCapacity(descriptor == nil ? capacity : 2 * SnapshotEmitter.writeBytes)
    }

    /// Appends `bytes`; `patch`, when given, may change them (they are then at file offset `offset`) before they
    /// are hashed.
    mutating func append(_ bytes: UnsafeRawBufferPointer, patch: ((UnsafeMutableRawBufferPointer) -> Void)? = nil) {
        let start = pending.count
        pending.append(contentsOf: bytes)
        if let patch {
            pending.withUnsafeMutableBytes { patch(UnsafeMutableRawBufferPointer(rebasing: $0[start...])) }
        }
        offset += bytes.count
        advance()
    }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value) { append($0) }
    }

    /// Zero bytes up to file offset `target`.
    mutating func pad(to target: Int) {
        if offset < target {
            pending.append(contentsOf: repeatElement(0, count: target - offset))
            offset = target
            advance()
        }
    }

    /// Ends the checksummed region at the current offset: its last, shorter block is hashed.
    mutating func endRegion() {
        hashBlocks(final: true)
        hashing = false
    }

    /// The bytes written since the start (memory only), leaving the emitter empty.
    mutating func takeBytes() -> [UInt8] {
        defer { pending = [] }
        return pending
    }

    /// Writes what is pending (to a descriptor).
    mutating func flush() {
        write(upTo: offset)
    }

    /// Overwrites 8 bytes at file offset `at`, which is already emitted.
    mutating func overwrite(_ value: UInt64, at: Int) {
        if at >= pendingStart {
            pending.withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: at - pendingStart, as: UInt64.self) }
            return
        }
        guard let descriptor, failure == nil else { return }
        do {
            _ = try withUnsafeBytes(of: value) { try descriptor.writeAll(toAbsoluteOffset: Int64(at), $0) }
        } catch {
            failure = SnapshotError(path: path, reason: .io(operation: "write", message: "\(error)"))
        }
    }

    private mutating func advance() {
        if hashing { hashBlocks(final: false) }
        if descriptor != nil, (hashing ? hashedEnd : offset) - pendingStart >= SnapshotEmitter.writeBytes {
            write(upTo: hashing ? hashedEnd : offset)
        }
    }

    /// Hashes every whole block emitted (and, when `final`, the last part block).
    private mutating func hashBlocks(final: Bool) {
        let blockBytes = SnapshotFormat.blockBytes
        while offset - hashedEnd >= blockBytes || (final && offset > hashedEnd) {
            let length = min(blockBytes, offset - hashedEnd), start = hashedEnd - pendingStart
            let sum = pending.withUnsafeBytes { SnapshotChecksum.xxh64(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)])) }
            withUnsafeBytes(of: sum) { sums.append(contentsOf: $0) }
            hashedEnd += length
        }
    }

    /// Writes the pending bytes before file offset `end` to the descriptor and drops them.
    private mutating func write(upTo end: Int) {
        guard let descriptor, end > pendingStart else { return }
        let count = end - pendingStart
        if failure == nil {
            do {
                _ = try pending.withUnsafeBytes { try descriptor.writeAll(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } catch {
                failure = SnapshotError(path: path, reason: .io(operation: "write", message: "\(error)"))
            }
        }
        pending.removeFirst(count)
        pendingStart = end
    }
}
