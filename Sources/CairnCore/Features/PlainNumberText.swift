/// Reads the plain decimal numbers of CSV cells (`AttributeValue.inferred(from:)`'s rule: an optional `-`, digits
/// without a leading zero before another digit, an optional `.` and digits, an optional exponent) in one scan.
///
/// Why: typing every cell of an import with `Double(String)` after a separate shape check cost about 1 G instructions
/// on the GeoNames import, most of it the C library's parse of short integers. Here a number of at most 19 digits,
/// without an exponent, whose digits make an integer m ≤ 2^53 and with k ≤ 22 digits after the point, is m / 10^k
/// computed in `Double`: both are exact doubles and IEEE division rounds correctly, so the result is the correctly
/// rounded value of the text, the one `Double(String)` gives (Clinger's fast path, "How to read floating point
/// numbers accurately", PLDI 1990). Any other plain number is left to `Double(String)`.
enum PlainNumberText {
    /// What a cell's text is.
    enum Reading: Equatable {
        /// Not a plain number: text, a time, or a bool.
        case notANumber
        /// A plain number and its value.
        case number(Double)
        /// A plain number the fast path does not compute (exponent, too many digits): parse it with `Double(String)`.
        case needsParse
    }

    /// 10^k for k in 0...22, each exact in `Double`.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Reads `bytes` (UTF-8) as described above.
    /// - Complexity: O(n).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>) -> Reading {
        let count = bytes.count
        var index = 0
        let negative = count > 0 && bytes[0] == 45 // '-'
        if negative { index = 1 }
        guard index < count, bytes[index] &- 48 < 10 else { return .notANumber }
        // A leading zero followed by another digit is an identifier ("08", "007"), not a number.
        if bytes[index] == 48, index + 1 < count, bytes[index + 1] &- 48 < 10 { return .notANumber }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var seenDot = false, seenExponent = false
        var previous: UInt8 = 0
        while index < count {
            let c = bytes[index]
            let digit = c &- 48
            if digit < 10 {
                if !seenExponent {
                    // 19 digits never overflow a UInt64; longer numbers go to the slow path below.
                    if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(digit) }
                    digits += 1
                    if seenDot { fractionDigits += 1 }
                }
            } else if c == 46, !seenDot, !seenExponent { // '.'
                seenDot = true
            } else if c == 101 || c == 69 { // 'e', 'E'
                if seenExponent { return .notANumber }
                seenExponent = true
            } else if (c == 43 || c == 45), previous == 101 || previous == 69 { // '+', '-' after the exponent mark
            } else {
                return .notANumber
            }
            previous = c
            index += 1
        }
        guard previous &- 48 < 10 else { return .notANumber }
        guard !seenExponent, digits <= 19, mantissa <= 1 << 53, fractionDigits <= 22 else { return .needsParse }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
        return .number(negative ? -value : value)
    }
}
