import CairnCore

/// The text stored in the `attributes` column: one JSON object mapping each attribute name to its typed value,
/// chosen so that every `AttributeValue` reads back exactly equal and stays usable from SQL (`json_extract`).
///
/// | type | JSON | example |
/// |---|---|---|
/// | string | string | `"difficulty":"casual"` |
/// | number | number, shortest text that reads back to the same `Double` (integers without `.0`) | `"lengthMiles":2.5` |
/// | bool | `true` / `false` | `"fenced":true` |
/// | time | object `{"time": seconds since 1970 UTC}`, a number as above, so fractions survive | `"seen":{"time":1714588200.25}` |
/// | string set | array of strings, in the set's (sorted) order | `"ageGroups":["baby","toddler"]` |
///
/// Keys are written in ascending order, so the same attributes always give the same bytes. Non-ASCII text is written
/// as raw UTF-8; only `"`, `\` and control characters are escaped. The reader accepts any standard JSON spelling of
/// these shapes (escapes, `\u` surrogate pairs, whitespace) and refuses every other shape.
enum AttributeJSON {
    /// The key of the one-member object that marks a time.
    static let timeKey = "time"

    /// Encodes attributes as described above.
    /// - Complexity: O(a log a + n): sorting the a names, then linear in the encoded size n.
    static func encode(_ attributes: [String: AttributeValue]) -> String {
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
        for name in attributes.keys.sorted() {
            guard let value = attributes[name] else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            switch value {
            case .string(let s):
                appendString(s, to: &out)
            case .number(let n):
                appendNumber(n, to: &out)
            case .bool(let b):
                out.append(contentsOf: (b ? "true" : "false").utf8)
            case .time(let t):
                out.append(contentsOf: #"{"time":"#.utf8)
                appendNumber(t.secondsSince1970, to: &out)
                out.append(UInt8(ascii: "}"))
            case .stringSet(let members):
                out.append(UInt8(ascii: "["))
                for (index, member) in members.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    appendString(member, to: &out)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// Decodes attributes written by `encode` (or any JSON of the same shapes).
    /// - Throws: `AttributeJSONError` with the byte offset and what was expected.
    /// - Complexity: O(n) in the length of the text.
    static func decode(_ text: String) throws(AttributeJSONError) -> [String: AttributeValue] {
        if text == "{}" { return [:] }
        var text = text
        // `withUTF8` only rethrows untyped errors: carry the typed one out in a Result.
        let result = text.withUTF8 { bytes in
            var parser = AttributeJSONParser(bytes: bytes)
            return Result { () throws(AttributeJSONError) in try parser.parseDocument() }
        }
        return try result.get()
    }

    // MARK: - Writing

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `s` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`, ... or `\u00XX`.
    private static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\n"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case UInt8(ascii: "\t"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a finite double as the shortest JSON number that reads back to the same value
    /// (Swift's `description` is shortest round-trip; integral values up to 2^53 drop the `.0`; -0 stays `-0.0`).
    private static func appendNumber(_ value: Double, to out: inout [UInt8]) {
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992, !(value == 0 && value.sign == .minus) {
            out.append(contentsOf: String(Int64(value)).utf8)
        } else {
            // Feature refuses non-finite numbers; a non-finite time would not be valid JSON, so write null and let
            // the reader refuse it loudly rather than write "inf".
            out.append(contentsOf: (value.isFinite ? value.description : "null").utf8)
        }
    }
}

/// Why an `attributes` text could not be read back.
struct AttributeJSONError: Error, CustomStringConvertible {
    /// Byte offset in the text where reading stopped.
    let offset: Int
    /// What was expected there.
    let expected: String

    var description: String { "attributes JSON: expected \(expected) at byte \(offset)" }
}

/// A small recursive-descent reader for the shapes `AttributeJSON` writes.
private struct AttributeJSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func parseDocument() throws(AttributeJSONError) -> [String: AttributeValue] {
        var result: [String: AttributeValue] = [:]
        skipSpace()
        try expect(UInt8(ascii: "{"), "'{' opening the attributes object")
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            index += 1
        } else {
            while true {
                skipSpace()
                let name = try parseString()
                skipSpace()
                try expect(UInt8(ascii: ":"), "':' after the attribute name")
                skipSpace()
                result[name] = try parseValue()
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"), "',' or '}' after an attribute")
                break
            }
        }
        skipSpace()
        guard index == bytes.count else { throw fail("the end of the text") }
        return result
    }

    private mutating func parseValue() throws(AttributeJSONError) -> AttributeValue {
        switch peek() {
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "["):
            index += 1
            var members: [String] = []
            skipSpace()
            if peek() == UInt8(ascii: "]") { index += 1; return .stringSet(members) }
            while true {
                skipSpace()
                members.append(try parseString())
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']' in a string set")
                return .stringSet(members)
            }
        case UInt8(ascii: "{"):
            index += 1
            skipSpace()
            let key = try parseString()
            guard key == AttributeJSON.timeKey else { throw fail("an object {\"time\": seconds}") }
            skipSpace()
            try expect(UInt8(ascii: ":"), "':' after \"time\"")
            skipSpace()
            let seconds = try parseNumber()
            skipSpace()
            try expect(UInt8(ascii: "}"), "'}' closing a time")
            return .time(Timestamp(secondsSince1970: seconds))
        default:
            return .number(try parseNumber())
        }
    }

    private mutating func parseNumber() throws(AttributeJSONError) -> Double {
        let start = index
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        guard index > start,
              let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)),
              value.isFinite
        else {
            index = start
            throw fail("a string, finite number, true, false, a string array or {\"time\": seconds}")
        }
        return value
    }

    private static func isNumberByte(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
            || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
    }

    private mutating func parseString() throws(AttributeJSONError) -> String {
        try expect(UInt8(ascii: "\""), "'\"' opening a string")
        let start = index
        // Fast path: no escapes, the bytes are the string.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw fail("'\"' closing a string") }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)]), as: UTF8.self)
        }
        var out = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else { throw fail("'\"' closing a string") }
            let c = bytes[index]
            index += 1
            if c == UInt8(ascii: "\"") { break }
            if c != UInt8(ascii: "\\") { out.append(c); continue }
            guard index < bytes.count else { throw fail("an escape after '\\'") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "n"): out.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): out.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "t"): out.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by `\u` and a low surrogate.
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                    else { throw fail("a low surrogate after a high surrogate") }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a low surrogate") }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { throw fail("a valid Unicode scalar") }
                out.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw fail("a valid escape")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func hex4() throws(AttributeJSONError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[index]
            let digit: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw fail("a hex digit")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func literal(_ word: StaticString) throws(AttributeJSONError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("\(word)") }
        for k in 0..<count where bytes[index + k] != word.utf8Start[k] { throw fail("\(word)") }
        index += count
    }

    private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(AttributeJSONError) {
        guard index < bytes.count, bytes[index] == byte else { throw fail(what) }
        index += 1
    }

    private func fail(_ expected: String) -> AttributeJSONError { AttributeJSONError(offset: index, expected: expected) }
}
