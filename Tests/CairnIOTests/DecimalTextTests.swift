@testable import CairnIO
import CairnTestSupport
import Testing

@Suite("Decimal parsing")
struct DecimalTextTests {
    /// The fast path gives bit-for-bit the value of `Double(_:)` (strtod), on random plain decimals and edge cases.
    @Test("agrees with Double(String) bit for bit")
    func agreesWithStrtod() {
        var rng = SplitMix64(seed: 7)
        var fastPathHits = 0
        var texts = ["0", "-0", "+0", "0.0", "-0.0", "1", "-1", "90", "-90", "180.0", "-180", "60.1699", "24.9384",
                     "9007199254740991", "9007199254740992", "9007199254740993", "0.1", "0.3", "1.0000000000000002",
                     "0.0000000000000000000001", "0.00000000000000000000001", "12345678901234567890", "1e5", "1.", ".5",
                     "-", "+", "", ".", "1.2.3", "nan", "inf", "0x10", " 1", "1 ", "1,5", "--1", "-.5", "00012.50"]
        for _ in 0..<20_000 {
            let integerLength = Int(rng.next() % 6)
            let fractionLength = Int(rng.next() % 18)
            var text = rng.next() % 3 == 0 ? "-" : ""
            text += String((0..<max(1, integerLength)).map { _ in Character(String(rng.next() % 10)) })
            if fractionLength > 0 { text += "." + String((0..<fractionLength).map { _ in Character(String(rng.next() % 10)) }) }
            texts.append(text)
        }
        for text in texts {
            let expected = Double(text)
            let got = DecimalText.parse(text)
            #expect(got?.bitPattern == expected?.bitPattern, "'\(text)'")
            var copy = text
            if copy.withUTF8({ DecimalText.plain($0) }) != nil { fastPathHits += 1 }
        }
        #expect(fastPathHits > 15_000) // the fast path is actually taken
    }
}
