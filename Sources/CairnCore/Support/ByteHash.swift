/// A 64-bit hash of a byte string: 8 bytes at a time, multiply-xorshift mixing, MurmurHash3's `fmix64` at the end.
/// Not cryptographic; ids from users may collide on purpose only at the cost of a longer probe.
/// - Complexity: O(n) in the length.
@inlinable @inline(__always)
package func byteHash(_ key: UnsafeRawBufferPointer) -> UInt64 {
    var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: key.count)
    guard let base = key.baseAddress else { return fmix64(h) }
    let count = key.count
    var i = 0
    while i + 8 <= count {
        h = (h ^ base.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 32
        i += 8
    }
    if i < count {
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while i < count {
            tail |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
            shift += 8
            i += 1
        }
        h = (h ^ tail) &* 0xFF51_AFD7_ED55_8CCD
    }
    return fmix64(h)
}

/// MurmurHash3's 64-bit finaliser (a bijection that spreads every input bit).
/// - Complexity: O(1).
@inlinable @inline(__always)
package func fmix64(_ value: UInt64) -> UInt64 {
    var h = value
    h ^= h >> 33
    h &*= 0xC4CE_B9FE_1A85_EC53
    h ^= h >> 29
    h &*= 0xFF51_AFD7_ED55_8CCD
    h ^= h >> 32
    return h
}

