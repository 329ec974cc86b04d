/// One member of a JSON object.
public struct JSONMember: Hashable, Sendable {
    /// The member's name.
    public var key: String
    /// The member's value.
    public var value: JSONValue
    /// A number value's text as written (`12345678901234567890`, `1.0`), nil for other values. Ids are read
    /// from it: a Double cannot hold every integer id, and an id is a label, not a quantity. Equality and hashing
    /// ignore it: `1` and `1.0` are the same JSON value.
    public var numberText: String? = nil

    /// A member; `numberText` is the number's text as written, when the value is a number read from text.
    /// - Complexity: O(1).
    public init(key: String, value: JSONValue, numberText: String? = nil) {
        self.key = key
        self.value = value
        self.numberText = numberText
    }

    public static func == (lhs: JSONMember, rhs: JSONMember) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}
