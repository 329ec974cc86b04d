/// Decodes UTF-8 bytes into a `String`, or nil when they are not valid UTF-8.
///
/// Same acceptance as `String(validating:as: UTF8.self)` (no overlong forms, no surrogates, nothing above U+10FFFF),
/// but written for a contiguous buffer: the standard library's generic version costs a metadata lookup per call,
/// which dominated CSV reading. ASCII runs are checked eight bytes at a time.
/// - Complexity: O(n) in the number of bytes.
func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard isValidUTF8(bytes) else { return nil }
    return String(decoding: bytes, as: UTF8.self)
}

/// Whether `bytes` is well-formed UTF-8 (Unicode 15, table 3-7).
/// - Complexity: O(n) in the number of bytes.
func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let count = bytes.count
    var i = 0
    while i < count {
        // Eight ASCII bytes at once: no byte has its high bit set.
        if i + 8 <= count {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            if word & 0x8080_8080_8080_8080 == 0 {
                i += 8
                continue
            }
        }
        let lead = base[i]
        if lead < 0x80 {
            i += 1
            continue
        }
        @inline(__always) func continuation(_ offset: Int) -> UInt8? {
            guard i + offset < count else { return nil }
            let byte = base[i + offset]
            return byte & 0xC0 == 0x80 ? byte : nil
        }
        switch lead {
        case 0xC2...0xDF:
            guard continuation(1) != nil else { return false }
            i += 2
        case 0xE0...0xEF:
            guard let second = continuation(1), continuation(2) != nil else { return false }
            if lead == 0xE0 && second < 0xA0 { return false } // overlong
            if lead == 0xED && second >= 0xA0 { return false } // UTF-16 surrogate
            i += 3
        case 0xF0...0xF4:
            guard let second = continuation(1), continuation(2) != nil, continuation(3) != nil else { return false }
            if lead == 0xF0 && second < 0x90 { return false } // overlong
            if lead == 0xF4 && second >= 0x90 { return false } // above U+10FFFF
            i += 4
        default:
            return false // a continuation byte without a lead, C0, C1 or F5...FF
        }
    }
    return true
}
