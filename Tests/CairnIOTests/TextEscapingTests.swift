import CairnCore
import CairnTestSupport
@testable import CairnIO
import Testing

/// The one JSON string escaper and the one number rule that every writer uses.
@Suite struct TextEscapingTests {
    @Test(arguments: [
        (0.0, "0"), (-0.0, "-0"), (1, "1"), (-1, "-1"), (2.5, "2.5"), (2_138_551, "2138551"), (0.1, "0.1"),
        (999_999_999_999_999, "999999999999999"), (1e15, "1000000000000000"), (9_007_199_254_740_994, "9007199254740994"),
        (1e16, "1e+16"), (1e22, "1e+22"), (1e-7, "1e-07"), (-123_456.789, "-123456.789"),
        (.infinity, "null"), (-.infinity, "null"), (.nan, "null"),
    ] as [(Double, String)])
    func numberRule(value: Double, text: String) {
        #expect(TextEscaping.jsonNumber(value) == text)
    }

    @Test func numbersReadBackExactlyAndNeverEndInPointZero() throws {
        var random = SplitMix64(seed: 14)
        for step in 0..<20_000 {
            let bits = random.next()
            var value = Double(bitPattern: bits)
            // Half of them integral, where the ".0" rule matters.
            if step % 2 == 0 { value = Double(Int64(bitPattern: bits) >> (bits % 60)) }
            guard value.isFinite else { continue }
            let text = TextEscaping.jsonNumber(value)
            #expect(!text.hasSuffix(".0"), "\(text)")
            guard case .number(let back) = try JSONParser.parse(text) else { Issue.record("not a number: \(text)"); return }
            #expect(back.bitPattern == value.bitPattern, "\(text)")
        }
    }

    @Test func stringsEscapeQuotesBackslashesAndControlsOnly() throws {
        let text = "Caf\u{E9} \"Le Zinc\"\\\n\r\t\u{1}\u{1F}/\u{1F600}"
        #expect(TextEscaping.jsonString(text) == #""Café \"Le Zinc\"\\\n\r\t\u0001\u001f/😀""#)
        #expect(try JSONParser.parse(TextEscaping.jsonString(text)) == .string(text))
        var bytes: [UInt8] = []
        TextEscaping.appendJSONString(text, to: &bytes)
        #expect(bytes == Array(TextEscaping.jsonString(text).utf8))
    }

    @Test func jsonTextUsesTheSameRules() throws {
        let value = JSONValue.object([JSONMember(key: "a\"", value: .array([.number(-0.0), .number(3), .number(0.5), .null, .bool(true)]))])
        #expect(value.jsonText == #"{"a\"":[-0,3,0.5,null,true]}"#)
    }

    @Test func integersOfEveryWidth() {
        for value: Int64 in [0, 7, -7, 10, 1234567890, .max, .min] {
            var out: [UInt8] = []
            TextEscaping.appendInteger(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(value))
        }
    }
}
