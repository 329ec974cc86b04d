import Atomics
import CairnCore

/// The GeoJSON features of one cluster hierarchy's entries as `ClusterWriter.encodeClusters` wrote them, kept for
/// the answers that follow, up to a budget of bytes, then no more (nothing is evicted: the fragments live as long as
/// their hierarchy, and an edit gives a new hierarchy whose entries mean other things).
///
/// A map's viewports are rarely asked twice while their entries are: ten thousand zoom-5 viewports of the GeoNames
/// places are 1.2 GB of answers made of the same few thousand clusters, and encoding them (their numbers above all)
/// was most of each answer's work. With the entries kept, an answer is mostly copies.
///
/// One slot per entry of the hierarchy (`ClusterIndex.entryCount`), read and set without a lock: a slot is set once
/// (compare and exchange: of two threads that encode an entry at once, one keeps its bytes and the other drops its
/// copy), so request threads never wait for each other, and a lookup is one load rather than a lock and a hash.
/// Thread-safe.
public final class ClusterFeatureFragments: @unchecked Sendable {
    /// Per entry, the address of its kept bytes (a byte count, then the bytes), or 0.
    private let slots: UnsafeMutablePointer<UnsafeAtomic<UInt>.Storage>
    private let slotCount: Int
    private let limitBytes: Int
    private let keptBytes = ManagedAtomic<Int>(0)
    /// The bytes before a fragment's own: its count, aligned for the load.
    private static let headerBytes = MemoryLayout<Int>.size

    /// Room for the features of `index`'s entries, keeping at most about `limitBytes` of them (0 keeps none).
    /// - Complexity: O(e) for e entries (one word each, zeroed).
    public init(for index: ClusterIndex, limitBytes: Int) {
        slotCount = index.entryCount
        self.limitBytes = limitBytes
        slots = .allocate(capacity: max(slotCount, 1))
        slots.initialize(repeating: UnsafeAtomic<UInt>.Storage(0), count: max(slotCount, 1))
    }

    deinit {
        for entry in 0..<slotCount {
            UnsafeMutableRawPointer(bitPattern: UnsafeAtomic(at: slots + entry).load(ordering: .relaxed))?.deallocate()
        }
        slots.deinitialize(count: max(slotCount, 1))
        slots.deallocate()
    }

    /// The bytes kept for `entry`, or nil; they stay valid, unchanged, as long as the fragments do.
    /// - Complexity: O(1).
    @inline(__always)
    func feature(ofEntry entry: Int) -> UnsafeRawBufferPointer? {
        guard entry < slotCount,
              let kept = UnsafeRawPointer(bitPattern: UnsafeAtomic(at: slots + entry).load(ordering: .acquiring)) else { return nil }
        return UnsafeRawBufferPointer(start: kept + Self.headerBytes, count: kept.load(as: Int.self))
    }

    /// Keeps a copy of `bytes` as the feature of `entry`, unless one is kept already or the budget is spent.
    /// - Complexity: O(n) for n bytes.
    func keep(_ bytes: ArraySlice<UInt8>, ofEntry entry: Int) {
        let size = Self.headerBytes + bytes.count
        guard entry < slotCount, keptBytes.load(ordering: .relaxed) + size <= limitBytes else { return }
        let copy = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<Int>.alignment)
        copy.storeBytes(of: bytes.count, as: Int.self)
        bytes.withUnsafeBytes { (copy + Self.headerBytes).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: $0.count) }
        let (stored, _) = UnsafeAtomic(at: slots + entry).compareExchange(expected: 0, desired: UInt(bitPattern: copy), ordering: .releasing)
        if stored {
            keptBytes.wrappingIncrement(by: size, ordering: .relaxed)
        } else {
            copy.deallocate()
        }
    }
}
