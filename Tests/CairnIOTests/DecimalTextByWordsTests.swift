@testable import CairnIO
import CairnTestSupport
import Testing

/// `DecimalText.coordinatePrefix` against `shortPrefix`, the byte-at-a-time reader it goes before: where it reads
/// a number, the same value bit for bit and the same position after it; it reads every `[-]d.d` of 1 to 7 digits
/// a side with 17 bytes left, and nothing else. On seeded texts around the eight-byte words (digit runs of 0 to
/// 20, what follows them, bytes that carry or wrap in the word arithmetic) and at the ends of buffers.
@Suite("Coordinates read eight bytes at a time")
struct DecimalTextByWordsTests {
    /// Both readers on `bytes` from `start`; expects the same outcome where `coordinatePrefix` reads one, and that
    /// it reads exactly the texts of its form. Returns whether it read one.
    @discardableResult
    static func expectSame(_ bytes: [UInt8], from start: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            var byBytes = start, byWords = start
            let expected = DecimalText.shortPrefix(base, &byBytes, buffer.count)
            let got = DecimalText.coordinatePrefix(base, &byWords, buffer.count)
            // Its form: a sign, 1–7 digits, a point, 1–7 digits, then no digit; 17 bytes left.
            var i = start
            if i < buffer.count, buffer[i] == 0x2D { i += 1 }
            var integerDigits = 0, fractionDigits = 0
            while i < buffer.count, buffer[i] >= 0x30, buffer[i] <= 0x39 { integerDigits += 1; i += 1 }
            var point = false
            if i < buffer.count, buffer[i] == 0x2E {
                point = true
                i += 1
                while i < buffer.count, buffer[i] >= 0x30, buffer[i] <= 0x39 { fractionDigits += 1; i += 1 }
            }
            let ofItsForm = buffer.count - start >= 17 && point && (1...7).contains(integerDigits) && (1...7).contains(fractionDigits)
            #expect((got != nil) == ofItsForm, "\(bytes) from \(start)", sourceLocation: sourceLocation)
            if got != nil {
                #expect(got?.bitPattern == expected?.bitPattern && byWords == byBytes, "\(bytes) from \(start)",
                        sourceLocation: sourceLocation)
            } else {
                #expect(byWords == start, sourceLocation: sourceLocation)
            }
            return got != nil
        }
    }

    @Test func knownTexts() {
        for text in ["0", "-0", "1", "-1", "90", "180.0", "-180", "60.1699", "24.9384", "25.1359002", "51.2677012",
                     "12345678", "123456789", "1234567.8", "12345678.9", "0.12345678", "0.123456789012345",
                     "0.1234567890123456", "123456789012345", "1234567890123456", "1.", ".5", "-", "", "-.5", "1.2.3",
                     "00012.50", "99999999.9999999", "1e5", "1 2", "1,2", "7)", "-0.0000001"] {
            Self.expectSame(Array(text.utf8))
            // The same text inside a longer buffer: the words then reach past it.
            Self.expectSame(Array((text + " 0123456789, 9876543210)").utf8))
            Self.expectSame(Array(("xy" + text + "))))))))").utf8), from: 2)
        }
        // A digit run stopped by bytes whose word arithmetic carries (0xFA–0xFF) or wraps (below 0x30).
        for stop: UInt8 in [0x00, 0x2F, 0x3A, 0x3F, 0x40, 0x7F, 0x80, 0xF9, 0xFA, 0xFF] {
            for run in 0...12 {
                let digits = (0..<run).map { UInt8(0x30 + ($0 * 7 + 3) % 10) }
                Self.expectSame(digits + [stop] + Array("123456789".utf8))
                Self.expectSame(Array("4.".utf8) + digits + [stop, 0xFF, 0x35, 0x36])
                Self.expectSame(Array("-".utf8) + digits + [0x2E] + digits + [stop])
            }
        }
    }

    @Test func seededTexts() {
        var random = SplitMix64(seed: 1_608)
        let alphabet = Array("0123456789-.. ,()eE+x".utf8) + [0x00, 0x2F, 0x3A, 0xFA, 0xFF]
        var taken = 0
        for _ in 0..<40_000 {
            var bytes: [UInt8] = []
            if random.next() % 3 == 0 { bytes.append(0x2D) }
            for _ in 0..<Int(random.next() % 10) { bytes.append(UInt8(0x30 + random.next() % 10)) }
            if random.next() % 4 != 0 {
                bytes.append(0x2E)
                for _ in 0..<Int(random.next() % 12) { bytes.append(UInt8(0x30 + random.next() % 10)) }
            }
            for _ in 0..<Int(random.next() % 12) { bytes.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
            let start = Int(random.next() % 3)
            let padded = Array(repeating: UInt8(0x39), count: start) + bytes
            Self.expectSame(padded, from: start)
            if Self.expectSame(padded + Array("          ".utf8), from: start) { taken += 1 }
        }
        // Many texts are of its form: the comparison is not only of nils.
        #expect(taken > 8_000, "\(taken)")
    }
}
