/// A set of 64-bit keys other than `UInt64.max` (open addressing, linear probing, load at most 1/2):
/// the joined (event, user) pairs, 16 bytes per key (the duplicate rule uses the denser `DensePairSet`).
package struct PairSet: Sendable {
    private var slots = ContiguousArray<UInt64>(repeating: .max, count: 16)
    package private(set) var count = 0

    package init() {}

    /// Bytes held (capacity).
    package var memoryBytes: Int { slots.capacity * 8 }

    /// Whether `key` is in the set.
    /// - Complexity: O(1) expected.
    @inline(__always)
    package func contains(_ key: UInt64) -> Bool {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: fmix64(key)) & mask
            while true {
                let entry = slots[slot]
                if entry == key { return true }
                if entry == .max { return false }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Adds `key`; returns false when it was already there.
    /// - Complexity: amortised O(1) expected.
    @inline(__always)
    package mutating func insert(_ key: UInt64) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fmix64(key)) & mask
        while true {
            let entry = slots[slot]
            if entry == key { return false }
            if entry == .max { break }
            slot = (slot + 1) & mask
        }
        slots[slot] = key
        count += 1
        if 2 * count > slots.count { grow() }
        return true
    }

    private mutating func grow() {
        let old = slots
        slots = largeArray(repeating: UInt64.max, count: old.count * 2)
        let mask = slots.count - 1
        for key in old where key != .max {
            var slot = Int(truncatingIfNeeded: fmix64(key)) & mask
            while slots[slot] != .max { slot = (slot + 1) & mask }
            slots[slot] = key
        }
    }
}

