/// An instant, as seconds since 1970-01-01T00:00:00Z (UTC), without leap seconds.
///
/// Held as a `Double`: whole seconds exactly, fractions to about 0.24 µs for instants of this century (the spacing
/// of doubles near 1.8e9), so two instants closer than that may compare equal.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch; may be fractional or negative.
    public var secondsSince1970: Double

    /// Creates an instant from seconds since the Unix epoch.
    /// - Complexity: O(1).
    public init(secondsSince1970: Double) { self.secondsSince1970 = secondsSince1970 }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// Parses ISO 8601 / RFC 3339 text: `2026-05-01`, `2026-05-01T18:30`, `2026-05-01T18:30:00Z`,
    /// `2026-05-01 18:30:00.250+02:00`. A time without a zone is read as UTC; fractions are read to the
    /// nanosecond (later digits are ignored), and one instant gives the same value whatever offset writes it.
    /// Returns nil for anything else.
    /// - Complexity: O(n) in the length of the text.
    public init?(iso8601 text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard let seconds = utf8.withUnsafeBufferPointer({ Timestamp.seconds(iso8601Bytes: $0) }) else { return nil }
        self.secondsSince1970 = seconds
    }

    /// Parses ISO 8601 from raw UTF-8 bytes (no allocation).
    /// - Complexity: O(n).
    public init?(iso8601Bytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let seconds = Timestamp.seconds(iso8601Bytes: bytes) else { return nil }
        self.secondsSince1970 = seconds
    }

    /// Seconds since 1970 for ISO 8601 bytes, by the rule of `init?(iso8601:)`, or nil when they are not a time:
    /// the one ISO 8601 parser (import, check-ins, events). The common `YYYY-MM-DDTHH:MM:SSZ` takes a fast path
    /// (its digits checked eight bytes at a time; the month's length checked only past the 28th),
    /// inlined into callers in other modules because check-in validation reads one per row.
    /// - Complexity: O(n) in the length of the text.
    @inlinable
    public static func seconds(iso8601Bytes bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if bytes.count == 20, let fast = secondsOfPlainUTC(bytes) { return fast }
        return parse(bytes)
    }

    /// The fast path of `seconds(iso8601Bytes:)` for 20 bytes: nil when they are not `YYYY-MM-DDTHH:MM:SSZ`
    /// with a day of the month, or fall before 0000-03-01 (the general parser then decides, and words the error).
    /// The text is read as three little-endian words (bytes 0-7, 8-15, 12-19): separators and digits are checked
    /// lane-wise, and every sum is wrapping, as the checked digits bound each value far below overflow; it is the
    /// one parse per check-in row and two per event.
    /// - Complexity: O(1).
    @inlinable
    static func secondsOfPlainUTC(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        guard b.count == 20, let base = b.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let w0 = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let w1 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        let w2 = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self))
        // '-' at bytes 4 and 7 (lanes 4, 7 of w0), 'T' at 10 and ':' at 13 (lanes 2, 5 of w1), ':' at 16 and
        // 'Z' at 19 (lanes 4, 7 of w2); then the 14 digits, each word with a mask of its digit lanes.
        guard w0 & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000,
              w1 & 0x0000_FF00_00FF_0000 == 0x0000_3A00_0054_0000,
              w2 & 0xFF00_00FF_0000_0000 == 0x5A00_003A_0000_0000,
              nonDigitLanes(w0, digits: 0x00FF_FF00_FFFF_FFFF) | nonDigitLanes(w1, digits: 0xFFFF_00FF_FF00_FFFF)
                | nonDigitLanes(w2, digits: 0x00FF_FF00_FFFF_00FF) == 0 else { return nil }
        // A checked digit lane's value is its low nibble.
        @inline(__always) func d(_ word: UInt64, _ lane: UInt64) -> Int { Int(truncatingIfNeeded: (word >> (8 &* lane)) & 0x0F) }
        let year = d(w0, 0) &* 1000 &+ d(w0, 1) &* 100 &+ d(w0, 2) &* 10 &+ d(w0, 3)
        let month = d(w0, 5) &* 10 &+ d(w0, 6), day = d(w1, 0) &* 10 &+ d(w1, 1)
        let hour = d(w1, 3) &* 10 &+ d(w1, 4), minute = d(w1, 6) &* 10 &+ d(w1, 7), second = d(w2, 5) &* 10 &+ d(w2, 6)
        guard month >= 1, month <= 12, day >= 1, hour < 24, minute < 60, second < 61 else { return nil }
        // The month's length, only past the 28th: 31 for odd months to July and even ones from August,
        // February's by the Gregorian rule.
        if day > 28 {
            let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            guard day <= (month == 2 ? (isLeap ? 29 : 28) : 30 &+ ((month &+ month >> 3) & 1)) else { return nil }
        }
        // Hinnant's days_from_civil (as `days(fromYear:month:day:)`) for a March-based year y >= 0, where its
        // eras sum to 365y + y/4 - y/100 + y/400: unsigned, so each division is a multiply and a shift.
        guard month > 2 || year > 0 else { return nil }
        let y = UInt(truncatingIfNeeded: month <= 2 ? year &- 1 : year)
        let marchMonth = UInt(truncatingIfNeeded: month > 2 ? month &- 3 : month &+ 9)
        let dayOfYear = (153 &* marchMonth &+ 2) / 5 &+ UInt(truncatingIfNeeded: day) &- 1
        let days = Int(truncatingIfNeeded: 365 &* y &+ y / 4 &- y / 100 &+ y / 400 &+ dayOfYear) &- 719_468
        return Double(days &* 86_400 &+ hour &* 3600 &+ minute &* 60 &+ second)
    }

    /// Non-zero when a lane of `digits` (0xFF lanes) in the little-endian `word` is not an ASCII digit: a digit
    /// has high nibble 3 and a low nibble that stays below 16 when 6 is added (no carry leaves a lane).
    /// - Complexity: O(1).
    @inlinable
    static func nonDigitLanes(_ word: UInt64, digits: UInt64) -> UInt64 {
        let w = UInt64(littleEndian: word)
        let high: UInt64 = 0xF0F0_F0F0_F0F0_F0F0, low: UInt64 = 0x0F0F_0F0F_0F0F_0F0F
        return (((w & high) ^ 0x3030_3030_3030_3030) | (((w & low) &+ 0x0606_0606_0606_0606) & high)) & digits
    }

    /// The instants ISO 8601 text can write with four-digit years: 0000-01-01T00:00:00Z up to 9999-12-31T23:59:59Z.
    public static let representableSeconds: ClosedRange<Double> = -62_167_219_200 ... 253_402_300_799

    /// The instant as `YYYY-MM-DDTHH:MM:SSZ` (with milliseconds when it has a fraction); an instant outside
    /// `representableSeconds` (or not finite) is written as its number of seconds.
    public var iso8601: String {
        guard Self.representableSeconds.contains(secondsSince1970) else { return String(secondsSince1970) }
        let total = secondsSince1970.rounded(.down)
        var fraction = secondsSince1970 - total
        var secondsOfDay = Int64(total) % 86_400
        var days = Int64(total) / 86_400
        if secondsOfDay < 0 { secondsOfDay += 86_400; days -= 1 }
        let (year, month, day) = Timestamp.civil(fromDays: days)
        let hour = secondsOfDay / 3600, minute = secondsOfDay / 60 % 60, second = secondsOfDay % 60
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        fraction = (fraction * 1000).rounded()
        if fraction > 0, fraction < 1000 { text += "." + pad(Int64(fraction), 3) }
        return text + "Z"
    }

    public var description: String { iso8601 }

    // MARK: - Parsing

    /// The general parser (every form `init?(iso8601:)` lists).
    @usableFromInline
    static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = b.count
        func digits(_ count: Int) -> Int64? {
            guard i + count <= n else { return nil }
            var value: Int64 = 0
            for k in 0..<count {
                let c = b[i + k]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int64(c - 48)
            }
            i += count
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < n, b[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = digits(4), expect(45), let month = digits(2), expect(45), let day = digits(2) else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        // Whole seconds are summed as integers (offset included) and the fraction is added once, last: the same
        // instant written with any offset gives the same Double.
        var wholeSeconds = days(fromYear: year, month: month, day: day) * 86_400
        if i == n { return Double(wholeSeconds) }
        guard b[i] == 84 || b[i] == 116 || b[i] == 32 else { return nil } // 'T', 't' or ' '
        i += 1
        guard let hour = digits(2), expect(58), let minute = digits(2), hour < 24, minute < 60 else { return nil }
        wholeSeconds += hour * 3600 + minute * 60
        var fraction: Int64 = 0, scale: Int64 = 1
        if expect(58) {
            guard let whole = digits(2), whole < 61 else { return nil }
            wholeSeconds += whole
            if i < n, b[i] == 46 || b[i] == 44 { // '.' or ','
                i += 1
                let start = i
                // Nanoseconds: digits past the ninth are read and ignored.
                while i < n, b[i] >= 48, b[i] <= 57 {
                    if scale < 1_000_000_000 { fraction = fraction * 10 + Int64(b[i] - 48); scale *= 10 }
                    i += 1
                }
                guard i > start else { return nil }
            }
        }
        func total() -> Double { Double(wholeSeconds) + Double(fraction) / Double(scale) }
        if i == n { return total() }
        if b[i] == 90 || b[i] == 122 { i += 1; return i == n ? total() : nil } // 'Z'
        guard b[i] == 43 || b[i] == 45 else { return nil } // '+' or '-'
        let sign: Int64 = b[i] == 43 ? 1 : -1
        i += 1
        guard let offsetHours = digits(2), offsetHours <= 18 else { return nil }
        var offsetMinutes: Int64 = 0
        if i < n {
            _ = expect(58)
            guard let m = digits(2), m < 60 else { return nil }
            offsetMinutes = m
        }
        guard i == n else { return nil }
        wholeSeconds -= sign * (offsetHours * 3600 + offsetMinutes * 60)
        return total()
    }

    private static func isLeap(_ year: Int64) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(fromYear y0: Int64, month m: Int64, day d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `days(fromYear:month:day:)` (Hinnant's `civil_from_days`).
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
