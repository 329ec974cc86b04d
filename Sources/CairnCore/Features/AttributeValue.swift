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
        guard let first = text.utf8.first else { return nil }
        // Dispatch on the first byte: most cells are text that can be neither a number, a bool nor a time.
        switch first {
        case 48...57, 45: // a digit or '-': a number, else (digits only) maybe a time
            var bytes = text // withUTF8 makes the text contiguous first when it is not (a bridged string)
            let reading = bytes.withUTF8(PlainNumberText.read)
            switch reading {
            case .number(let value):
                return .number(value)
            case .needsParse:
                if let value = Double(text), value.isFinite { return .number(value) }
            case .notANumber:
                break
            }
            if first != 45, let time = Timestamp(iso8601: text) { return .time(time) }
            return .string(text)
        case 116, 84: // 't', 'T'
            return text == "true" || text == "TRUE" || text == "True" ? .bool(true) : .string(text)
        case 102, 70: // 'f', 'F'
            return text == "false" || text == "FALSE" || text == "False" ? .bool(false) : .string(text)
        default:
            return .string(text)
        }
    }
}
