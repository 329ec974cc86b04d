import CairnCore
import CairnTestSupport
import Foundation
@testable import CairnIO
import Testing

/// Issue #15 items 6 and 9: ids with control characters are refused row by row; derived ids keep the path as
/// given; messages never carry a control character from the input.
@Suite struct IdAndMessageSafetyTests {
    /// Every record of `text` in a file `name` of a fresh folder, read by the reader its name selects.
    func records(_ name: String, _ text: String) throws -> [ImportRecord] {
        let folder = try TemporaryFolder()
        let path = try folder.write(name, text)
        return try jsonReadAll(openFeatureReader(path: path, options: ImportOptions()))
    }

    @Test func anIdWithANulByteIsRejectedAloneWithFileLineAndField() throws {
        let read = try records("p.csv", "id,lat,lon\npark-1,1,2\npark-1\u{0}evil,1,2\npark-2,3,4\n")
        #expect(jsonFeatures(read).map(\.id) == ["park-1", "park-2"])
        let rejection = try #require(jsonRejections(read).first)
        #expect(rejection.line == 3 && rejection.field == "id")
        #expect(rejection.reason.contains("control characters") && rejection.reason.contains("park-1\\u{0}evil"))
        #expect(rejection.description.hasSuffix("p.csv:3: field 'id': an id may not contain control characters (U+0000-U+001F, U+007F), got 'park-1\\u{0}evil'"))
    }

    @Test(arguments: [
        ("l.jsonl", "{\"id\":\"a\",\"lat\":1,\"lon\":2}\n{\"id\":\"b\\u001b[2J\",\"lat\":1,\"lon\":2}\n{\"id\":\"c\\u007f\",\"lat\":1,\"lon\":2}\n"),
        ("g.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[2,1]},"properties":{}},
            {"type":"Feature","id":"b\\u001b[2J","geometry":{"type":"Point","coordinates":[2,1]},"properties":{}},
            {"type":"Feature","properties":{"id":"c\\u0007"},"geometry":{"type":"Point","coordinates":[2,1]}}
            ]}
            """),
    ])
    func jsonIdsWithControlCharactersAreRejected(name: String, text: String) throws {
        let read = try records(name, text)
        #expect(jsonFeatures(read).map(\.id) == ["a"])
        let rejections = jsonRejections(read)
        #expect(rejections.count == 2 && rejections.allSatisfy { $0.field == "id" && $0.reason.contains("control characters") })
        #expect(rejections.map(\.line) == (name.hasSuffix("jsonl") ? [2, 3] : [3, 4]))
        #expect(!rejections.contains { $0.description.unicodeScalars.contains { TextEscaping.isControl($0) } })
    }

    @Test func derivedIdsKeepThePathAsGiven() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("d1"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("d2"), withIntermediateDirectories: true)
        var ids: [String] = []
        for dir in ["d1", "d2"] {
            let path = try folder.write(dir + "/p.csv", "name,lat,lon\nA,1,2\n")
            ids += jsonFeatures(try jsonReadAll(openFeatureReader(path: path, options: ImportOptions()))).map(\.id)
        }
        #expect(ids == [folder.path("d1/p.csv") + ":2", folder.path("d2/p.csv") + ":2"])
    }

    @Test func messagesEscapeControlCharactersFromTheInput() throws {
        let read = try records("e.csv", "id,lat,lon\na,\u{1B}]0;owned\u{7},2\nb,\u{9B}31m,2\n")
        let messages = jsonRejections(read).map(\.description)
        #expect(messages.count == 2)
        #expect(messages[0].hasSuffix("e.csv:2: field 'latitude': expected a number in [-90, 90], got '\\u{1B}]0;owned\\u{7}'"))
        #expect(messages[1].hasSuffix("got '\\u{9B}31m'"))
        #expect(InputError(file: "x\u{1B}.csv", line: 4, message: "bad 'a\nb'").description == "x\\u{1B}.csv:4: bad 'a\\u{A}b'")
        #expect(RowRejection(file: "f", line: 1, field: nil, reason: "plain 'ä'").description == "f:1: plain 'ä'")
    }

    @Test func escapingLeavesOrdinaryTextAloneAndCanKeepLineFeeds() {
        #expect(TextEscaping.escapingControlCharacters("Ääkkönen 🌲 \\u{1B}") == "Ääkkönen 🌲 \\u{1B}")
        #expect(TextEscaping.escapingControlCharacters("a\u{0}b\u{7F}c\u{9B}d\te\nf") == "a\\u{0}b\\u{7F}c\\u{9B}d\\u{9}e\\u{A}f")
        #expect(TextEscaping.escapingControlCharacters("one\ntwo\u{1B}", keepingLineFeeds: true) == "one\ntwo\\u{1B}")
    }
}
