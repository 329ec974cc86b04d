extension TextEscaping {
    /// Whether a Unicode scalar is a control character: C0 (U+0000–U+001F), DEL (U+007F) or C1 (U+0080–U+009F,
    /// where U+009B is an 8-bit terminal escape).
    /// - Complexity: O(1).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// Whether `text` holds a C0 control character (U+0000–U+001F) or DEL (U+007F): what an id may not hold, since
    /// it would print as another id (`park-1\0evil` as `park-1`) or drive a terminal.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func containsIdControlCharacters(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// `text` with every control character written as a Swift escape, `\u{1B}`, so that a message quoting input
    /// cannot move the cursor, recolour or retitle a terminal, or hide part of itself; with `keepingLineFeeds`, a
    /// line feed stays (for messages of several lines). Text without control characters is returned as it is.
    /// - Complexity: O(n) in the UTF-8 length of `text`.
    public static func escapingControlCharacters(_ text: String, keepingLineFeeds: Bool = false) -> String {
        // C0 and DEL are single bytes; C1 is 0xC2 followed by 0x80-0x9F. Most messages have none: no copy then.
        var previous: UInt8 = 0
        let needsEscaping = text.utf8.contains { byte in
            defer { previous = byte }
            if byte == 0x0A { return !keepingLineFeeds }
            return byte < 0x20 || byte == 0x7F || (previous == 0xC2 && (0x80...0x9F).contains(byte))
        }
        guard needsEscaping else { return text }
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            if isControl(scalar), !(keepingLineFeeds && scalar == "\n") {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
