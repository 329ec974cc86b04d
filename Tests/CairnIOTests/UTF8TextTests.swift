@testable import CairnIO
import CairnTestSupport
import Testing

@Suite("UTF-8 validation")
struct UTF8TextTests {
    /// The validator agrees with the standard library's `String(validating:)` on random byte strings
    /// biased towards the tricky lead and continuation bytes.
    @Test("agrees with String(validating:) on random bytes")
    func agreesWithStandardLibrary() {
        var rng = SplitMix64(seed: 42)
        let interesting: [UInt8] = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
                                    0xE0, 0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]
        var valid = 0
        for _ in 0..<20_000 {
            let length = Int(rng.next() % 14)
            let bytes: [UInt8] = (0..<length).map { _ in
                rng.next() % 3 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : interesting[Int(rng.next() % UInt64(interesting.count))]
            }
            let expected = String(validating: bytes, as: UTF8.self)
            let got = bytes.withUnsafeBufferPointer { decodeUTF8($0) }
            #expect(got == expected, "\(bytes)")
            if expected != nil { valid += 1 }
        }
        #expect(valid > 1000) // the test reaches valid multi-byte text too
        let long = Array("plain ASCII text that is longer than eight bytes, then é and 😀 and 北".utf8)
        #expect(long.withUnsafeBufferPointer { decodeUTF8($0) } == String(decoding: long, as: UTF8.self))
    }
}
