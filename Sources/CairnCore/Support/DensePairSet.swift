/// The (event, user) pairs that already have a valid check-in, for dense event and user numbers, in 4 bytes
/// per slot: 5 to about 7.5 bytes per pair.
///
/// A pair is split by its user number: the low `bucketBits` bits of the user choose a bucket, and the bucket
/// stores the event number and the user's remaining bits in one `UInt32` (event in the low `eventBits`
/// bits). `bucketBits` is as small as lets that fit in 32 bits, so it grows by one each time the user
/// numbers need one more bit: every bucket then splits in two by that bit. The buckets are open-addressing
/// tables (linear probing) of one common capacity, side by side in one large array (`largeArray`, huge
/// pages where the kernel allows: the set is read at random, and TLB misses would cost more than cache
/// misses); when a bucket would be over 4/5 full, all grow by half, so the set stays more than 1/2 full.
///
/// The events' number is fixed at creation; event numbers are below it, user numbers below 2^32.
package struct DensePairSet: Sendable {
    /// Bits of the event number in a stored value; events are at most `2^eventBits - 2`, so no stored value is
    /// `UInt32.max` (the empty slot).
    private let eventBits: Int
    /// Bits that user numbers need so far, and how many of them choose the bucket.
    private var userBits = 0
    private var bucketBits = 0
    /// Slots per bucket; bucket b is `slots[b * bucketCapacity ..< (b + 1) * bucketCapacity]`.
    private var bucketCapacity = 0
    private var slots = ContiguousArray<UInt32>()
    /// Values per bucket.
    private var counts: ContiguousArray<Int32> = [0]
    /// The number of pairs.
    package private(set) var count = 0

    static let empty = UInt32.max

    /// An empty set for event numbers in `0 ..< eventCount`.
    /// - Complexity: O(1).
    package init(eventCount: Int) {
        var bits = 1
        while bits < 31, (1 << bits) <= eventCount { bits += 1 }
        eventBits = bits
    }

    /// Bytes held (capacity).
    /// - Complexity: O(1).
    package var memoryBytes: Int { slots.capacity * 4 + counts.capacity * 4 }

    /// The slot where `value`'s probe starts in a bucket of `capacity` slots: `fmix64`'s high half,
    /// scaled by multiply-shift (any capacity).
    @inline(__always)
    static func home(_ value: UInt32, capacity: Int) -> Int {
        Int(((fmix64(UInt64(value)) >> 32) &* UInt64(capacity)) >> 32)
    }

    @inline(__always)
    private func split(event: Int, user: Int) -> (bucket: Int, value: UInt32) {
        let bucket = user & ((1 << bucketBits) - 1)
        return (bucket, UInt32(truncatingIfNeeded: event | (user >> bucketBits) << eventBits))
    }

    /// Whether the pair is in the set.
    /// - Complexity: O(1) expected.
    @inline(__always)
    package func contains(event: Int, user: Int) -> Bool {
        guard user >> userBits == 0, bucketCapacity > 0 else { return false }
        let (b, value) = split(event: event, user: user)
        let capacity = bucketCapacity
        return slots.withUnsafeBufferPointer { slots in
            guard let base = slots.baseAddress.map({ $0 + b * capacity }) else { return false }
            var slot = Self.home(value, capacity: capacity)
            while true {
                let entry = base[slot]
                if entry == value { return true }
                if entry == Self.empty { return false }
                slot += 1
                if slot == capacity { slot = 0 }
            }
        }
    }

    /// Reads the slot where the pair's probe starts and returns it: a branch-free read that brings the slot
    /// into the cache ahead of `insert` (many of them in a row overlap their cache misses).
    /// - Complexity: O(1).
    @inline(__always)
    package func touch(event: Int, user: Int) -> UInt32 {
        guard user >> userBits == 0, bucketCapacity > 0 else { return 0 }
        let (b, value) = split(event: event, user: user)
        return slots.withUnsafeBufferPointer { $0[b * bucketCapacity + Self.home(value, capacity: bucketCapacity)] }
    }

    /// Adds the pair; returns false when it was already there.
    /// - Complexity: amortised O(1) expected.
    @inline(__always)
    package mutating func insert(event: Int, user: Int) -> Bool {
        precondition(event >= 0 && event < (1 << eventBits) - 1 && user >= 0 && user >> 32 == 0, "pair out of range")
        while user >> userBits != 0 { addUserBit() }
        let (b, value) = split(event: event, user: user)
        if 5 * (Int(counts[b]) + 1) > 4 * bucketCapacity {
            rebuild(bucketBits: bucketBits, capacity: max(8, bucketCapacity + bucketCapacity / 2))
        }
        let capacity = bucketCapacity
        let inserted = slots.withUnsafeMutableBufferPointer { slots -> Bool in
            guard let base = slots.baseAddress.map({ $0 + b * capacity }) else { return false }
            return Self.place(value, in: base, capacity: capacity)
        }
        if inserted {
            counts[b] += 1
            count += 1
        }
        return inserted
    }

    /// Makes room for about `pairs` pairs in all (at most 5/7 full then), so that growing to that many
    /// does not move every value step after step; a hint, more may be added.
    /// - Complexity: O(capacity) when it grows, else O(1).
    package mutating func reserve(pairs: Int) {
        let buckets = 1 << bucketBits
        let perBucket = (pairs / 5 * 7 + buckets - 1) / buckets
        guard pairs > 0, perBucket > bucketCapacity else { return }
        rebuild(bucketBits: bucketBits, capacity: max(8, perBucket))
    }

    /// Puts `value` in the bucket at `base` unless it is there; whether it was put.
    @inline(__always)
    private static func place(_ value: UInt32, in base: UnsafeMutablePointer<UInt32>, capacity: Int) -> Bool {
        var slot = home(value, capacity: capacity)
        while true {
            let entry = base[slot]
            if entry == value { return false }
            if entry == empty {
                base[slot] = value
                return true
            }
            slot += 1
            if slot == capacity { slot = 0 }
        }
    }

    /// Makes room for one more bit of user numbers: when the stored values would overflow 32 bits, every
    /// bucket splits in two by the lowest user bit it stores (each half in buckets half the size).
    private mutating func addUserBit() {
        userBits += 1
        guard eventBits + userBits - bucketBits > 32 else { return }
        rebuild(bucketBits: bucketBits + 1, capacity: bucketCapacity == 0 ? 0 : max(8, (bucketCapacity + 1) / 2))
    }

    /// Moves every value into `2^bucketBits` buckets of `capacity` slots (more when a bucket would be over
    /// 4/5 full).
    private mutating func rebuild(bucketBits newBits: Int, capacity: Int) {
        let eventMask = UInt32((1 << eventBits) - 1)
        let shift = UInt32(eventBits)
        let oldBits = bucketBits, oldCapacity = bucketCapacity
        // Where each value goes: bucket and stored value, the same as `split` under the new bucket bits.
        func target(_ value: UInt32, from bucket: Int) -> (Int, UInt32) {
            guard newBits > oldBits else { return (bucket, value) }
            let high = value >> shift
            return (bucket | Int(high & 1) << oldBits, (value & eventMask) | (high >> 1) << shift)
        }
        var newCounts = ContiguousArray<Int32>(repeating: 0, count: 1 << newBits)
        for b in 0 ..< counts.count where counts[b] > 0 {
            for slot in b * oldCapacity ..< (b + 1) * oldCapacity where slots[slot] != Self.empty {
                newCounts[target(slots[slot], from: b).0] += 1
            }
        }
        var newCapacity = capacity
        let fullest = Int(newCounts.max() ?? 0)
        while 5 * fullest > 4 * newCapacity { newCapacity = max(8, newCapacity + newCapacity / 2) }
        var newSlots = largeArray(repeating: Self.empty, count: newCapacity << newBits)
        newSlots.withUnsafeMutableBufferPointer { buffer in
            guard let into = buffer.baseAddress else { return }
            for b in 0 ..< counts.count where counts[b] > 0 {
                for slot in b * oldCapacity ..< (b + 1) * oldCapacity where slots[slot] != Self.empty {
                    let (bucket, value) = target(slots[slot], from: b)
                    _ = Self.place(value, in: into + bucket * newCapacity, capacity: newCapacity)
                }
            }
        }
        slots = newSlots
        counts = newCounts
        bucketBits = newBits
        bucketCapacity = newCapacity
    }
}
