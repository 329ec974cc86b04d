import CairnCore
import CairnIO

/// The text stored in the `attributes` column: one JSON object mapping each attribute name to its typed value,
/// chosen so that every `AttributeValue` reads back exactly equal and stays usable from SQL (`json_extract`).
///
/// | type | JSON | example |
/// |---|---|---|
/// | string | string | `"difficulty":"casual"` |
/// | number | number by CairnIO's number rule (`TextEscaping`: shortest round-trip, integers without `.0`, `-0`) | `"lengthMiles":2.5` |
/// | bool | `true` / `false` | `"fenced":true` |
/// | time | object `{"time": seconds since 1970 UTC}`, a number as above, so fractions survive | `"seen":{"time":1714588200.25}` |
/// | string set | array of strings, in the set's (sorted) order | `"ageGroups":["baby","toddler"]` |
///
/// Keys are written in ascending order, so the same attributes always give the same bytes. Writing and reading go
/// through CairnIO's one JSON escaper and one JSON reader (`TextEscaping`, `JSONParser`): non-ASCII text is raw
/// UTF-8, only `"`, `\` and control characters are escaped; the reader accepts any standard JSON spelling of these
/// shapes (escapes, `\u` surrogate pairs, whitespace) and refuses every other shape.
public enum AttributeJSON {
    /// The key of the one-member object that marks a time.
    static let timeKey = "time"

    /// Encodes attributes as described above.
    /// - Complexity: O(a log a + n): sorting the a names, then linear in the encoded size n.
    public static func encode(_ attributes: [String: AttributeValue]) -> String {
        if attributes.isEmpty { return "{}" }
        var out: [UInt8] = []
        out.reserveCapacity(32 * attributes.count)
        encode(attributes, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the encoding of `attributes` to `out`.
    /// - Complexity: O(a log a + n).
    static func encode(_ attributes: [String: AttributeValue], into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        var first = true
        // The pairs sorted by name, not the names sorted and each looked up again: one hash a name less per row.
        var pairs = Array(attributes)
        if pairs.count > 1 { pairs.sort { $0.key < $1.key } }
        for (name, value) in pairs {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            TextEscaping.appendJSONString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .string(let s):
                TextEscaping.appendJSONString(s, to: &out)
            case .number(let n):
                // Feature refuses non-finite numbers; a non-finite one would be written as null, which the
                // reader refuses loudly.
                TextEscaping.appendJSONNumber(n, to: &out)
            case .bool(let b):
                out.append(contentsOf: (b ? "true" : "false").utf8)
            case .time(let t):
                out.append(contentsOf: #"{"time":"#.utf8)
                TextEscaping.appendJSONNumber(t.secondsSince1970, to: &out)
                out.append(UInt8(ascii: "}"))
            case .stringSet(let members):
                out.append(UInt8(ascii: "["))
                for (index, member) in members.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    TextEscaping.appendJSONString(member, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes attributes written by `encode` (or any JSON of the same shapes); a name given twice keeps its last
    /// value.
    /// - Throws: `AttributeJSONError` saying where and what was expected.
    /// - Complexity: O(n) in the length of the text.
    public static func decode(_ text: String) throws(AttributeJSONError) -> [String: AttributeValue] {
        if text == "{}" { return [:] }
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw AttributeJSONError(detail: error.description)
        }
        guard case .object(let members) = value else {
            throw AttributeJSONError(detail: "expected an object of attributes, got \(value.kindPhrase)")
        }
        var result: [String: AttributeValue] = [:]
        result.reserveCapacity(members.count)
        for member in members {
            result[member.key] = try attribute(member.value, name: member.key)
        }
        return result
    }

    /// The attribute a member's value spells.
    private static func attribute(_ value: JSONValue, name: String) throws(AttributeJSONError) -> AttributeValue {
        switch value {
        case .string(let s):
            return .string(s)
        case .bool(let b):
            return .bool(b)
        case .number(let n):
            guard n.isFinite else { throw AttributeJSONError(detail: "attribute '\(name)': the number is out of range") }
            return .number(n)
        case .array(let values):
            var members: [String] = []
            members.reserveCapacity(values.count)
            for element in values {
                guard case .string(let s) = element else {
                    throw AttributeJSONError(detail: "attribute '\(name)': a string set holds only strings, got \(element.kindPhrase)")
                }
                members.append(s)
            }
            return .stringSet(members)
        case .object(let members):
            guard members.count == 1, members[0].key == timeKey, case .number(let seconds) = members[0].value, seconds.isFinite else {
                throw AttributeJSONError(detail: "attribute '\(name)': an object must be a time, {\"time\": seconds}")
            }
            return .time(Timestamp(secondsSince1970: seconds))
        case .null:
            throw AttributeJSONError(detail: "attribute '\(name)': null is not an attribute value")
        }
    }
}

/// Why an `attributes` text could not be read back.
public struct AttributeJSONError: Error, CustomStringConvertible {
    /// Where reading stopped and what was expected there.
    let detail: String

    public var description: String { "attributes JSON: \(detail)" }
}
