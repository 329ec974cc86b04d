import CairnCore
import CairnIO

/// Reading numbers from bytes by CairnIO's rule (`parseDecimal`, the rule `cairn import` follows): exactly as
/// `Double(_: String)` would, so exponents and hexadecimal floats (`0x1p3`) are numbers in both.
enum CheckInNumberText {
    /// The number in `bytes` (surrounding spaces allowed), or nil when it is not one. `nan`, `inf` and
    /// `infinity` (any case, signed) are numbers here, so that the validator can call them invalid coordinates.
    /// Plain decimals take CairnIO's exact fast path (`parsePlainDecimal`); anything else `parseDecimal`.
    /// - Complexity: O(n).
    @inline(__always)
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 { end -= 1 }
        guard start < end else { return nil }
        return short(bytes, start, end) ?? parsePlainDecimal(UnsafeBufferPointer(rebasing: bytes[start..<end])) ?? slow(bytes, start, end)
    }

    /// `[-]digits[.digits]` with at most 15 digits in all (so the mantissa is below 2^53): the mantissa over an
    /// exact power of ten, one correctly rounded division, the value `parsePlainDecimal` gives by the same rule
    /// (it stays the path for everything else). Nil when the text is not of that form.
    /// - Complexity: O(n).
    @inline(__always)
    static func short(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let base = bytes.baseAddress, start < end else { return nil }
        var i = start
        let negative = base[i] == 0x2D
        if negative { i &+= 1 }
        var mantissa: UInt64 = 0
        let integerDigits = digits(base, &i, end, into: &mantissa)
        var fractionDigits = 0
        if i < end, base[i] == 0x2E {
            i &+= 1
            fractionDigits = digits(base, &i, end, into: &mantissa)
            guard fractionDigits > 0 else { return nil }
        }
        guard i == end, integerDigits > 0, integerDigits &+ fractionDigits <= 15 else { return nil }
        let magnitude = Double(mantissa) / exactPowerOfTen(fractionDigits)
        return negative ? -magnitude : magnitude
    }

    /// Reads decimal digits from `i` (up to `end`) into `mantissa` (wrapping: the caller bounds the count);
    /// returns how many, with `i` after them.
    @inline(__always)
    private static func digits(_ base: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, into mantissa: inout UInt64) -> Int {
        let start = i
        while i < end {
            let digit = base[i] &- 0x30
            if digit > 9 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            i &+= 1
        }
        return i &- start
    }

    /// 10^n for n in 0...15, each an exact double.
    @inline(__always)
    private static func exactPowerOfTen(_ n: Int) -> Double {
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

    private static func slow(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        switch text.lowercased() {
        case "nan", "+nan", "-nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: break
        }
        return parseDecimal(text)
    }
}

/// Writing numbers and ids into output bytes.
enum CheckInNumberFormat {
    /// Appends a non-negative distance rounded up to the millimetre, with three decimals (`1234.568`).
    /// Rounding up keeps a printed `outside_radius` distance above the radius.
    /// - Complexity: O(digits).
    @inline(__always)
    static func appendMillimetresUp(_ meters: Double, to out: inout [UInt8]) {
        let millimetres = (meters * 1000).rounded(.up)
        guard millimetres.isFinite, millimetres >= 0, millimetres < 9e18 else {
            out.append(contentsOf: String(meters).utf8)
            return
        }
        var whole = UInt64(millimetres)
        // Rounding the product may land a hair below the exact value's ceiling; never print less than `meters`.
        if Double(whole) / 1000 < meters { whole += 1 }
        appendInteger(whole / 1000, to: &out)
        out.append(0x2E)
        let fraction = whole % 1000
        out.append(UInt8(0x30 + fraction / 100))
        out.append(UInt8(0x30 + fraction / 10 % 10))
        out.append(UInt8(0x30 + fraction % 10))
    }

    /// Appends an unsigned integer in decimal.
    @inline(__always)
    static func appendInteger(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(UInt8(0x30 + value))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { d in
            while v > 0 {
                d[n] = UInt8(0x30 + v % 10)
                v /= 10
                n += 1
            }
            while n > 0 {
                n -= 1
                out.append(d[n])
            }
        }
    }

    /// A number as text: integers without a fraction, others in Swift's shortest round-trip form.
    static func shortest(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

/// Reading check-in times from bytes.
enum CheckInTimeText {
    /// Seconds since 1970 for ISO 8601 text, exactly as `Timestamp(iso8601Bytes:)` reads it, with a fast path
    /// for the common `YYYY-MM-DDTHH:MM:SSZ` (day of month up to 28, so no calendar check is needed); spaces
    /// and tabs around it are ignored, as around numbers; NaN when the text is not a time.
    /// - Complexity: O(n).
    @inline(__always)
    static func seconds(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        var b = text
        if let first = b.first, first == 0x20 || first == 0x09 || b.last == 0x20 || b.last == 0x09 {
            var start = 0, end = b.count
            while start < end, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
            while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
            b = UnsafeBufferPointer(rebasing: b[start..<end])
        }
        if b.count == 20, let base = b.baseAddress,
           b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x5A {
            @inline(__always) func d(_ i: Int) -> Int64 { Int64(b[i]) &- 0x30 }
            // The 14 digits, checked eight bytes at a time: bytes 0-7, 8-15 and 12-19, each with a mask of its
            // digit lanes (byte k of a word in lane k).
            let raw = UnsafeRawPointer(base)
            let plain = Self.nonDigitLanes(raw.loadUnaligned(as: UInt64.self), digits: 0x00FF_FF00_FFFF_FFFF)
                | Self.nonDigitLanes(raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self), digits: 0xFFFF_00FF_FF00_FFFF)
                | Self.nonDigitLanes(raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self), digits: 0x00FF_FF00_FFFF_00FF) == 0
            if plain {
                let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
                let month = d(5) * 10 + d(6), day = d(8) * 10 + d(9)
                let hour = d(11) * 10 + d(12), minute = d(14) * 10 + d(15), second = d(17) * 10 + d(18)
                if month >= 1, month <= 12, day >= 1, day <= 28, hour < 24, minute < 60, second < 61 {
                    // Hinnant's days_from_civil, as Timestamp computes it; every term is an exact double.
                    let y = month <= 2 ? year - 1 : year
                    let era = (y >= 0 ? y : y - 399) / 400
                    let yoe = y - era * 400
                    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
                    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
                    let days = era * 146_097 + doe - 719_468
                    return Double(days * 86_400 + hour * 3600 + minute * 60 + second)
                }
            }
        }
        return Timestamp(iso8601Bytes: b)?.secondsSince1970 ?? .nan
    }

    /// Non-zero when a lane of `digits` (0xFF lanes) in the little-endian `word` is not an ASCII digit: a digit
    /// has high nibble 3 and a low nibble that stays below 16 when 6 is added (no carry leaves a lane).
    /// - Complexity: O(1).
    @inline(__always)
    static func nonDigitLanes(_ word: UInt64, digits: UInt64) -> UInt64 {
        let w = UInt64(littleEndian: word)
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, low: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        return (((w & high) ^ 0x3030_3030_3030_3030) | (((w & low) &+ 0x0606_0606_0606_0606) & high)) & digits
    }
}
