/// Parses a decimal number, exactly as `Double(_: String)` would, taking a fast path for plain decimals.
///
/// Plain text `[+-]digits[.digits]` whose digits form an integer below 2^53 with at most 22 digits after the point
/// is converted with one IEEE division of two exactly representable doubles, which is correctly rounded
/// (Clinger, "How to Read Floating Point Numbers Accurately", PLDI 1990, the fast path). Anything else
/// (exponents, more digits, `nan`, hex) goes to `Double(_:)`.
/// - Complexity: O(n) in the length of the text.
package func parseDecimal(_ text: String) -> Double? {
    var text = text
    if let fast = text.withUTF8({ parsePlainDecimal($0) }) { return fast }
    return Double(text)
}

/// Powers of ten that are exact doubles.
private let exactPowersOfTen: [Double] = (0...22).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
}

/// The fast path of `parseDecimal`, or nil when the text is not a plain decimal it can convert exactly.
package func parsePlainDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let count = bytes.count
    var negative = false
    if index < count, bytes[index] == 0x2D || bytes[index] == 0x2B { // '-' or '+'
        negative = bytes[index] == 0x2D
        index += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0, fractionDigits = 0, integerDigits = 0
    var seenPoint = false
    while index < count {
        let byte = bytes[index]
        if byte >= 0x30 && byte <= 0x39 {
            digits += 1
            if digits > 19 { return nil } // could overflow UInt64
            mantissa = mantissa * 10 + UInt64(byte - 0x30)
            if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
        } else if byte == 0x2E && !seenPoint { // '.'
            seenPoint = true
        } else {
            return nil
        }
        index += 1
    }
    guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return nil }
    guard mantissa < (1 << 53), fractionDigits <= 22 else { return nil }
    let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
    return negative ? -magnitude : magnitude
}
