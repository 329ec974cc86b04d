/// Interned byte strings (ids) numbered 0, 1, 2, ... in insertion order, found by their bytes without
/// making a `String`: an open-addressing hash table (linear probing, load at most 1/2).
///
/// Each slot is 32 bytes: a header word (index + 1 in the low 32 bits, 24 bits of hash, the key's length)
/// and, for keys of at most 24 bytes (the usual ids), the key itself, so a lookup touches one cache line.
/// Longer keys are compared in the byte arena that also serves `key(at:)`.
///
/// Dense numbered ids: the first key's prefix before its trailing decimal digits (`event-` of `event-1`)
/// becomes the table's prefix; a later key made of that prefix and a canonical decimal number n (no leading
/// zero, n small next to the number of keys) is kept in a plain array at position n instead of the hash
/// table, so looking it up reads 4 bytes of a small array instead of a 32-byte slot of a large one. A lookup
/// tries the array first, then the hash table, so where a key lives never changes the answer.
package struct KeyTable: Sendable {
    /// Every key's bytes, back to back.
    private var arena = ContiguousArray<UInt8>()
    /// Key `i` is `arena[starts[i] ..< starts[i + 1]]`.
    private var starts: ContiguousArray<Int> = [0]
    /// 4 words per slot: header (0 = empty), then up to 24 key bytes.
    private var slots = ContiguousArray<UInt64>(repeating: 0, count: 4 * 16)
    private var slotCount = 16
    /// Keys in the hash table (the others are in `byNumber`).
    private var hashedCount = 0
    /// The dense ids' prefix, up to 16 bytes in two little-endian words, and its length (-2: no key yet;
    /// -1: none, the first key had no trailing number or too long a prefix).
    private var prefixWords: (UInt64, UInt64) = (0, 0)
    private var prefixLength = -2
    /// `byNumber[n]`: the index of the key `prefix + String(n)`, or -1.
    private var byNumber = ContiguousArray<Int32>()

    static let inlineBytes = 24
    static let longLength: UInt64 = 255

    package init() {}

    /// The number of keys.
    /// - Complexity: O(1).
    package var count: Int { starts.count - 1 }

    /// Bytes held (capacity).
    /// - Complexity: O(1).
    package var memoryBytes: Int { arena.capacity + starts.capacity * 8 + slots.capacity * 8 + byNumber.capacity * 4 }

    /// The number n when `key` is the table's prefix followed by n in canonical decimal (at most 9 digits),
    /// else -1.
    @inline(__always)
    private func denseNumber(_ key: UnsafeRawBufferPointer) -> Int {
        let prefix = prefixLength
        guard prefix >= 0, key.count > prefix, key.count - prefix <= 9, let base = key.baseAddress else { return -1 }
        // Byte by byte: a prefix is a few bytes, and a variable-length copy would call `memcpy`.
        for i in 0 ..< prefix {
            let word = i < 8 ? prefixWords.0 : prefixWords.1
            guard base.load(fromByteOffset: i, as: UInt8.self) == UInt8(truncatingIfNeeded: word >> UInt64(8 * (i & 7))) else { return -1 }
        }
        let first = base.load(fromByteOffset: prefix, as: UInt8.self)
        if first == 0x30 { return key.count == prefix + 1 ? 0 : -1 }
        var n = 0
        for i in prefix ..< key.count {
            let digit = base.load(fromByteOffset: i, as: UInt8.self) &- 0x30
            guard digit < 10 else { return -1 }
            n = n * 10 + Int(digit)
        }
        return n
    }

    /// Sets the dense prefix from the first key: its bytes before the trailing digits, when there are digits
    /// and at most 16 bytes before them.
    private mutating func choosePrefix(_ key: UnsafeRawBufferPointer) {
        prefixLength = -1
        var digitsStart = key.count
        while digitsStart > 0, (0x30...0x39).contains(key[digitsStart - 1]) { digitsStart -= 1 }
        guard digitsStart < key.count, digitsStart <= 16, let base = key.baseAddress else { return }
        var words: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &words) { $0.baseAddress?.copyMemory(from: base, byteCount: digitsStart) }
        prefixWords = words
        prefixLength = digitsStart
    }

    /// A key's first 24 bytes as three little-endian words, zero padded, and its header bits.
    @inline(__always)
    private static func probeKey(_ key: UnsafeRawBufferPointer, hash: UInt64) -> (header: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        let length = key.count <= inlineBytes ? UInt64(key.count) : longLength
        let header = length << 56 | ((hash >> 40) & 0xFF_FFFF) << 32
        guard key.count <= inlineBytes else { return (header, 0, 0, 0) }
        var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &words) { target in
            if let base = key.baseAddress, let into = target.baseAddress, key.count > 0 { into.copyMemory(from: base, byteCount: key.count) }
        }
        return (header, words.0, words.1, words.2)
    }

    /// The index of `key`, or -1.
    /// - Complexity: O(n) in the key's length, expected.
    @inline(__always)
    package func index(of key: UnsafeRawBufferPointer) -> Int {
        let number = denseIndex(key)
        if number >= 0 || hashedCount == 0 { return number }
        return hashedIndex(of: key, hash: byteHash(key))
    }

    /// Where `key` would be in the dense array (its number), or -1 when it cannot be there; reads nothing but
    /// the key, so a batch can work out every key's slot first and then read the slots back to back.
    /// - Complexity: O(n) in the key's length.
    @inline(__always)
    package func denseSlot(_ key: UnsafeRawBufferPointer) -> Int {
        let number = denseNumber(key)
        return number < byNumber.count ? number : -1
    }

    /// `index(of:)` for a key whose `denseSlot` is `slot` (not -1).
    /// - Complexity: O(1) when the key is there; O(n) in its length otherwise, expected.
    @inline(__always)
    package func index(of key: UnsafeRawBufferPointer, denseSlot slot: Int) -> Int {
        let index = Int(byNumber.withUnsafeBufferPointer { $0[slot] })
        if index >= 0 || hashedCount == 0 { return index }
        return hashedIndex(of: key, hash: byteHash(key))
    }

    /// Reads the dense array's entry at `slot` (a `denseSlot`, or -1 for none) and returns it: a read that brings
    /// the entry into the cache ahead of `insert(_:hash:denseSlot:)` (many in a row overlap their cache misses).
    /// - Complexity: O(1).
    @inline(__always)
    package func touch(denseSlot slot: Int) -> Int32 {
        slot >= 0 ? byNumber.withUnsafeBufferPointer { $0[slot] } : 0
    }

    /// The index of `key` when it is kept in the dense array, else -1.
    @inline(__always)
    private func denseIndex(_ key: UnsafeRawBufferPointer) -> Int {
        let number = denseNumber(key)
        guard number >= 0, number < byNumber.count else { return -1 }
        return Int(byNumber.withUnsafeBufferPointer { $0[number] })
    }

    /// The index of `key` whose `byteHash` is `hash`, or -1.
    /// - Complexity: O(n) in the key's length, expected.
    @inline(__always)
    package func index(of key: UnsafeRawBufferPointer, hash: UInt64) -> Int {
        let number = denseIndex(key)
        if number >= 0 || hashedCount == 0 { return number }
        return hashedIndex(of: key, hash: hash)
    }

    /// The index of `key` in the hash table, or -1.
    @inline(__always)
    private func hashedIndex(of key: UnsafeRawBufferPointer, hash: UInt64) -> Int {
        let probe = Self.probeKey(key, hash: hash)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slotCount - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let header = slots[4 * slot]
                if header == 0 { return -1 }
                if header & 0xFFFF_FFFF_0000_0000 == probe.header {
                    let index = Int(truncatingIfNeeded: header & 0xFFFF_FFFF) - 1
                    if key.count <= Self.inlineBytes {
                        if slots[4 * slot + 1] == probe.w1, slots[4 * slot + 2] == probe.w2, slots[4 * slot + 3] == probe.w3 { return index }
                    } else if keyEquals(index, key) {
                        return index
                    }
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The index of a `String` key, or -1.
    /// - Complexity: O(n) in the key's length, expected.
    package func index(of key: String) -> Int {
        var key = key
        return key.withUTF8 { index(of: UnsafeRawBufferPointer($0)) }
    }

    /// The key at `index` as a string.
    /// - Complexity: O(n) in its length.
    package func key(at index: Int) -> String {
        arena.withUnsafeBufferPointer { arena in
            String(decoding: UnsafeBufferPointer(rebasing: arena[starts[index] ..< starts[index + 1]]), as: UTF8.self)
        }
    }

    /// Calls `body` with the bytes of the key at `index`.
    /// - Complexity: O(1) plus the body.
    package func withKey<R>(at index: Int, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        arena.withUnsafeBytes { arena in
            body(UnsafeRawBufferPointer(rebasing: arena[starts[index] ..< starts[index + 1]]))
        }
    }

    /// Adds `key` when absent; returns its index and whether it was added.
    /// - Complexity: amortised O(n) in the key's length, expected.
    @discardableResult
    package mutating func insert(_ key: UnsafeRawBufferPointer) -> (index: Int, inserted: Bool) {
        insert(key, hash: byteHash(key))
    }

    /// Adds `key` (whose `byteHash` is `hash`) when absent; returns its index and whether it was added.
    /// - Complexity: amortised O(n) in the key's length, expected.
    @discardableResult
    package mutating func insert(_ key: UnsafeRawBufferPointer, hash: UInt64) -> (index: Int, inserted: Bool) {
        if prefixLength == -2 { choosePrefix(key) }
        // The key's number is parsed once, for the lookup and for the insertion (as `index(of:hash:)` looks up).
        let number = denseNumber(key)
        if number >= 0, number < byNumber.count {
            let found = byNumber.withUnsafeBufferPointer { $0[number] }
            if found >= 0 { return (Int(found), false) }
        }
        if hashedCount > 0 {
            let found = hashedIndex(of: key, hash: hash)
            if found >= 0 { return (found, false) }
        }
        precondition(count < Int(Int32.max) - 1, "KeyTable holds fewer than 2^31 - 1 keys")
        let index = count
        // As typed bytes: the array then copies them with `memcpy`, not byte by byte through the raw sequence.
        arena.append(contentsOf: key.assumingMemoryBound(to: UInt8.self))
        starts.append(arena.count)
        if number >= 0, number < max(1 << 16, 8 * (index + 1)) {
            if number >= byNumber.count {
                byNumber.append(contentsOf: repeatElement(-1, count: max(number + 1, 2 * byNumber.count) - byNumber.count))
            }
            byNumber[number] = Int32(index)
            return (index, true)
        }
        hashedCount += 1
        if 2 * hashedCount > slotCount {
            grow()
        } else {
            place(index: index, key: key, hash: hash)
        }
        return (index, true)
    }

    /// `insert(_:hash:)` for a key whose `denseSlot` was `slot` (-1 for none) at some earlier point: the dense
    /// array only grows and its entries never change once set, so a slot found then still answers now.
    /// - Complexity: O(1) when the key is in the dense array; else as `insert(_:hash:)`.
    @inline(__always)
    package mutating func insert(_ key: UnsafeRawBufferPointer, hash: UInt64, denseSlot slot: Int) -> (index: Int, inserted: Bool) {
        if slot >= 0 {
            let found = byNumber.withUnsafeBufferPointer { $0[slot] }
            if found >= 0 { return (Int(found), false) }
        }
        return insert(key, hash: hash)
    }

    /// Adds a `String` key when absent.
    /// - Complexity: amortised O(n) in the key's length, expected.
    @discardableResult
    package mutating func insert(_ key: String) -> (index: Int, inserted: Bool) {
        var key = key
        return key.withUTF8 { insert(UnsafeRawBufferPointer($0)) }
    }

    private mutating func place(index: Int, key: UnsafeRawBufferPointer, hash: UInt64) {
        let probe = Self.probeKey(key, hash: hash)
        let mask = slotCount - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[4 * slot] != 0 { slot = (slot + 1) & mask }
        slots[4 * slot] = probe.header | UInt64(index + 1)
        slots[4 * slot + 1] = probe.w1
        slots[4 * slot + 2] = probe.w2
        slots[4 * slot + 3] = probe.w3
    }

    /// Moves the tables read at random into memory advised for huge pages (`largeArray`), once
    /// the keys are all in: a table built once and then looked up millions of times.
    /// - Complexity: O(n) in the size of the tables.
    package mutating func prepareForLookups() {
        byNumber = largeArray(copying: byNumber)
    }

    private mutating func grow() { rebuild(slotCount: slotCount * 2) }

    private mutating func rebuild(slotCount newCount: Int) {
        slotCount = newCount
        slots = largeArray(repeating: 0, count: 4 * newCount)
        let arena = self.arena
        let starts = self.starts
        arena.withUnsafeBytes { bytes in
            for index in 0 ..< starts.count - 1 {
                let key = UnsafeRawBufferPointer(rebasing: bytes[starts[index] ..< starts[index + 1]])
                let number = denseNumber(key)
                if number >= 0, number < byNumber.count, byNumber[number] == Int32(index) { continue }
                place(index: index, key: key, hash: byteHash(key))
            }
        }
    }

    @inline(__always)
    private func keyEquals(_ index: Int, _ key: UnsafeRawBufferPointer) -> Bool {
        let start = starts[index], end = starts[index + 1]
        guard end - start == key.count else { return false }
        return arena.withUnsafeBytes { arena in
            UnsafeRawBufferPointer(rebasing: arena[start ..< end]).elementsEqual(key)
        }
    }
}

