import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnIO

/// #15 item 7 (JSON side): a record longer than `ImportOptions.maxRecordBytes` is rejected alone, by its line,
/// reading goes on, and no more than the limit of it is ever held. A small limit keeps these fast.
@Suite struct JSONRecordLimitTests {
    static let limit = 1024
    static let options = ImportOptions(maxRecordBytes: limit)
    static let big = String(repeating: "x", count: 5000)

    /// Writes `text` to `name` (gzip'd when `gzip`); returns the path.
    func write(_ folder: TemporaryFolder, _ name: String, _ text: String, gzip: Bool) throws -> String {
        let path = try folder.write(name, text)
        guard gzip else { return path }
        _ = try SystemCommand.run(["gzip", path])
        return path + ".gz"
    }

    @Test(arguments: [false, true]) func anOversizedJSONLineIsRejectedAloneAndReadingGoesOn(gzip: Bool) throws {
        let folder = try TemporaryFolder()
        let text = """
            {"id":"a","lat":1,"lon":2}
            {"id":"big","lat":1,"lon":2,"name":"\(Self.big)"}
            {"id":"b","lat":3,"lon":4}

            """
        let path = try write(folder, "r.jsonl", text, gzip: gzip)
        let records = try jsonReadAll(makeJSONLinesReader(path: path, options: Self.options))
        let length = text.split(separator: "\n")[1].utf8.count
        #expect(jsonSummaries(records) == [
            "1 a 1.0 2.0",
            "2 ! the record is \(length) bytes long, over the limit of 1024 bytes (raise it with --max-record-mib)",
            "3 b 3.0 4.0",
        ])
    }

    @Test func anOversizedTextSequenceRecordIsRejectedAlone() throws {
        let folder = try TemporaryFolder()
        let feature = { (id: String, name: String) in
            "\u{1E}{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\n\"properties\":{\"name\":\"\(name)\"}}\n"
        }
        let path = try folder.write("r.geojsons", feature("a", "x") + feature("big", Self.big) + feature("b", "y"))
        let records = try jsonReadAll(makeGeoJSONSeqReader(path: path, options: Self.options))
        let summaries = jsonSummaries(records)
        #expect(summaries.count == 3)
        #expect(summaries.first == "1 a 1.0 2.0")
        #expect(summaries[1].hasPrefix("3 ! the record is ") && summaries[1].hasSuffix("over the limit of 1024 bytes (raise it with --max-record-mib)"))
        #expect(summaries.last == "5 b 1.0 2.0")
    }

    @Test(arguments: [false, true]) func anOversizedFeatureInACollectionIsRejectedAlone(gzip: Bool) throws {
        let folder = try TemporaryFolder()
        let feature = { (id: String, name: String) in
            "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]},\"properties\":{\"name\":\"\(name)\"}}"
        }
        // The big one holds brackets and quotes in its string, and nests deeper than the parser allows.
        let deep = String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)
        let text = "{\"type\":\"FeatureCollection\",\"features\":[\n" + feature("a", "x") + ",\n"
            + feature("big", Self.big + "]}\\\"{") + ",\n"
            + "{\"type\":\"Feature\",\"geometry\":\(deep)},\n"
            + feature("b", "y") + "\n]}\n"
        let path = try write(folder, "c.geojson", text, gzip: gzip)
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: Self.options))
        let summaries = jsonSummaries(records)
        #expect(summaries.count == 4, "\(summaries)")
        #expect(summaries.first == "2 a 1.0 2.0")
        #expect(summaries[1].hasPrefix("3 ! the record is 5"))
        #expect(summaries[2] == "4 ! the record is 6030 bytes long, over the limit of 1024 bytes (raise it with --max-record-mib)")
        #expect(summaries.last == "5 b 1.0 2.0")
    }

    @Test func anOversizedBareFeatureIsRejected() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("f.geojson", """
            {"type":"Feature","id":"big","geometry":{"type":"Point","coordinates":[2,1]},
             "properties":{"name":"\(Self.big)"}}
            """)
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: Self.options))
        #expect(jsonSummaries(records).count == 1)
        #expect(jsonSummaries(records).first?.hasPrefix("1 ! the record is ") == true)
    }

    /// The cutter keeps at most the limit of a value and still finds where it ends.
    @Test func theCutterKeepsAtMostTheLimit() throws {
        let folder = try TemporaryFolder()
        let value = "{\"a\":\"" + Self.big + "\",\"b\":[" + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "]}"
        let path = try folder.write("v.json", value + " ,{\"c\":1}")
        let cursor = JSONByteCursor(source: try ByteSource(path: path), chunkSize: 100)
        var cutter = JSONValueCutter(maxBytes: Self.limit)
        var buffer: [UInt8] = []
        _ = try cursor.skipWhitespace()
        #expect(try cutter.cut(from: cursor, into: &buffer) == .tooLong(length: value.utf8.count))
        #expect(buffer.count == Self.limit)
        #expect(buffer.capacity <= 2 * Self.limit)
        #expect(try cursor.skipWhitespace() == UInt8(ascii: ","))
    }
}

/// #15 item 9: a run of stray commas in a features array is one rejection, naming its first line and the count.
@Suite struct GeoJSONStrayCommaTests {
    @Test func aRunOfStrayCommasIsOneRejection() throws {
        let folder = try TemporaryFolder()
        let feature = { (id: String) in "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]}}" }
        let commas = String(repeating: ",", count: 100_000)
        let text = "{\"type\":\"FeatureCollection\",\"features\":[,\n" + feature("a") + ",\(commas)\n,,\n" + feature("b") + ",,"
            + feature("c") + "]}\n"
        let path = try folder.write("c.geojson", text)
        let records = try jsonReadAll(makeGeoJSONReader(path: path, options: ImportOptions()))
        #expect(jsonSummaries(records) == [
            "1 ! a stray ',' at column 41 of the \"features\" array, expected a feature",
            "2 a 1.0 2.0",
            "2 ! 100002 stray ',' in a row (to line 3) at column \(feature("a").utf8.count + 2) of the \"features\" array, expected a feature",
            "4 b 1.0 2.0",
            "4 ! a stray ',' at column \(feature("b").utf8.count + 2) of the \"features\" array, expected a feature",
            "4 c 1.0 2.0",
        ])
    }

    /// A trailing comma before `]` stays the structure error it was (the features before it are read).
    @Test func aTrailingRunStillEndsInTheStructureError() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("t.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"lat\":1,\"lon\":2}},,,]}")
        let reader = try makeGeoJSONReader(path: path, options: ImportOptions())
        let first = try #require(try reader.next())
        #expect(jsonSummaries([first]) == ["1 \(path):1:41 1.0 2.0"]) // derived ids keep the path as given
        let second = try #require(try reader.next())
        #expect(jsonSummaries([second]).first?.contains("2 stray ','") == true)
        #expect(throws: InputError.self) { try reader.next() }
    }
}
