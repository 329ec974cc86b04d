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

    /// Every day of every month of a common year, a leap year, a century that is not leap and one that is: the
    /// fast path takes each valid date, refuses the others (April 31st, February 29th of 2023 and 1900), and agrees
    /// with the general parser on all.
    @Test(arguments: [1900, 2000, 2023, 2024])
    func everyDayOfTheYearAgreesWithTheGeneralParser(year: Int) {
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var taken = 0
        for month in 1...12 {
            for day in 1...31 {
                let bytes = Array("\(year)-\(two(month))-\(two(day))T23:59:59Z".utf8)
                let fast = bytes.withUnsafeBufferPointer { Timestamp.secondsOfPlainUTC($0) }
                let general = bytes.withUnsafeBufferPointer { Timestamp.parse($0) }
                #expect(fast == nil || fast == general, "\(String(decoding: bytes, as: UTF8.self))")
                #expect((fast != nil) == (general != nil), "\(String(decoding: bytes, as: UTF8.self))")
                if fast != nil { taken += 1 }
            }
        }
        #expect(taken == (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 366 : 365))
    }

    /// The ends of the fast path's range and the epoch: January and February of year 0 (before its March-based
    /// years start) are left to the general parser, and every answer is the general parser's and the known one.
    @Test func edgesOfTheRangeMatchTheGeneralParser() {
        let known: [(String, Double)] = [
            ("1970-01-01T00:00:00Z", 0), ("0000-01-01T00:00:00Z", -62_167_219_200),
            ("0000-02-29T23:59:59Z", -62_162_035_201), ("0000-03-01T00:00:00Z", -62_162_035_200),
            ("9999-12-31T23:59:59Z", 253_402_300_799), ("2026-08-09T09:30:58Z", 1_786_267_858),
            ("2000-02-29T12:00:60Z", 951_825_660)]
        for (text, seconds) in known {
            let bytes = Array(text.utf8)
            let got = bytes.withUnsafeBufferPointer { Timestamp.seconds(iso8601Bytes: $0) }
            let general = bytes.withUnsafeBufferPointer { Timestamp.parse($0) }
            #expect(got == seconds && general == seconds, "\(text)")
        }
        let yearZero = Array("0000-02-29T00:00:00Z".utf8)
        #expect(yearZero.withUnsafeBufferPointer { Timestamp.secondsOfPlainUTC($0) } == nil)
    }
}
