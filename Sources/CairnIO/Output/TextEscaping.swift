/// Quoting for the text formats Cairn writes: the one JSON string escaper, the one number rule and the one CSV
/// field rule of every writer (query results, clusters, the store's attribute text, `JSONValue.jsonText`). Each rule
/// is written once, as an append to a byte buffer; the `String`-returning forms are thin wrappers over it.
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
        var text = text
        text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Runs of bytes that need no escape (nearly all text) are copied at once.
            var runStart = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0..<0x20:
                    out.append(literal: "u00")
                    out.append(hexDigits.utf8Start[Int(byte >> 4)])
                    out.append(hexDigits.utf8Start[Int(byte & 0xF)])
                default: out.append(byte)
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// Appends `value` as a JSON number by the number rule above.
    /// - Complexity: O(1).
    public static func appendJSONNumber(_ value: Double, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(literal: "null")
            return
        }
        if value == 0 {
            if value.sign == .minus { out.append(UInt8(ascii: "-")) }
            out.append(UInt8(ascii: "0"))
        } else if value == value.rounded(), abs(value) < integerLimit {
            appendInteger(Int64(value), to: &out)
        } else {
            // The shortest round-trip digits written straight into `out`: what `description` gives, without a String.
            var stream = ShortestDoubleText(bytes: [])
            swap(&stream.bytes, &out)
            value.write(to: &stream)
            swap(&stream.bytes, &out)
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

    /// Appends `text` as a CSV field: quoted (with doubled quotes) only when it holds a comma, quote, CR or LF
    /// (RFC 4180).
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func appendCSVField(_ text: String, to out: inout [UInt8]) {
        var quote = false, needsQuotes = false
        for byte in text.utf8 where byte == 44 || byte == 34 || byte == 10 || byte == 13 {
            needsQuotes = true
            if byte == 34 { quote = true; break }
        }
        guard needsQuotes else { return out.append(utf8: text) }
        out.append(UInt8(ascii: "\""))
        if quote {
            // Quotes are doubled per Character, as ever: a quote that joins a neighbouring scalar into one Character
            // (a combining mark after it, a prepended mark before it) is not a lone quote and stays single.
            for character in text {
                if character == "\"" { out.append(literal: "\"\"") } else { out.append(utf8: String(character)) }
            }
        } else {
            out.append(utf8: text)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal for `text`, quotes included (see `appendJSONString(_:to:)`).
    /// - Complexity: O(n).
    public static func jsonString(_ text: String) -> String {
        var out: [UInt8] = []
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

    /// A CSV field for `text` (see `appendCSVField(_:to:)`).
    /// - Complexity: O(n).
    public static func csvField(_ text: String) -> String {
        var out: [UInt8] = []
        appendCSVField(text, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// The target `Double.write(to:)` prints into: its ASCII digits go to `bytes` with no `String` in between.
private struct ShortestDoubleText: TextOutputStream {
    var bytes: [UInt8]

    mutating func write(_ string: String) {
        bytes.append(utf8: string)
    }

    // The standard library hands a number's digits to this hook when a target has one.
    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
