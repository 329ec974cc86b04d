import Atomics

/// Verifies a snapshot's blocks against their checksums (`BSUM`, see `SnapshotFormat`) the first time each is read,
/// and remembers the first damaged block.
///
/// A mapped snapshot is read in place, so a one-off query touches a few pages of a file of tens of megabytes:
/// checking every byte at open cost more than the rest of the run. Instead, what an index needs whole (its trees)
/// is verified when it is mapped, and a feature's bytes are verified when it is first decoded. A block that fails
/// is not fatal where it is found (decoding is bounds-checked, so damaged bytes decode to wrong values, never to a
/// crash): `damage` reports it, and whoever answered from the index discards the answer and rebuilds
/// (`StoreIndex.answer`).
///
/// Thread-safe: one bit per verified block, set with an atomic OR; two threads may verify the same block once each.
final class SnapshotBlockVerifier: @unchecked Sendable {
    // @unchecked: the bytes are immutable; the bit set and the damage are atomics.
    private let storage: SnapshotStorage
    private let path: String?
    /// The checksummed bytes: from the end of the section table to the start of `BSUM`.
    private let region: Range<Int>
    /// One XXH64 per block of `region`.
    private let sums: Range<Int>
    private let verifiedWords: UnsafeMutablePointer<UnsafeAtomic<UInt64>.Storage>
    private let wordCount: Int
    /// The first damaged block found, or -1.
    private let damagedBlock = ManagedAtomic<Int>(-1)

    /// A verifier of `region`'s blocks against the checksums at `sums` (already checked to hold one per block).
    /// - Complexity: O(blocks / 64) to clear the bit set.
    init(storage: SnapshotStorage, path: String?, region: Range<Int>, sums: Range<Int>) {
        self.storage = storage
        self.path = path
        self.region = region
        self.sums = sums
        wordCount = (sums.count / 8 + 63) / 64
        verifiedWords = UnsafeMutablePointer.allocate(capacity: max(wordCount, 1))
        verifiedWords.initialize(repeating: UnsafeAtomic<UInt64>.Storage(0), count: max(wordCount, 1))
    }

    deinit {
        verifiedWords.deinitialize(count: max(wordCount, 1))
        verifiedWords.deallocate()
    }

    /// Whether every block holding a byte of `range` (file offsets) matches its checksum; bytes outside the
    /// checksummed region count as verified (the header and table are checked at open).
    /// - Complexity: O(1) for blocks already verified; O(`blockBytes`) per block verified now.
    @inline(__always)
    func verify(_ range: Range<Int>) -> Bool {
        let lower = max(range.lowerBound, region.lowerBound), upper = min(range.upperBound, region.upperBound)
        guard lower < upper else { return true }
        let first = (lower - region.lowerBound) / SnapshotFormat.blockBytes
        let last = (upper - 1 - region.lowerBound) / SnapshotFormat.blockBytes
        var good = true
        for block in first...last where !isVerified(block) {
            good = verifyBlock(block) && good
        }
        return good
    }

    /// Verifies `range` now, throwing for a damaged block.
    /// - Throws: `SnapshotError` `.checksumMismatch` for the first damaged block.
    /// - Complexity: O(bytes of `range`).
    func verifyNow(_ range: Range<Int>) throws(SnapshotError) {
        guard verify(range) else { throw damage ?? SnapshotError(path: path, reason: .checksumMismatch(stored: 0, computed: 0)) }
    }

    /// The first damage found so far, or nil.
    /// - Complexity: O(1) (plus one block's hash to describe it).
    var damage: SnapshotError? {
        let block = damagedBlock.load(ordering: .acquiring)
        guard block >= 0 else { return nil }
        let (stored, computed) = checksums(of: block)
        return SnapshotError(path: path, reason: .checksumMismatch(stored: stored, computed: computed))
    }

    private func isVerified(_ block: Int) -> Bool {
        UnsafeAtomic(at: verifiedWords + block >> 6).load(ordering: .relaxed) & (UInt64(1) << UInt64(block & 63)) != 0
    }

    private func verifyBlock(_ block: Int) -> Bool {
        let (stored, computed) = checksums(of: block)
        guard stored == computed else {
            _ = damagedBlock.compareExchange(expected: -1, desired: block, ordering: .acquiringAndReleasing)
            return false
        }
        _ = UnsafeAtomic(at: verifiedWords + block >> 6).loadThenBitwiseOr(with: UInt64(1) << UInt64(block & 63), ordering: .relaxed)
        return true
    }

    /// The stored and the computed checksum of `block`.
    private func checksums(of block: Int) -> (stored: UInt64, computed: UInt64) {
        let start = region.lowerBound + block * SnapshotFormat.blockBytes
        let bytes = UnsafeRawBufferPointer(rebasing: storage.bytes[start..<min(start + SnapshotFormat.blockBytes, region.upperBound)])
        let stored = storage.bytes.loadUnaligned(fromByteOffset: sums.lowerBound + 8 * block, as: UInt64.self)
        return (stored, SnapshotChecksum.xxh64(bytes))
    }
}
