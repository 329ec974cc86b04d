extension DecimalText {
    /// The common coordinate at `base[i...]`, `[-]d.d` with 1 to 7 digits on each side of the point, read with
    /// two eight-byte loads instead of a loop per digit: its value (bit for bit `shortPrefix`'s: the same
    /// mantissa over the same power of ten) with `i` just after it, or nil (and `i` unchanged) when the bytes
    /// there are not of that form, when a digit follows the 7th, or when fewer than 17 bytes are left before
    /// `end` (the loads must stay inside). What may follow the number is the caller's rule, as for
    /// `shortPrefix`, which a caller tries next when this is nil.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    public static func coordinatePrefix(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Double? {
        var at = i
        guard end &- at >= 17 else { return nil }
        let negative = base[at] == 0x2D
        if negative { at &+= 1 }
        let integer = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
        let integerDigits = leadingDigitCount(integer)
        guard integerDigits > 0, integerDigits < 8, base[at &+ integerDigits] == 0x2E else { return nil }
        at &+= integerDigits &+ 1
        let fraction = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
        let fractionDigits = leadingDigitCount(fraction)
        guard fractionDigits > 0, fractionDigits < 8 else { return nil }
        let mantissa = leadingDigitsValue(integer, count: integerDigits) &* UInt64(exactPowerOfTen(fractionDigits))
            &+ leadingDigitsValue(fraction, count: fractionDigits)
        i = at &+ fractionDigits
        let magnitude = Double(mantissa) / exactPowerOfTen(fractionDigits)
        return negative ? -magnitude : magnitude
    }

    /// How many of the eight bytes of `word` (the first in memory in the low byte) are decimal digits before the
    /// first that is not (0 to 8).
    ///
    /// A byte is a digit when its high nibble is 3 both as it is and after adding 6 (0x3A–0x3F become 0x40–0x45).
    /// Adding 6 to a byte of 0xFA or more carries into the next byte, and subtracting wraps, but only from a byte
    /// that is not a digit, so the run before it is read right.
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func leadingDigitCount(_ word: UInt64) -> Int {
        let nibbles: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, threes: UInt64 = 0x3030_3030_3030_3030
        let notDigit = ((word & nibbles) ^ threes) | (((word &+ 0x0606_0606_0606_0606) & nibbles) ^ threes)
        return notDigit == 0 ? 8 : notDigit.trailingZeroBitCount >> 3
    }

    /// The integer the first `count` bytes of `word` spell (1 to 8 decimal digits, the first in the low byte):
    /// the digits moved to the top bytes (zeros before them), then pairs, quads and octets combined by three
    /// multiplications (Lemire, "Fast number parsing", 2021).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func leadingDigitsValue(_ word: UInt64, count: Int) -> UInt64 {
        var value = (word &- 0x3030_3030_3030_3030) &<< UInt64(64 &- 8 &* count)
        value = ((value & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
        value = ((value & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
        return ((value & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
    }
}
