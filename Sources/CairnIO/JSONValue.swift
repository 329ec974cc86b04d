/// A parsed JSON value (RFC 8259), as the JSON readers hand it to the feature decoders.
///
/// Objects keep their members in input order; lookups take the first member of a name.
enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The first member named `key` when this is an object, else nil.
    /// - Complexity: O(n) in the number of members.
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The value's kind as a phrase for messages: `an object`, `a string`, ...
    var kindPhrase: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Compact JSON text for the value (strings escaped per RFC 8259; integral numbers without a fraction).
    /// - Complexity: O(n) in the size of the value.
    var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n):
            if n.isFinite, n == n.rounded(), abs(n) < 1e15 { out += String(Int64(n)) } else { out += String(n) }
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let values):
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                value.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ s: String, to out: inout String) {
        out += TextEscaping.jsonString(s)
    }
}

/// One member of a JSON object.
struct JSONMember: Hashable, Sendable {
    var key: String
    var value: JSONValue
    /// A number value's text as written (`12345678901234567890`, `1.0`), nil for other values. Ids are read
    /// from it: a Double cannot hold every integer id, and an id is a label, not a quantity. Equality and hashing
    /// ignore it: `1` and `1.0` are the same JSON value.
    var numberText: String? = nil

    static func == (lhs: JSONMember, rhs: JSONMember) -> Bool { lhs.key == rhs.key && lhs.value == rhs.value }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(value)
    }
}
