extension QueryParameters {
    /// `count` numbers separated by commas (`west,south,east,north`, `lat,lon`) read from the text's bytes, when
    /// the text is ASCII without spaces (what a map sends); nil for any other text, or when it does not hold
    /// `count` numbers: `QueryArgument.numbers` then reads it, and words the error.
    ///
    /// A fast path with the same answers: in ASCII no grapheme cluster joins a comma or a space to its neighbours
    /// (only CR LF is one cluster of two bytes), so splitting at the byte `,` is splitting at the character, there
    /// are no spaces to drop, and each part is the very text `QueryArgument.numbers` hands to `Double`. It skips
    /// that function's `Character` splitting and its `String` per part, about 52 k instructions per box, a tenth
    /// of a zoom-5 `/clusters` answer.
    /// - Complexity: O(n) in the text's length.
    static func plainNumbers(_ text: String, count: Int) -> [Double]? {
        var text = text
        return text.withUTF8 { bytes -> [Double]? in
            var numbers: [Double] = []
            numbers.reserveCapacity(count)
            var start = 0
            for end in 0..<bytes.count {
                let byte = bytes[end]
                guard byte < 0x80, byte != UInt8(ascii: " ") else { return nil }
                guard byte == UInt8(ascii: ",") else { continue }
                guard numbers.count < count, let number = Self.number(bytes, start..<end) else { return nil }
                numbers.append(number)
                start = end + 1
            }
            guard numbers.count == count - 1, let last = Self.number(bytes, start..<bytes.count) else { return nil }
            numbers.append(last)
            return numbers
        }
    }

    /// The number the bytes in `range` spell, as `Double(String)` reads it (a part of up to 15 bytes is a small
    /// string: no allocation).
    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self))
    }
}
