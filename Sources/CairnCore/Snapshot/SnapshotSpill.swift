/// A scratch file holding the parts of a snapshot's sections computed so far, while the rest is still being read:
/// what lets a snapshot of a large store be written without holding its feature table in memory.
///
/// A `ScratchFile` next to the snapshot, with what a snapshot's spools need on top: the size of their pieces, and
/// a failed write remembered so that later pieces stay in memory.
final class SnapshotSpill {
    private let file: ScratchFile
    /// Bytes written so far.
    var byteCount: Int { file.byteCount }
    /// Set after a failed write: nothing more is written, and the spools keep their bytes in memory instead.
    private(set) var isBroken = false
    /// Bytes a spool gathers before it moves them here (`SectionSpool.spillIfFull`): large enough that writes
    /// are few, small enough that the seven spools of a feature table hold a few megabytes at most.
    let pieceBytes: Int

    /// A new scratch file in the folder of `path`, or nil when it cannot be created (the caller then keeps
    /// everything in memory). Named with the snapshot's temporary prefix until it is unlinked, so that a name left
    /// by a killed process is removed by the next writer (`SnapshotFileWriter.removeStaleTemporaries`). Tests
    /// choose small `pieceBytes` to cut sections into many pieces.
    init?(nextTo path: String, pieceBytes: Int = 1 << 18) {
        guard let file = ScratchFile(namePrefix: SnapshotFileWriter.temporaryPrefix(of: path)) else { return nil }
        self.file = file
        self.pieceBytes = max(1, pieceBytes)
    }

    /// Appends `bytes` and returns where they are in the file, or nil when the write failed.
    /// - Complexity: O(n).
    func append(_ bytes: UnsafeRawBufferPointer) -> Range<Int>? {
        guard !isBroken, let start = try? file.append(bytes) else {
            isBroken = true
            return nil
        }
        return start..<(start + bytes.count)
    }

    /// Reads the bytes at `range` (returned by `append`) into `buffer`, which holds exactly that many.
    /// - Throws: `SnapshotError` with reason `.io` when the file cannot be read.
    /// - Complexity: O(n).
    func read(_ range: Range<Int>, into buffer: UnsafeMutableRawBufferPointer, path: String?) throws(SnapshotError) {
        do throws(ScratchFile.Failure) {
            let read = try file.read(at: range.lowerBound, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<range.count]))
            guard read == range.count else { throw ScratchFile.Failure(operation: "", message: "it ended early") }
        } catch {
            throw SnapshotError(path: path, reason: .io(operation: "read back the scratch file of", message: error.message))
        }
    }
}

/// One section's bytes while a snapshot is being computed: appended in order and kept in memory, or, given a spill
/// file, moved there in pieces of about `pieceBytes` (`spillIfFull`), so that the section's memory stays bounded.
struct SectionSpool {
    /// The bytes not moved to the spill file, after those that were.
    private(set) var buffer: [UInt8]
    /// Where the moved bytes are in the spill file, in order.
    private var pieces: [Range<Int>] = []
    private var spilledBytes = 0
    private let spill: SnapshotSpill?

    /// An empty spool that moves its bytes to `spill`, when given.
    init(spill: SnapshotSpill?) {
        self.spill = spill
        buffer = []
        if let spill { buffer.reserveCapacity(spill.pieceBytes + spill.pieceBytes / 4) }
    }

    /// A spool holding `bytes`, in memory.
    init(_ bytes: [UInt8]) {
        spill = nil
        buffer = bytes
    }

    /// Reserves room for `count` bytes in memory.
    mutating func reserveCapacity(_ count: Int) { buffer.reserveCapacity(count) }

    /// The bytes held in memory (not moved to the spill file).
    var bytesInMemory: Int { buffer.count }

    /// The section's length so far.
    var byteCount: Int { spilledBytes + buffer.count }

    mutating func append(_ value: some FixedWidthInteger) {
        withUnsafeBytes(of: value) { buffer.append(contentsOf: $0) }
    }

    mutating func append(_ value: Double) { append(value.bitPattern) }

    mutating func append(contentsOf text: String.UTF8View) { buffer.append(contentsOf: text) }

    /// Appends a shape's WKB (`SHPB`), encoded straight into the section's buffer.
    mutating func append(wkbOf shape: Shape) { shape.appendWKB(to: &buffer) }

    /// Moves the bytes held in memory to the spill file once there are `pieceBytes` of them. A failed write keeps
    /// them in memory (the spill file is then not used again).
    mutating func spillIfFull() {
        guard let spill, buffer.count >= spill.pieceBytes else { return }
        guard let range = buffer.withUnsafeBytes({ spill.append($0) }) else { return }
        pieces.append(range)
        spilledBytes += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Calls `body` with the section's bytes in order, in pieces, each with its offset in the section. Moved
    /// pieces are read back one at a time into a scratch buffer.
    /// - Throws: `SnapshotError` (`.io`) when the spill file cannot be read; `path` names the snapshot.
    /// - Complexity: O(n).
    func forEachPiece(path: String?, _ body: (UnsafeRawBufferPointer, Int) -> Void) throws(SnapshotError) {
        var offset = 0
        if let spill, let largest = pieces.map(\.count).max() {
            let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: largest, alignment: 8)
            defer { scratch.deallocate() }
            for piece in pieces {
                let target = UnsafeMutableRawBufferPointer(rebasing: scratch[0..<piece.count])
                try spill.read(piece, into: target, path: path)
                body(UnsafeRawBufferPointer(target), offset)
                offset += piece.count
            }
        }
        buffer.withUnsafeBytes { body($0, offset) }
    }
}
