import CairnTestSupport
import Testing
import CairnCore
@testable import CairnIO

/// Tests of the strict JSON parser the GeoJSON and JSON lines readers share.
struct GeoJSONParserTests {
    private func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONParser.parse(Array(text.utf8))
    }

    private func parseError(_ bytes: [UInt8]) -> JSONSyntaxError? {
        do {
            _ = try JSONParser.parse(bytes)
            return nil
        } catch {
            return error
        }
    }

    private func parseError(_ text: String) -> JSONSyntaxError? { parseError(Array(text.utf8)) }

    @Test func scalarsAndNesting() throws {
        #expect(try parse("null") == .null)
        #expect(try parse(" true ") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("-0") == .number(-0.0))
        #expect(try parse("[]") == .array([]))
        #expect(try parse("{}") == .object([]))
        let value = try parse(#"{"a": [1, 2.5, {"b": null}], "c": "d", "e": 3}"#)
        #expect(value == .object([
            JSONMember(key: "a", value: .array([.number(1), .number(2.5), .object([JSONMember(key: "b", value: .null)])])),
            JSONMember(key: "c", value: .string("d")),
            JSONMember(key: "e", value: .number(3)),
        ]))
        // A repeated key is refused (JSONDuplicateKeyTests has the rule).
        #expect(parseError(#"{"a": 1, "c": "d", "a": 3}"#)?.message.hasPrefix("duplicate key \"a\"") == true)
        #expect(value["a"] == .array([.number(1), .number(2.5), .object([JSONMember(key: "b", value: .null)])]))
        #expect(value["missing"] == nil)
    }

    @Test func stringEscapesAndUnicode() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"))
        #expect(try parse(#""\u00e9\u00C4""#) == .string("éÄ"))
        #expect(try parse(#""\ud83c\udf32 and 🌲""#) == .string("🌲 and 🌲"))
        #expect(try parse(#""\u0000x""#) == .string("\u{0}x"))
        #expect(try parse("\"Ääkkönen 東京\"") == .string("Ääkkönen 東京"))
    }

    @Test func numbersMatchTheStandardLibrary() throws {
        let known: [(String, Double)] = [
            ("0", 0), ("-1", -1), ("24.9384", 24.9384), ("60.1699", 60.1699), ("1e3", 1000), ("1E-2", 0.01),
            ("-2.5e+2", -250), ("123456789012345678901234567890", 123456789012345678901234567890.0),
            ("0.000000000000000000000000000001", 1e-30), ("1.7976931348623157e308", 1.7976931348623157e308),
            ("4.9e-324", Double.leastNonzeroMagnitude), ("9007199254740993", 9007199254740993.0), ("0.1", 0.1),
        ]
        for (text, expected) in known {
            #expect(try parse(text) == .number(expected), "\(text)")
        }
        // Seeded random numbers in several shapes, checked against Double(String).
        var random = JSONTestRandom(seed: 0x5EED_0001)
        for _ in 0..<5000 {
            var text = random.next() % 2 == 0 ? "-" : ""
            let integerDigits = Int(random.next() % 20)
            if integerDigits == 0 { text += "0" } else {
                text += String(1 + random.next() % 9)
                for _ in 1..<integerDigits { text += String(random.next() % 10) }
            }
            if random.next() % 2 == 0 {
                text += "."
                for _ in 0..<(1 + Int(random.next() % 20)) { text += String(random.next() % 10) }
            }
            if random.next() % 3 == 0 {
                text += ["e", "E", "e+", "e-", "E-"][Int(random.next() % 5)] + String(random.next() % 330)
            }
            let expected = try #require(Double(text))
            #expect(try parse(text) == .number(expected), "\(text)")
        }
        for _ in 0..<2000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            #expect(try parse("\(value)") == .number(value))
        }
    }

    @Test func strictnessErrors() {
        let bad = [
            "", "   ", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "1e", "+1", "NaN", "Infinity", "tru", "nul",
            "[1 2]", "{\"a\" 1}", "{a:1}", "{'a':1}", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\ud83c\"", "\"\\udf32\"",
            "\"\\ud83c\\u0041\"", "\"tab\there\"", "[1]]", "{} {}", "// comment\n1", "[",
        ]
        for text in bad {
            #expect(parseError(text) != nil, "\(text) should be rejected")
        }
    }

    @Test func invalidUTF8IsRejected() {
        #expect(parseError([0x22, 0xFF, 0x22]) != nil)
        #expect(parseError([0x22, 0xC3, 0x28, 0x22]) != nil) // bad continuation
        #expect(parseError([0x22, 0xED, 0xA0, 0x80, 0x22]) != nil) // an encoded surrogate
        #expect(parseError([0x22, 0x5C, 0x6E, 0xC3, 0x22]) != nil) // on the escape path
        #expect(parseError([0x22, 0xC3, 0xA4, 0x22]) == nil)
    }

    @Test func errorsCarryLineAndColumn() throws {
        let error = try #require(parseError("{\n  \"a\": 1,\n  \"b\": tru\n}"))
        #expect(error.line == 3)
        #expect(error.column == 8)
        #expect(error.description.hasPrefix("invalid JSON at line 3, column 8: "))
        // A buffer placed in a file: the first line starts at the given column.
        do {
            _ = try JSONParser.parse(Array("{\"a\": x}".utf8), firstLine: 10, firstColumn: 5)
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 10)
            #expect(error.column == 11)
        }
        let trailing = try #require(parseError("[1,\n]"))
        #expect(trailing.line == 2 && trailing.column == 1)
    }

    @Test func nestingIsBounded() {
        let deep = String(repeating: "[", count: JSONParser.maxDepth + 1) + String(repeating: "]", count: JSONParser.maxDepth + 1)
        #expect(parseError(deep)?.message.contains("nesting") == true)
        let fine = String(repeating: "[", count: JSONParser.maxDepth) + String(repeating: "]", count: JSONParser.maxDepth)
        #expect(parseError(fine) == nil)
    }

    @Test func jsonTextRoundTrips() throws {
        var random = JSONTestRandom(seed: 42)
        for _ in 0..<300 {
            let value = randomValue(&random, depth: 0)
            #expect(try parse(value.jsonText) == value)
        }
    }

    private func randomValue(_ random: inout JSONTestRandom, depth: Int) -> JSONValue {
        switch random.next() % (depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .number(Double(Int64(bitPattern: random.next()) % 1_000_000) / 1000)
        case 3: return .string(jsonRandomString(&random))
        case 4: return .array((0..<Int(random.next() % 4)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            // Keys unique: the parser refuses a repeated one.
            var keys: Set<String> = []
            return .object((0..<Int(random.next() % 4)).compactMap { _ in
                let member = JSONMember(key: jsonRandomString(&random), value: randomValue(&random, depth: depth + 1))
                return keys.insert(member.key).inserted ? member : nil
            })
        }
    }
}

/// Random text with the characters that matter to JSON: quotes, backslashes, brackets, controls, non-ASCII.
func jsonRandomString(_ random: inout JSONTestRandom) -> String {
    let pieces = ["a", "Z", " ", "\"", "\\", "/", "{", "}", "[", "]", ",", ":", "\n", "\t", "\u{1}", "é", "🌲", "東", "\u{1E}"]
    return (0..<Int(random.next() % 8)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
}

/// SplitMix64 (Steele, Lea, Flood 2014): a small seedable generator for repeatable test data.
struct JSONTestRandom {
    private var base: SeededRandom

    init(seed: UInt64) { base = SeededRandom(seed: seed) }

    mutating func next() -> UInt64 { base.next() }

    /// A uniform double in [low, high).
    mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }
}
