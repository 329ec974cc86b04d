/// The strings of a snapshot's table that may repeat (attribute names and values, set members), found again by
/// value exactly as a `Dictionary<String, UInt32>` would find them (canonically equivalent strings are one key,
/// since Swift's `String` equality and hash say so), in about half a dictionary's memory: open addressing over 8-byte
/// slots (32 bits of the string's hash, 32 of its position here) and the strings' UTF-8 bytes in one array, instead
/// of 20-byte buckets and an allocation per string longer than 15 bytes (figures in docs/SNAPSHOTS.md).
struct StringLookup {
    /// 0 for an empty slot, else the string's hash (high 32 bits) and its position + 1 (low 32 bits).
    private var slots: [UInt64] = []
    /// The UTF-8 bytes of every string, in order; string `p` ends at `ends[p]` and starts where `p - 1` ends.
    private var bytes: [UInt8] = []
    private var ends: [UInt32] = []
    /// Each string's index in the table.
    private var tableIndices: [UInt32] = []

    /// The number of strings.
    var count: Int { ends.count }

    /// The table index of `text`, or nil when it is not here.
    /// - Complexity: O(length) expected.
    func index(of text: String) -> UInt32? {
        guard !slots.isEmpty else { return nil }
        let hash = StringLookup.hash(text), mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            if UInt32(truncatingIfNeeded: slots[slot] >> 32) == hash {
                let position = Int(UInt32(truncatingIfNeeded: slots[slot])) - 1
                if matches(position, text) { return tableIndices[position] }
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds `text`, not here yet (`index(of:)` is nil), with table index `index`.
    /// - Complexity: O(length) amortised.
    mutating func insert(_ text: String, index: UInt32) {
        if 4 * (count + 1) > 3 * slots.count { grow() }
        bytes.append(contentsOf: text.utf8)
        precondition(bytes.count <= Int(UInt32.max), "the strings of a snapshot hold at most 4 GiB")
        ends.append(UInt32(bytes.count))
        tableIndices.append(index)
        place(UInt64(StringLookup.hash(text)) << 32 | UInt64(count))
    }

    /// Puts a slot's value at its hash's first free slot.
    private mutating func place(_ value: UInt64) {
        let mask = slots.count - 1
        var slot = Int(value >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = value
    }

    /// Doubles the slots (at least 1,024) and places every string again from its stored hash.
    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: max(1_024, 2 * old.count))
        for value in old where value != 0 { place(value) }
    }

    /// Whether string `position` equals `text` as `String` compares: the same bytes, or (rarely: the hashes
    /// matched) canonically equivalent.
    private func matches(_ position: Int, _ text: String) -> Bool {
        let start = position == 0 ? 0 : Int(ends[position - 1]), end = Int(ends[position])
        return bytes.withUnsafeBufferPointer { stored in
            let candidate = UnsafeBufferPointer(rebasing: stored[start..<end])
            if candidate.elementsEqual(text.utf8) { return true }
            return String(decoding: candidate, as: UTF8.self) == text
        }
    }

    /// 32 bits of the string's hash as `Dictionary` computes it (equal strings, by `==`, hash equally).
    private static func hash(_ text: String) -> UInt32 {
        let hash = UInt(bitPattern: text.hashValue)
        return UInt32(truncatingIfNeeded: hash ^ hash >> 32)
    }
}
