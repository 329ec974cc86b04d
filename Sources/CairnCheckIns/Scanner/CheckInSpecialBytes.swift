
/// The bytes that matter to the CSV scanner (`,`, line feed, `"`), found eight at a time (SWAR): a mask with
/// the high bit set in each such byte's lane, byte k of the word in lane k (little-endian loads).
enum CheckInSpecialBytes {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F

    /// The mask of the eight bytes at `bytes` (read unaligned). Exact, lane by lane: on the low 7 bits of each
    /// byte, `(y ^ c) + 0x7F` sets the lane's high bit unless the bits equal `c`'s, and never carries out of
    /// the lane; a byte matches when that bit is clear for some `c` and its own high bit is clear (all three
    /// bytes are ASCII).
    /// - Complexity: O(1).
    @inline(__always)
    static func mask(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        let y = word & low7
        let differs = ((y ^ (ones &* 0x2C)) &+ low7) & ((y ^ (ones &* 0x0A)) &+ low7) & ((y ^ (ones &* 0x22)) &+ low7)
        return ~(differs | word) & ~low7
    }

    /// The mask of the eight bytes at `bytes` for `"` and line feed only (inside a quoted field a `,` is text),
    /// exact as `mask(_:)`.
    /// - Complexity: O(1).
    @inline(__always)
    static func quoteOrLineFeedMask(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        let word = UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
        let y = word & low7
        let differs = ((y ^ (ones &* 0x0A)) &+ low7) & ((y ^ (ones &* 0x22)) &+ low7)
        return ~(differs | word) & ~low7
    }

    /// The mask of `count` (< 8) bytes at `bytes`, read one by one (the end of a buffer).
    /// - Complexity: O(count).
    @inline(__always)
    static func mask(_ bytes: UnsafePointer<UInt8>, count: Int) -> UInt64 {
        var mask: UInt64 = 0
        for k in 0..<count {
            let c = bytes[k]
            if c == 0x2C || c == 0x0A || c == 0x22 { mask |= 0x80 << UInt64(8 * k) }
        }
        return mask
    }
}
