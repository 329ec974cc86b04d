import CairnCore
import Testing
@testable import CairnStore

@Suite("Attribute JSON encoding")
struct AttributeJSONTests {
    @Test("encodes each type compactly, keys sorted")
    func knownEncoding() {
        let attributes: [String: AttributeValue] = [
            "name": .string("Caf\u{E9} \"Le Zinc\"\\\n\u{1}"),
            "population": .number(2_138_551),
            "lengthMiles": .number(2.5),
            "fenced": .bool(true),
            "hunting": .bool(false),
            "startTime": .time(Timestamp(secondsSince1970: 1_714_588_200.25)),
            "ageGroups": .stringSet(["baby", "toddler"]),
            "tags": .stringSet([]),
        ]
        #expect(AttributeJSON.encode(attributes) == """
            {"ageGroups":["baby","toddler"],"fenced":true,"hunting":false,"lengthMiles":2.5,\
            "name":"Caf\u{E9} \\"Le Zinc\\"\\\\\\n\\u0001","population":2138551,\
            "startTime":{"time":1714588200.25},"tags":[]}
            """)
        #expect(AttributeJSON.encode([:]) == "{}")
    }

    @Test("reads back exactly what it wrote", arguments: [
        0.0, -0.0, 1, -1, 0.1, 1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -123_456.789, 9_007_199_254_740_994, 1e22,
    ])
    func numbersRoundTrip(value: Double) throws {
        let decoded = try AttributeJSON.decode(AttributeJSON.encode(["n": .number(value), "t": .time(Timestamp(secondsSince1970: value))]))
        guard case .number(let n)? = decoded["n"], case .time(let t)? = decoded["t"] else {
            Issue.record("wrong shapes: \(decoded)")
            return
        }
        #expect(n.bitPattern == value.bitPattern)
        #expect(t.secondsSince1970.bitPattern == value.bitPattern)
    }

    @Test("reads standard JSON spellings: whitespace, escapes, surrogate pairs")
    func readsStandardJSON() throws {
        let decoded = try AttributeJSON.decode(#" { "a\u0041" : "x\/y\tz\ud83d\ude00" , "n" : -1.5e2 , "s" : [ "p" , "q" ] , "t" : { "time" : 1 } } "#)
        #expect(decoded == [
            "aA": .string("x/y\tz\u{1F600}"), "n": .number(-150), "s": .stringSet(["p", "q"]),
            "t": .time(Timestamp(secondsSince1970: 1)),
        ])
    }

    @Test("refuses other shapes", arguments: [
        "", "[]", "{", #"{"a":null}"#, #"{"a":[1]}"#, #"{"a":{"when":1}}"#, #"{"a":1}x"#, #"{"a":"\ud800"}"#,
        #"{"a":-}"#, #"{"a":1e999}"#, #"{"a" 1}"#,
    ])
    func refusesOtherShapes(text: String) {
        #expect(throws: AttributeJSONError.self) { try AttributeJSON.decode(text) }
    }
}
