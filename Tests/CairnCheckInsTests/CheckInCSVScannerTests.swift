import CairnTestSupport
import Testing
@testable import CairnCheckIns

/// The CSV scanner (eight bytes at a time) against a byte-at-a-time oracle on seeded random records.
@Suite struct CheckInCSVScannerTests {
    /// One record as the oracle reads it: fields (unescaped), whether a quote never closed, the next start, lines.
    struct Scanned: Equatable {
        var fields: [[UInt8]]
        var unterminated: Bool
        var next: Int
        var lines: Int
    }

    /// The rules stated in `CheckInCSVScanner`, one byte at a time.
    static func oracle(_ b: [UInt8], start: Int, end: Int) -> Scanned {
        var fields: [[UInt8]] = []
        var i = start, lines = 0
        while true {
            if i < end, b[i] == 0x22 {
                var j = i + 1, text: [UInt8] = [], closed = false
                while j < end {
                    if b[j] == 0x22 {
                        if j + 1 < end, b[j + 1] == 0x22 { text.append(0x22); j += 2; continue }
                        closed = true; j += 1; break
                    }
                    if b[j] == 0x0A { break } // a quoted field never spans lines
                    text.append(b[j]); j += 1
                }
                guard closed else {
                    var e = start
                    while e < end, b[e] != 0x0A { e += 1 }
                    return e < end ? Scanned(fields: [], unterminated: true, next: e + 1, lines: 1)
                                   : Scanned(fields: [], unterminated: true, next: end, lines: 0)
                }
                // Text after the closing quote stays in the field; a CR before the line end is the line end.
                i = j
                while i < end, b[i] != 0x2C, b[i] != 0x0A { i += 1 }
                var e = i
                if i >= end || b[i] == 0x0A, e > j, b[e - 1] == 0x0D { e -= 1 }
                fields.append(text + b[j..<e])
            } else {
                let s = i
                while i < end, b[i] != 0x2C, b[i] != 0x0A { i += 1 }
                var e = i
                if i >= end || b[i] == 0x0A, e > s, b[e - 1] == 0x0D { e -= 1 }
                fields.append(Array(b[s..<e]))
            }
            if i >= end { return Scanned(fields: fields, unterminated: false, next: end, lines: lines) }
            if b[i] == 0x0A { return Scanned(fields: fields, unterminated: false, next: i + 1, lines: lines + 1) }
            i += 1
        }
    }

    /// Mostly the special bytes, so that every position in a word meets each of them; and the same bytes with
    /// the high bit set (0xAC, 0x8A, 0xA2), which are text.
    static let denseAlphabet: [UInt8] = Array("ab,,,\n\n\"\"\r1.".utf8) + [0xAC, 0x8A, 0xA2, 0xFF]
    /// Mostly text, so that quoted fields run over several words (a park's WKT): the in-place path of a quoted
    /// field, its tail after the closing quote and `""` at every offset of a word.
    static let sparseAlphabet: [UInt8] = Array("abcdefgh 1.5(),".utf8) + Array(repeating: UInt8(ascii: "x"), count: 12)
        + Array("\"\"\"\n\r".utf8) + [0xA2, 0x8A]

    @Test(arguments: [(denseAlphabet, 70), (sparseAlphabet, 160)])
    func matchesByteAtATimeOracle(alphabet: [UInt8], length: Int) throws {
        var rng = SplitMix64(seed: 0xC0FFEE)
        var records = 0
        for _ in 0..<3000 {
            let bytes = (0..<rng.below(length)).map { _ in alphabet[rng.below(alphabet.count)] }
            guard !bytes.isEmpty else { continue }
            var scanner = CheckInCSVScanner(maxFields: 8)
            defer { scanner.deallocate() }
            scanner.reset(forBufferOf: bytes.count)
            try bytes.withUnsafeBufferPointer { buffer in
                let base = try #require(buffer.baseAddress)
                var position = 0
                while position < bytes.count {
                    let expected = Self.oracle(bytes, start: position, end: bytes.count)
                    let (outcome, next, lines) = scanner.scanRecord(base, start: position, end: bytes.count)
                    var got = Scanned(fields: [], unterminated: false, next: next, lines: lines)
                    switch outcome {
                    case .unterminatedQuote: got.unterminated = true
                    case .record(let tooMany):
                        #expect(tooMany == (expected.fields.count > 8))
                        got.fields = (0..<scanner.fieldCount).map { Array(scanner.field($0).bytes) }
                    }
                    let want = Scanned(fields: Array(expected.fields.prefix(8)), unterminated: expected.unterminated,
                                       next: expected.next, lines: expected.lines)
                    #expect(got == want, "record at \(position) of \(bytes)")
                    guard got == want else { return }
                    position = next
                    records += 1
                }
            }
        }
        #expect(records > 3000)
    }
}
