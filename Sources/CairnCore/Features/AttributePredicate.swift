/// One attribute condition, parsed from text such as `fenced=true`, `difficulty=casual`, `rating>=4`, `hunting`,
/// `!hunting`, `interests~football` (set membership) or `startTime<2026-06-01T12:00Z`.
public struct AttributePredicate: Sendable, Equatable, CustomStringConvertible {
    /// How the attribute is compared with the value.
    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        /// The attribute (a set or a string) contains the value.
        case contains = "~"
        /// The attribute is `true` (written as the bare name).
        case isTrue = ""
        /// The attribute is absent or `false` (written `!name`).
        case isNotTrue = "!"
    }

    /// The attribute's name; `startTime`, `endTime` and `radiusMeters` refer to the feature's own fields.
    public let name: String
    /// The comparison.
    public let comparison: Comparison
    /// The text compared with, typed against each feature's value.
    public let value: String

    /// Parses a predicate.
    /// - Throws: `FilterError` when the text has no attribute name.
    /// - Complexity: O(n).
    public init(parsing text: String) throws(FilterError) {
        let trimmed = text.trimmingSpaces
        if trimmed.hasPrefix("!"), !trimmed.contains("=") {
            let name = String(trimmed.dropFirst()).trimmingSpaces
            guard !name.isEmpty else { throw .missingName(text) }
            self.init(name: name, comparison: .isNotTrue, value: "")
            return
        }
        // Longest operators first so `<=` is not read as `<`.
        for op in ["!=", "<=", ">=", "=", "<", ">", "~"] {
            if let range = trimmed.firstRange(of: op) {
                let name = String(trimmed[..<range.lowerBound]).trimmingSpaces
                guard !name.isEmpty else { throw .missingName(text) }
                let value = String(trimmed[range.upperBound...]).trimmingSpaces
                self.init(name: name, comparison: Comparison(rawValue: op) ?? .equal, value: value)
                return
            }
        }
        guard !trimmed.isEmpty else { throw .missingName(text) }
        self.init(name: trimmed, comparison: .isTrue, value: "")
    }

    /// Creates a predicate from its parts.
    public init(name: String, comparison: Comparison, value: String) {
        self.name = name
        self.comparison = comparison
        self.value = value
    }

    public var description: String {
        switch comparison {
        case .isTrue: name
        case .isNotTrue: "!" + name
        default: name + comparison.rawValue + value
        }
    }

    /// Whether `feature` satisfies the predicate.
    /// - Complexity: O(1) except set membership, O(k) in the set's size.
    public func matches(_ feature: Feature) -> Bool {
        guard let attribute = attributeValue(of: feature) else {
            return comparison == .notEqual || comparison == .isNotTrue
        }
        switch comparison {
        case .isTrue: return attribute == .bool(true)
        case .isNotTrue: return attribute != .bool(true)
        case .contains:
            switch attribute {
            case .stringSet(let members): return members.contains(value)
            case .string(let s): return s.contains(value)
            default: return false
            }
        default:
            guard let order = compare(attribute) else { return comparison == .notEqual }
            switch comparison {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            case .greaterOrEqual: return order >= 0
            default: return false
            }
        }
    }

    private func attributeValue(of feature: Feature) -> AttributeValue? {
        switch name {
        case "startTime": feature.timeWindow.map { .time($0.start) }
        case "endTime": feature.timeWindow.map { .time($0.end) }
        case "radiusMeters": feature.radiusMeters.map { .number($0) }
        default: feature.attributes[name]
        }
    }

    /// -1, 0 or 1 comparing the attribute with `value` read in the attribute's type; nil when `value` is not of that type.
    private func compare(_ attribute: AttributeValue) -> Int? {
        func order<T: Comparable>(_ a: T, _ b: T) -> Int { a < b ? -1 : (a == b ? 0 : 1) }
        switch attribute {
        case .string(let s): return order(s, value)
        case .number(let n): return Double(value).flatMap { $0.isFinite ? order(n, $0) : nil }
        case .bool(let b):
            switch value.lowercased() {
            case "true", "yes", "1": return b ? 0 : 1
            case "false", "no", "0": return b ? 1 : 0
            default: return nil
            }
        case .time(let t): return Timestamp(iso8601: value).map { order(t, $0) }
        case .stringSet(let members): return members == value.split(separator: ";").map(String.init).sorted() ? 0 : 1
        }
    }
}
