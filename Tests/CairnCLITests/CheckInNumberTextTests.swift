import Testing
@testable import CairnCLI

/// `CheckInNumberText.parse` (with its short-decimal path) against `Double(_: String)` on seeded random texts.
@Suite struct CheckInNumberTextTests {
    @Test func matchesDoubleParsing() {
        var rng = CheckInFieldScannerTests.Mix(state: 0xDEC1_3A1)
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
            let got = Array(text.utf8).withUnsafeBufferPointer { CheckInNumberText.parse($0) }
            let trimmed = String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
            let want = trimmed.isEmpty ? nil : Double(trimmed)
            #expect(got?.bitPattern == want?.bitPattern, "'\(text)'")
            if got != nil { parsed += 1 }
        }
        #expect(parsed > 15000)
        for (text, value) in [("-0", -0.0), ("41.986077", 41.986077), ("-122.4194155", -122.4194155), ("0.1", 0.1)] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { CheckInNumberText.parse($0) }?.bitPattern == value.bitPattern)
        }
    }
}
