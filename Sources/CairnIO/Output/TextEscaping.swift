/// Quoting for the text formats Cairn writes: the one JSON string escaper and the one number rule of every writer
/// (query results, clusters, the store's attribute text, `JSONValue.jsonText`).
///
/// The number rule: the shortest text that reads back to the same `Double` (Swift's `description`, which is
/// shortest round-trip), with integers never ending in `.0` (`2138551`, not `2138551.0`; from 1e16 on Swift already
/// writes an exponent, `1e+16`); a negative zero is `-0`, so that it reads back with its sign; NaN and the
/// infinities, which JSON cannot hold, are `null`.
public enum TextEscaping {
    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Integral values below this magnitude are written as integers; from it on Swift's shortest form has an
    /// exponent (`1e+16`) and no `.0`.
    static let integerLimit = 1e16

    /// Appends `text` as a JSON string literal, quotes included: `"` and `\` escaped, `\n`, `\r`, `\t` by name,
    /// other control characters as `\u00xx`; everything else (non-ASCII included) as raw UTF-8.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(UInt8(ascii: "\\")); out.append(byte)
            case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\")); out.append(byte)
            case 0x0A: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "\\")); out.append(UInt8(ascii: "t"))
            case 0..<0x20:
                out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                out.append(hexDigits.utf8Start[Int(byte >> 4)])
                out.append(hexDigits.utf8Start[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `value` as a JSON number by the number rule above.
    /// - Complexity: O(1).
    public static func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        if value == 0 {
            if value.sign == .minus { out.append(UInt8(ascii: "-")) }
            out.append(UInt8(ascii: "0"))
        } else if value == value.rounded(), abs(value) < integerLimit {
            appendInteger(Int64(value), to: &out)
        } else {
            out.append(contentsOf: value.description.utf8)
        }
    }

    /// Appends a whole number in decimal.
    /// Inlinable and always inlined: the check-ins write one per verdict row, where a call across modules and a
    /// bulk append cost more than the digits.
    /// - Complexity: O(digits).
    @inlinable @inline(__always)
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") + UInt8(magnitude))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for the 20 digits of a UInt64
        withUnsafeMutableBytes(of: &digits) { buffer in
            var n = 0
            while magnitude > 0 {
                buffer[n] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                n += 1
            }
            while n > 0 {
                n -= 1
                out.append(buffer[n])
            }
        }
    }

    /// A JSON string literal for `text`, quotes included (see `appendJSONString(_:to:)`).
    /// - Complexity: O(n).
    public static func jsonString(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendJSONString(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A number as JSON text by the number rule above.
    /// - Complexity: O(1).
    public static func jsonNumber(_ value: Double) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        appendJSONNumber(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A CSV field for `text`: quoted (with doubled quotes) only when it holds a comma, quote, CR or LF (RFC 4180).
    /// - Complexity: O(n).
    public static func csvField(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return text }
        var quoted = "\""
        for character in text {
            quoted += character == "\"" ? "\"\"" : String(character)
        }
        return quoted + "\""
    }
}
