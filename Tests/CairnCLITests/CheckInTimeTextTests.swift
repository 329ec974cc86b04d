import CairnCore
import Testing
@testable import CairnCLI

/// `CheckInTimeText.seconds` (digits checked eight bytes at a time) against `Timestamp(iso8601Bytes:)`.
@Suite struct CheckInTimeTextTests {
    @Test func matchesTimestampOnMutatedTimes() {
        var rng = CheckInFieldScannerTests.Mix(state: 0x5EED_7113)
        // Near-digits and bytes whose low nibble is a digit's, so that every lane test is exercised.
        let replacements: [UInt8] = [0x2F, 0x3A, 0x3F, 0x20, 0x70, 0xB5, 0x39, 0x30, 0x35, 0x13, 0x29]
        var fast = 0
        for n in 0..<20000 {
            let year = 1900 + rng.below(200), month = 1 + rng.below(12), day = 1 + rng.below(31)
            let hour = rng.below(24), minute = rng.below(60), second = rng.below(61)
            func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
            var bytes = Array("\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z".utf8)
            if n % 2 == 1 { bytes[rng.below(bytes.count)] = replacements[rng.below(replacements.count)] }
            let got = bytes.withUnsafeBufferPointer { CheckInTimeText.seconds($0) }
            // Spaces and tabs around the time are ignored, as around numbers.
            var trimmed = bytes[...]
            while let f = trimmed.first, f == 0x20 || f == 0x09 { trimmed = trimmed.dropFirst() }
            while let l = trimmed.last, l == 0x20 || l == 0x09 { trimmed = trimmed.dropLast() }
            let want = Array(trimmed).withUnsafeBufferPointer { Timestamp(iso8601Bytes: $0)?.secondsSince1970 } ?? .nan
            #expect(got == want || (got.isNaN && want.isNaN), "\(String(decoding: bytes, as: UTF8.self))")
            if !got.isNaN { fast += 1 }
        }
        #expect(fast > 10000)
        let spaced = Array(" \t2026-05-01T10:30:00.25+02:00 ".utf8).withUnsafeBufferPointer { CheckInTimeText.seconds($0) }
        #expect(spaced == Timestamp(iso8601: "2026-05-01T10:30:00.25+02:00")?.secondsSince1970)
    }
}
