/// The one decimal parser (import's fields, check-ins' coordinates and accuracies, reference files): text is a
/// number exactly when `Double(_: String)` reads it, and its value is bit for bit the one `Double(_:)` gives
/// (so exponents, `nan`, `inf` and hexadecimal floats such as `0x1p3` are numbers; spaces are not trimmed here).
///
/// Two exact fast paths come first (Clinger, "How to Read Floating Point Numbers Accurately", PLDI 1990: an
/// integer mantissa below 2^53 over an exact power of ten is one correctly rounded division):
/// - `short`: `[-]digits[.digits]` with at most 15 digits in all, the common coordinate (inlined into callers in
///   other modules: check-in validation reads three per row);
/// - `plain`: `[+-]digits[.digits]` whose digits form an integer below 2^53 with at most 22 after the point.
/// Anything else goes to `Double(_:)`.
public enum DecimalText {
    /// The number in `bytes`, or nil when they are not one.
    /// - Complexity: O(n) in the length of the text.
    @inlinable @inline(__always)
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty else { return nil }
        return short(bytes) ?? plain(bytes) ?? Double(String(decoding: bytes, as: UTF8.self))
    }

    /// The number in `text`, or nil when it is not one.
    /// - Complexity: O(n) in the length of the text.
    public static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// `[-]digits[.digits]` with at most 15 digits in all (so the mantissa is below 2^53): the mantissa over an
    /// exact power of ten. Nil when the text is not of that form.
    /// - Complexity: O(n).
    @inlinable @inline(__always)
    static func short(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return nil }
        var i = 0
        guard let value = shortPrefix(base, &i, bytes.count), i == bytes.count else { return nil }
        return value
    }

    /// `short`'s form at the front of `base[i..<end]`, for a reader that cuts numbers out of longer text (WKT):
    /// its value, bit for bit `parse`'s, with `i` just after it; nil (and `i` anywhere) when the bytes there do
    /// not begin with that form. What may follow the number is the caller's rule.
    /// - Complexity: O(digits).
    @inlinable @inline(__always)
    public static func shortPrefix(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int) -> Double? {
        let negative = i < end && base[i] == 0x2D
        if negative { i &+= 1 }
        var mantissa: UInt64 = 0
        let integerDigits = digits(base, &i, end, into: &mantissa)
        var fractionDigits = 0
        if i < end, base[i] == 0x2E {
            i &+= 1
            fractionDigits = digits(base, &i, end, into: &mantissa)
            guard fractionDigits > 0 else { return nil }
        }
        guard integerDigits > 0, integerDigits &+ fractionDigits <= 15 else { return nil }
        let magnitude = Double(mantissa) / exactPowerOfTen(fractionDigits)
        return negative ? -magnitude : magnitude
    }

    /// Reads decimal digits from `i` (up to `end`) into `mantissa` (wrapping: the caller bounds the count);
    /// returns how many, with `i` after them.
    /// - Complexity: O(digits).
    @inlinable @inline(__always)
    static func digits(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, into mantissa: inout UInt64) -> Int {
        let start = i
        while i < end {
            let digit = base[i] &- 0x30
            if digit > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            i &+= 1
        }
        return i &- start
    }

    /// 10^n for n in 0...15, each an exact double (a switch, not a table: no global to initialise inline).
    /// - Complexity: O(1).
    @inlinable @inline(__always)
    static func exactPowerOfTen(_ n: Int) -> Double {
        switch n {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }

    /// Powers of ten that are exact doubles, 10^0 to 10^22.
    private static let exactPowersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `[+-]digits[.digits]` whose digits form an integer below 2^53 with at most 22 digits after the point,
    /// or nil for anything else.
    /// - Complexity: O(n).
    @usableFromInline
    static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
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
}
