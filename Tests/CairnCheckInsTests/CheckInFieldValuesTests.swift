import CairnCore
import CairnTestSupport
import Testing
@testable import CairnCheckIns

/// A check-in field's number and time: CairnIO's decimal rule and Core's ISO 8601 rule, with spaces (and tabs,
/// around times) allowed.
@Suite struct CheckInFieldValuesTests {
    /// The value of `bytes` read as a field.
    func field<T>(_ bytes: [UInt8], _ read: (CheckInField) -> T) -> T {
        bytes.withUnsafeBufferPointer { read(CheckInField(base: $0.baseAddress, count: $0.count)) }
    }

    @Test func numbersMatchDoubleParsingOfTheTrimmedText() {
        var rng = SplitMix64(seed: 0xDEC1_3A1)
        let pieces = ["-", "+", ".", "e", "0", "9", "5", "1", "7", "3", "x", " "]
        var parsed = 0
        for n in 0..<30000 {
            var text: String
            if n % 3 == 0 {
                text = (0..<rng.below(8)).map { _ in pieces[rng.below(pieces.count)] }.joined()
            } else {
                // Plain decimals of 1 to 18 digits around a point, signed or not.
                let digits = 1 + rng.below(18), point = rng.below(digits + 1)
                text = rng.below(3) == 0 ? "-" : ""
                for k in 0..<digits {
                    if k == point, k > 0 { text += "." }
                    text += String(rng.below(10))
                }
            }
            let got = field(Array(text.utf8)) { $0.number }
            let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            let want = trimmed.isEmpty ? nil : Double(trimmed)
            #expect(got?.bitPattern == want?.bitPattern, "'\(text)'")
            if got != nil { parsed += 1 }
        }
        #expect(parsed > 15000)
        for (text, value) in [("-0", -0.0), ("41.986077", 41.986077), ("-122.4194155", -122.4194155), ("0.1", 0.1), (" 0x1p3 ", 8)] {
            #expect(field(Array(text.utf8)) { $0.number }?.bitPattern == value.bitPattern)
        }
        #expect(field(Array(" nan".utf8)) { $0.number }?.isNaN == true)
    }

    @Test func timesAreCoresISO8601WithSpacesAndTabsAround() {
        let spaced = field(Array(" \t2026-05-01T10:30:00.25+02:00 ".utf8)) { $0.seconds }
        #expect(spaced == Timestamp(iso8601: "2026-05-01T10:30:00.25+02:00")?.secondsSince1970)
        #expect(field(Array("\t2026-05-01T10:30:00Z ".utf8)) { $0.seconds } == Timestamp(iso8601: "2026-05-01T10:30:00Z")?.secondsSince1970)
        #expect(field(Array("2026-02-30T10:30:00Z".utf8)) { $0.seconds }.isNaN)
        #expect(field([]) { $0.seconds }.isNaN)
    }
}
