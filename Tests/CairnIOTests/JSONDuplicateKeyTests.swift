import CairnCore
import CairnTestSupport
import Testing
@testable import CairnIO

/// #15 item 9: one rule for a repeated JSON key, everywhere: the record is refused (before, the geometry took the
/// first `geometry` member and the properties the last of a repeated property).
@Suite struct JSONDuplicateKeyTests {
    @Test func theParserRefusesARepeatedKeyAtAnyDepthAndSize() throws {
        for text in [#"{"a":1,"a":2}"#, #"{"a":1,"b":{"c":1,"c":1}}"#, #"[{"x":null,"y":0,"x":null}]"#, #"{"\u0061":1,"a":2}"#] {
            #expect(throws: JSONSyntaxError.self, "\(text)") { try JSONParser.parse(text) }
        }
        // Past the size where a set takes over from comparing in place.
        let many = (0..<40).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\(many),\"k7\":1}") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\(many),\"k39\":1}") }
        _ = try JSONParser.parse("{\(many)}")
        do {
            _ = try JSONParser.parse(#"{"id":"a",  "id":"b"}"#)
            Issue.record("accepted a repeated key")
        } catch {
            #expect(error.column == 13)
            #expect(error.message.hasPrefix("duplicate key \"id\" in an object"))
        }
    }

    /// Keys are compared code unit by code unit (RFC 8259, section 8.3), not by Swift's canonical equivalence:
    /// "é" and "e" + U+0301 are two keys.
    @Test func keysThatOnlyLookAlikeAreDistinct() throws {
        let value = try JSONParser.parse(#"{"\u00e9":1,"e\u0301":2}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.count == 2)
        let many = (0..<20).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        _ = try JSONParser.parse("{\(many),\"\\u00e9\":1,\"e\\u0301\":2}")
    }

    @Test func everyReaderRejectsTheRecordAloneAndGoesOn() throws {
        let folder = try TemporaryFolder()
        let point = #""geometry":{"type":"Point","coordinates":[2,1]}"#
        let lines = [
            #"{"id":"dup-geometry","type":"Feature",\#(point),"geometry":{"type":"Point","coordinates":[4,3]},"properties":{}}"#,
            #"{"id":"dup-property","type":"Feature",\#(point),"properties":{"name":"a","name":"b"}}"#,
            #"{"id":"dup-flat","lat":1,"lon":2,"lat":3}"#,
            #"{"id":"ok","lat":1,"lon":2}"#,
        ]
        let jsonl = try folder.write("d.jsonl", lines.joined(separator: "\n") + "\n")
        let records = try jsonReadAll(makeJSONLinesReader(path: jsonl, options: ImportOptions()))
        #expect(jsonFeatures(records).map(\.id) == ["ok"])
        #expect(jsonRejections(records).map(\.line) == [1, 2, 3])
        #expect(jsonRejections(records).allSatisfy { $0.reason.contains("duplicate key") })

        let collection = try folder.write("d.geojson", "{\"type\":\"FeatureCollection\",\"features\":[\n" + lines.prefix(2).joined(separator: ",\n")
            + ",\n{\"type\":\"Feature\",\"id\":\"ok\",\(point)}]}")
        let fromCollection = try jsonReadAll(makeGeoJSONReader(path: collection, options: ImportOptions()))
        #expect(jsonFeatures(fromCollection).map(\.id) == ["ok"])
        #expect(jsonRejections(fromCollection).map(\.line) == [2, 3])

        // A bare Feature's top level follows the same rule.
        let bare = try folder.write("b.geojson", #"{"type":"Feature",\#(point),"id":"x",\#(point)}"#)
        #expect(jsonInputError { () throws(InputError) in try makeGeoJSONReader(path: bare, options: ImportOptions()) }?
            .message.hasPrefix("duplicate top-level key \"geometry\"") == true)
    }
}
