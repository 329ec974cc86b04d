import CairnCore
import CairnIO
import CairnTestSupport
import Testing
@testable import CairnCheckIns

/// #14 "one JSON reader": a check-in line is what CairnIO's `JSONParser` accepts, nothing more, nothing less.
@Suite struct CheckInJSONLineParserTests {
    /// The parser's verdict and fields for one line.
    func read(_ line: [UInt8]) -> (fields: [String], problem: String?) {
        var parser = CheckInJSONLineParser()
        defer { parser.deallocate() }
        parser.reset(forBufferOf: line.count)
        return line.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return ([], "empty") }
            let (row, problem) = parser.parse(base, start: 0, end: line.count)
            return ([row.id, row.user, row.event, row.place, row.latitude, row.longitude, row.time, row.accuracy].map(\.text), problem)
        }
    }

    /// What `JSONParser` makes of the line: nil when it refuses it or it is not an object, else each column's text.
    func expected(_ line: [UInt8]) -> [String]? {
        guard let value = try? JSONParser.parse(line), case .object(let members) = value else { return nil }
        var fields = [String](repeating: "", count: CheckInColumn.allCases.count)
        for member in members {
            guard let column = CheckInColumn.resolve(member.key) else { continue }
            switch member.value {
            case .string(let text): fields[column.rawValue] = text
            case .number: fields[column.rawValue] = member.numberText ?? ""
            case .bool(let flag): fields[column.rawValue] = flag ? "true" : "false"
            case .null, .array, .object: break
            }
        }
        return fields
    }

    /// Lines the check-ins' own reader used to accept although they are not JSON: now `malformed_row`.
    @Test func linesJSONParserRefusesAreMalformed() {
        let good = #"{"id":"c1","userId":"u","placeId":"p","lat":0,"lon":0,"time":"2026-06-01T10:00:00Z"}"#
        #expect(read(Array(good.utf8)).problem == nil)
        let refused: [[UInt8]] = [
            Array(#"{"id":"c1","userId":"u","lat":abc,"lon":0,"time":"2026-06-01T10:00:00Z"}"#.utf8),      // bare token
            Array(#"{"id":"c1","userId":"u","lat":0x10,"lon":0,"time":"t"}"#.utf8),                          // not a JSON number
            Array(#"{"id":"c1","userId":"u\#u{01}","lat":0,"lon":0,"time":"t"}"#.utf8),                      // raw control character
            Array(#"{"id":"c1","userId":"\ud800","lat":0,"lon":0,"time":"t"}"#.utf8),                        // lone surrogate
            Array(#"{"id":"c1","userId":"u","lat":0,"lon":0,"time":"t","extra":{"a":tru}}"#.utf8),           // bad nested value
            Array(#"{"id":"c1","userId":"u","lat":0,"lon":0,"time":"t",}"#.utf8),                            // trailing comma
            Array(#"{"id":"c1","userId":"u","lat":0,"lon":0,"time":"t","lat":1}"#.utf8),                     // repeated key
            Array(#"{"id":"c1","userId":"u","lat":01,"lon":0,"time":"t"}"#.utf8),                            // leading zero
            Array(#"{"id":"c1"} x"#.utf8),                                                                   // text after
            [UInt8](#"{"id":"c1","userId":"u"#.utf8) + [0xC3, 0x28] + Array(#"","lat":0,"lon":0}"#.utf8),   // bad UTF-8
        ]
        for line in refused {
            let (fields, problem) = read(line)
            #expect(problem != nil, "\(String(decoding: line, as: UTF8.self))")
            #expect(fields[0] == "c1", "the id read before the problem is kept for the verdict row")
        }
        #expect(read(Array("[1,2]".utf8)).problem == "expected a JSON object, got an array")
        #expect(read(Array(#"{"id":"c1","lat":abc}"#.utf8)).problem?.hasPrefix("invalid JSON at column 18: ") == true)
    }

    /// Values come out the same from both paths: escapes unescaped, numbers as written, null absent.
    @Test func bothPathsHandOutTheSameValues() {
        let plain = #"{"id":"c1","userId":"ada","eventId":null,"placeId":"p","lat":-1.5e3,"lon":0,"time":"t","accuracy":true}"#
        let escaped = #"{"id":"c\u0031","userId":"ad\u0061","eventId":null,"placeId":"p","lat":-1.5e3,"lon":0,"time":"t","accuracy":true,"x":[{}]}"#
        #expect(read(Array(plain.utf8)).fields == ["c1", "ada", "", "p", "-1.5e3", "0", "t", "true"])
        #expect(read(Array(escaped.utf8)).fields == read(Array(plain.utf8)).fields)
    }

    /// Seeded differential test: random check-in lines and mutations of them; the reader and `JSONParser` agree on
    /// every line's validity and, where valid, on every field.
    @Test func agreesWithJSONParserOnRandomAndMutatedLines() {
        var random = SplitMix64(seed: 0x15_14)
        let keys = ["id", "userId", "eventId", "placeId", "lat", "lon", "latitude", "time", "accuracy", "extra", "x y", "ID"]
        let values = [#""c1""#, #""ada""#, #""2026-06-01T10:00:00Z""#, #""""#, #""a\"b""#, #""\u00e9t\u00e9""#, #""é""#,
                      #""\ud83d\ude00""#, "0", "-0", "12", "-17.25", "1e5", "2.5E-3", "1e999", "123456789012345678901234",
                      "true", "false", "null", #"{"a":[1,2,{"b":null}]}"#, "[]", "{}"]
        let alphabet: [UInt8] = Array(#""\{}[],:01-+.eEtnu"#.utf8) + [0x20, 0x09, 0x0D, 0x01, 0x7F, 0xC3, 0xA9, 0xFF, 0xED, 0xA0, 0x80, 0x61]
        var agreed = (valid: 0, invalid: 0)
        // The same parser for every line, as in a batch: its layout carries from line to line.
        var parser = CheckInJSONLineParser()
        defer { parser.deallocate() }
        for round in 0..<10_000 {
            let count = Int(random.next() % 9)
            var members: [String] = []
            for _ in 0..<count {
                let key = keys[Int(random.next() % UInt64(keys.count))]
                let value = values[Int(random.next() % UInt64(values.count))]
                let space = random.next() % 4 == 0 ? " " : ""
                members.append("\"\(key)\"\(space):\(space)\(value)")
            }
            var line = Array(("{" + members.joined(separator: ",") + "}").utf8)
            // Most lines repeat a fixed layout, as a file does; some are mutated.
            if round % 3 == 0 { line = Array(#"{"id":"c\#(round)","userId":"u","lat":1.5,"lon":-2,"time":"t"}"#.utf8) }
            let mutations = random.next() % 3 == 0 ? Int(random.next() % 3) + 1 : 0
            for _ in 0..<mutations where !line.isEmpty {
                let at = Int(random.next() % UInt64(line.count))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 4 {
                case 0: line.remove(at: at)
                case 1: line.insert(byte, at: at)
                case 2: line[at] = byte
                default: line.removeSubrange(at...)
                }
            }
            let want = expected(line)
            parser.reset(forBufferOf: line.count)
            let got: (fields: [String], problem: String?) = line.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return ([], "empty") }
                let (row, problem) = parser.parse(base, start: 0, end: line.count)
                return ([row.id, row.user, row.event, row.place, row.latitude, row.longitude, row.time, row.accuracy].map(\.text), problem)
            }
            let text = String(decoding: line, as: UTF8.self)
            #expect((got.problem == nil) == (want != nil), "round \(round): \(text) \(got.problem ?? "accepted")")
            if let want, got.problem == nil {
                #expect(got.fields == want, "round \(round): \(text)")
                agreed.valid += 1
            } else {
                agreed.invalid += 1
            }
        }
        // Both verdicts are well represented.
        #expect(agreed.valid > 2_500 && agreed.invalid > 1_000, "\(agreed)")
    }
}
