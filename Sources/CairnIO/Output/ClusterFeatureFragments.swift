import Atomics
import CairnCore

/// The GeoJSON features of one cluster hierarchy's entries as `ClusterWriter.encodeClusters` wrote them, and the
/// blocks of joined features of the low zooms' grid cells (`ClusterBlock`), kept for the answers that follow, up to
/// a budget of bytes, then no more (nothing is evicted: the fragments live as long as their hierarchy, and an edit
/// gives a new hierarchy whose entries mean other things).
///
/// A map's viewports are rarely asked twice while their entries are: ten thousand zoom-5 viewports of the GeoNames
/// places are 1.2 GB of answers made of the same few thousand clusters, and encoding them (their numbers above all)
/// was most of each answer's work. With the entries kept, an answer is mostly copies; with the blocks, few copies.
///
/// One slot per entry of the hierarchy (`ClusterIndex.entryCount`) and per cell of each low level's grid (allocated
/// at the level's first block), read and set without a lock: a slot is set once (compare and exchange: of two
/// threads that encode an entry at once, one keeps its bytes and the other drops its copy), so request threads never
/// wait for each other, and a lookup is one load rather than a lock and a hash. Thread-safe.
public final class ClusterFeatureFragments: @unchecked Sendable {
    /// Kept byte strings by number: per slot, the address of a count followed by the bytes, or 0.
    private final class Slots: @unchecked Sendable {
        let words: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
        let count: Int

        init(count: Int) {
            self.count = count
            words = .allocate(capacity: max(count, 1))
            words.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: max(count, 1))
        }

        deinit {
            for n in 0..<count {
                UnsafeMutableRawPointer(bitPattern: UnsafeAtomic(at: words + n).load(ordering: .relaxed))?.deallocate()
            }
            words.deinitialize(count: max(count, 1))
            words.deallocate()
        }

        @inline(__always)
        func bytes(_ n: Int) -> UnsafeRawBufferPointer? {
            guard n < count, let kept = UnsafeRawPointer(bitPattern: UnsafeAtomic(at: words + n).load(ordering: .acquiring)) else {
                return nil
            }
            return UnsafeRawBufferPointer(start: kept + ClusterFeatureFragments.headerBytes, count: kept.load(as: Int.self))
        }

        /// Stores a copy of `bytes` in slot `n` unless it holds some; the bytes it stored.
        func keep(_ bytes: UnsafeRawBufferPointer, at n: Int) -> Int {
            let size = ClusterFeatureFragments.headerBytes + bytes.count
            let copy = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Int>.alignment)
            copy.storeBytes(of: bytes.count, as: Int.self)
            if let source = bytes.baseAddress { (copy + ClusterFeatureFragments.headerBytes).copyMemory(from: source, byteCount: bytes.count) }
            let (stored, _) = UnsafeAtomic(at: words + n).compareExchange(expected: 0, desired: UInt(bitPattern: copy), ordering: .releasing)
            if stored { return size }
            copy.deallocate()
            return 0
        }
    }

    private let entries: Slots
    /// Per level `0...ClusterIndex.blockLevelLimit`, the blocks' slots, made at the level's first block.
    private let blocks: [ManagedAtomicLazyReference<Slots>]
    private let limitBytes: Int
    private let keptBytes = ManagedAtomic<Int>(0)
    /// The bytes before a fragment's own: its count, aligned for the load.
    private static let headerBytes = MemoryLayout<Int>.size

    /// Room for the features of `index`'s entries and blocks, keeping at most about `limitBytes` of them (0 keeps
    /// none).
    /// - Complexity: O(e) for e entries (one word each, zeroed).
    public init(for index: ClusterIndex, limitBytes: Int) {
        entries = Slots(count: index.entryCount)
        blocks = (0...ClusterIndex.blockLevelLimit).map { _ in ManagedAtomicLazyReference() }
        self.limitBytes = limitBytes
    }

    /// Bytes kept so far (features and blocks, with an 8-byte count each).
    /// - Complexity: O(1).
    public var bytesKept: Int { keptBytes.load(ordering: .relaxed) }

    /// The bytes kept for `entry`, or nil; they stay valid, unchanged, as long as the fragments do.
    /// - Complexity: O(1).
    @inline(__always)
    func feature(ofEntry entry: Int) -> UnsafeRawBufferPointer? {
        entries.bytes(entry)
    }

    /// Keeps a copy of `bytes` as the feature of `entry`, unless one is kept already or the budget is spent.
    /// - Complexity: O(n) for n bytes.
    func keep(_ bytes: ArraySlice<UInt8>, ofEntry entry: Int) {
        guard entry < entries.count, hasRoom(for: bytes.count) else { return }
        bytes.withUnsafeBytes { keptBytes.wrappingIncrement(by: entries.keep($0, at: entry), ordering: .relaxed) }
    }

    /// The bytes kept for `block` (its entries' features joined with ",\n"), or nil; valid as long as the fragments.
    /// - Complexity: O(1).
    @inline(__always)
    func features(of block: ClusterBlock) -> UnsafeRawBufferPointer? {
        guard block.level < blocks.count else { return nil }
        return blocks[block.level].load()?.bytes(block.cell)
    }

    /// Keeps a copy of `bytes` as the joined features of `block`, unless kept already or the budget is spent.
    /// - Complexity: O(n) for n bytes (O(c) more at a level's first block, for its c cells).
    func keep(_ bytes: UnsafeRawBufferPointer, of block: ClusterBlock) {
        guard block.level < blocks.count, hasRoom(for: bytes.count) else { return }
        let level = blocks[block.level]
        let slots = level.load() ?? level.storeIfNilThenLoad(Slots(count: block.cellCount))
        guard block.cell < slots.count else { return }
        keptBytes.wrappingIncrement(by: slots.keep(bytes, at: block.cell), ordering: .relaxed)
    }

    private func hasRoom(for count: Int) -> Bool {
        keptBytes.load(ordering: .relaxed) + Self.headerBytes + count <= limitBytes
    }
}
