/// A map from 64-bit keys (other than `UInt64.max`) to counts, for visits per (place, user).
package struct CountMap: Sendable {
    private var keys = ContiguousArray<UInt64>(repeating: .max, count: 16)
    private var values = ContiguousArray<UInt32>(repeating: 0, count: 16)
    package private(set) var count = 0

    package init() {}

    /// Adds one to `key`'s count.
    /// - Complexity: amortised O(1) expected.
    package mutating func increment(_ key: UInt64) {
        let mask = keys.count - 1
        var slot = Int(truncatingIfNeeded: fmix64(key)) & mask
        while true {
            let entry = keys[slot]
            if entry == key { values[slot] &+= 1; return }
            if entry == .max { break }
            slot = (slot + 1) & mask
        }
        keys[slot] = key
        values[slot] = 1
        count += 1
        if 2 * count > keys.count { grow() }
    }

    /// Calls `body` with every key and its count, in no particular order.
    /// - Complexity: O(capacity).
    package func forEach(_ body: (UInt64, UInt32) -> Void) {
        for slot in keys.indices where keys[slot] != .max { body(keys[slot], values[slot]) }
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = ContiguousArray(repeating: .max, count: oldKeys.count * 2)
        values = ContiguousArray(repeating: 0, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for i in oldKeys.indices where oldKeys[i] != .max {
            var slot = Int(truncatingIfNeeded: fmix64(oldKeys[i])) & mask
            while keys[slot] != .max { slot = (slot + 1) & mask }
            keys[slot] = oldKeys[i]
            values[slot] = oldValues[i]
        }
    }
}
