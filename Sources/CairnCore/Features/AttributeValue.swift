/// A typed attribute of a feature: the values that filters compare.
public enum AttributeValue: Hashable, Sendable, CustomStringConvertible {
    /// Free text.
    case string(String)
    /// A finite number (unit in the attribute's name, e.g. `lengthMiles`).
    case number(Double)
    /// A yes/no amenity such as `fenced`.
    case bool(Bool)
    /// An instant.
    case time(Timestamp)
    /// A set of tags such as `ageGroups` or `interests`, kept sorted and without repeats.
    case stringSet([String])

    /// Makes a string set from any strings: sorted, duplicates removed.
    /// - Complexity: O(n log n).
    public static func set(_ values: some Sequence<String>) -> AttributeValue {
        .stringSet(Array(Set(values)).sorted())
    }

    /// The type's name as used in messages and in the store: `string`, `number`, `bool`, `time`, `set`.
    public var typeName: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .bool: "bool"
        case .time: "time"
        case .stringSet: "set"
        }
    }

    public var description: String {
        switch self {
        case .string(let s): s
        case .number(let n): formatNumber(n)
        case .bool(let b): b ? "true" : "false"
        case .time(let t): t.iso8601
        case .stringSet(let values): values.joined(separator: ";")
        }
    }

    /// Infers a typed value from text the way CSV cells are read:
    /// `true`/`false` → bool; a plain decimal number (no leading zeros such as `08`, which stays text, no `+`,
    /// no `nan`/`inf`) → number; an ISO 8601 date or date-time → time; anything else → string.
    /// Empty text gives nil (an absent attribute).
    /// - Complexity: O(n).
    public static func inferred(from text: String) -> AttributeValue? {
        if text.isEmpty { return nil }
        switch text {
        case "true", "TRUE", "True": return .bool(true)
        case "false", "FALSE", "False": return .bool(false)
        default: break
        }
        if looksLikePlainNumber(text), let value = Double(text), value.isFinite { return .number(value) }
        if let first = text.utf8.first, first >= 48, first <= 57, let time = Timestamp(iso8601: text) { return .time(time) }
        return .string(text)
    }

    private static func looksLikePlainNumber(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        if bytes.first == 45 { bytes = bytes.dropFirst() } // '-'
        guard let first = bytes.first, first >= 48, first <= 57 else { return false }
        // A leading zero followed by another digit is an identifier ("08", "007"), not a number.
        if first == 48, bytes.count > 1, let second = bytes.dropFirst().first, second >= 48, second <= 57 { return false }
        var seenDot = false, seenExponent = false
        var previous: UInt8 = 0
        for c in bytes {
            switch c {
            case 48...57: break
            case 46 where !seenDot && !seenExponent: seenDot = true // '.'
            case 101, 69: // 'e', 'E'
                if seenExponent { return false }
                seenExponent = true
            case 43 where previous == 101 || previous == 69, 45 where previous == 101 || previous == 69: break
            default: return false
            }
            previous = c
        }
        return previous >= 48 && previous <= 57
    }
}
