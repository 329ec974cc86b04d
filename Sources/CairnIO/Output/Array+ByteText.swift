/// Appending text to the byte buffers the output encoders write into (UTF-8, no intermediate `String`).
extension Array where Element == UInt8 {
    /// Appends the bytes of a literal: one copy, no `String` made (a one-scalar literal such as `"\n"` is held as
    /// a scalar, not a pointer: `withUTF8Buffer` serves both).
    /// - Complexity: O(n) in the literal's length.
    @inline(__always)
    mutating func append(literal text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `text` as they are (no quoting).
    /// - Complexity: O(n) in the text's UTF-8 length.
    @inline(__always)
    mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }
}
