/// Quoting for the text formats Cairn writes.
public enum TextEscaping {
    /// A JSON string literal for `text`, quotes included (RFC 8259 escapes).
    /// - Complexity: O(n).
    public static func jsonString(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let s where s.value < 0x20:
                let hex = String(s.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
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

    /// A number as JSON: integers without a fraction, others in Swift's shortest round-trip form.
    /// NaN and infinities, which JSON cannot hold, are written as `null`.
    public static func jsonNumber(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
