import CairnTestSupport
import Testing
@testable import CairnCore

/// `Timestamp.seconds(iso8601Bytes:)`'s fast path (digits checked eight bytes at a time) against the general
/// parser, on seeded times with one byte mutated in every other one.
@Suite struct TimestampFastPathTests {
    @Test func fastPathMatchesTheGeneralParserOnMutatedTimes() {
        var rng = SplitMix64(seed: 0x5EED_7113)
        // Near-digits and bytes whose low nibble is a digit's, so that every lane test is exercised.
        let replacements: [UInt8] = [0x2F, 0x3A, 0x3F, 0x20, 0x70, 0xB5, 0x39, 0x30, 0x35, 0x13, 0x29]
        var fast = 0
        for n in 0..<20000 {
            let year = 1900 + rng.below(200), month = 1 + rng.below(12), day = 1 + rng.below(31)
            let hour = rng.below(24), minute = rng.below(60), second = rng.below(61)
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            var bytes = Array("\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z".utf8)
            if n % 2 == 1 { bytes[rng.below(bytes.count)] = replacements[rng.below(replacements.count)] }
            let got = bytes.withUnsafeBufferPointer { Timestamp.seconds(iso8601Bytes: $0) }
            let want = bytes.withUnsafeBufferPointer { Timestamp.parse($0) }
            #expect(got == want, "\(String(decoding: bytes, as: UTF8.self))")
            if bytes.withUnsafeBufferPointer({ Timestamp.secondsOfPlainUTC($0) }) != nil { fast += 1 }
        }
        #expect(fast > 8000)
    }
}
