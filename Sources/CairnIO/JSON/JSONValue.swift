/// A parsed JSON value (RFC 8259), as the JSON readers hand it to the feature decoders.
///
/// Objects keep their members in input order. `JSONParser` refuses a repeated key, so a parsed object has one member
/// of each name; for a value built in code that repeats one, lookups take the first.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])

    /// The first member named `key` when this is an object, else nil.
    /// - Complexity: O(n) in the number of members.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for member in members where member.key == key { return member.value }
        return nil
    }

    /// The value's kind as a phrase for messages: `an object`, `a string`, ...
    /// - Complexity: O(1).
    public var kindPhrase: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// Compact JSON text for the value (`TextEscaping`'s string escapes and number rule).
    /// - Complexity: O(n) in the size of the value.
    public var jsonText: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the compact JSON text of the value to `out`.
    /// - Complexity: O(n) in the size of the value.
    public func append(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): TextEscaping.appendJSONNumber(n, to: &out)
        case .string(let s): TextEscaping.appendJSONString(s, to: &out)
        case .array(let values):
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                value.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                TextEscaping.appendJSONString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
