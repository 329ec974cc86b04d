import CairnCore
import CairnIO

extension CheckInField {
    /// The number in the field by CairnIO's one decimal rule (`DecimalText`, the rule `cairn import` follows),
    /// with spaces around it allowed; nil when it is not one (`nan` and `inf` are numbers there, so that the
    /// rule can call them invalid coordinates).
    /// - Complexity: O(n) in the field's length.
    @inline(__always)
    var number: Double? {
        let bytes = self.bytes
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 { start &+= 1 }
        while end > start, bytes[end &- 1] == 0x20 { end &-= 1 }
        guard start < end else { return nil }
        return DecimalText.parse(UnsafeBufferPointer(rebasing: bytes[start ..< end]))
    }

    /// Seconds since 1970 by Core's one ISO 8601 rule (`Timestamp.seconds(iso8601Bytes:)`), with spaces and
    /// tabs around the time allowed, as around numbers; NaN when the field is not a time.
    /// - Complexity: O(n) in the field's length.
    @inline(__always)
    var seconds: Double {
        var b = bytes
        if let first = b.first, first == 0x20 || first == 0x09 || b.last == 0x20 || b.last == 0x09 {
            var start = 0, end = b.count
            while start < end, b[start] == 0x20 || b[start] == 0x09 { start += 1 }
            while end > start, b[end - 1] == 0x20 || b[end - 1] == 0x09 { end -= 1 }
            b = UnsafeBufferPointer(rebasing: b[start ..< end])
        }
        return Timestamp.seconds(iso8601Bytes: b) ?? .nan
    }

    /// Whether the field holds a character an id may not (U+0000-U+001F, U+007F), read from its bytes as
    /// `TextEscaping.containsIdControlCharacters` reads a string's UTF-8: those characters are single bytes, and no
    /// other character's bytes (nor a repaired invalid sequence's) fall in that range. Checked before the id becomes a
    /// `String`, a million times for a million events.
    /// - Complexity: O(n) in the field's length.
    @inline(__always)
    var hasIdControlCharacters: Bool {
        for byte in bytes where byte < 0x20 || byte == 0x7F { return true }
        return false
    }

    /// Calls `body` with the bytes `text` holds: the field's own when they are valid UTF-8 (ASCII is checked
    /// first, eight bytes at a time), else those of the string they decode to (each invalid sequence replaced with
    /// U+FFFD), so that an id interned from bytes equals the one interned from its `String` before.
    /// - Complexity: O(n) in the field's length.
    @inline(__always)
    func withTextBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
        let raw = self.raw
        if raw.isASCII || String(validating: bytes, as: UTF8.self) != nil { return body(raw) }
        var text = self.text
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether every byte is below 0x80: eight at a time, then the rest.
    /// - Complexity: O(n).
    @inline(__always)
    var isASCII: Bool {
        guard let base = baseAddress else { return true }
        var i = 0, high: UInt64 = 0
        while i + 8 <= count {
            high |= base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i += 8
        }
        while i < count {
            high |= UInt64(base.load(fromByteOffset: i, as: UInt8.self))
            i += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }
}
