import CairnCore
import Foundation
import Testing
@testable import CairnIO

/// Seeded generated files read with many chunk sizes, so features, strings, escapes, multi-byte characters and
/// line breaks straddle chunk boundaries; every read must match the generator's own record of what it wrote.
struct GeoJSONChunkBoundaryTests {
    private static let chunkSizes = [1, 2, 3, 5, 8, 13, 64, 1000, JSONByteCursor.defaultChunkSize]

    /// One generated record and what a reader must yield for it.
    private struct Expected {
        var line: Int
        var summary: String
        var name: String?
    }

    /// JSON string literal written by the test itself (independent of `JSONValue.jsonText`), escaping randomly.
    private static func quoted(_ text: String, _ random: inout JSONTestRandom) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || random.next() % 4 == 0 {
                    for unit in String(scalar).utf16 {
                        let hex = String(unit, radix: 16)
                        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                    }
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func separator(_ random: inout JSONTestRandom, multiline: Bool) -> String {
        let choices = multiline ? ["", " ", "\n", "\n  ", "\t", "\r\n"] : ["", " ", "\t"]
        return choices[Int(random.next() % UInt64(choices.count))]
    }

    /// One feature's JSON text (a GeoJSON Feature or a flat record) and its expected outcome.
    private static func feature(_ index: Int, _ random: inout JSONTestRandom, multiline: Bool, flat: Bool) -> (String, String, String?) {
        let id = "f\(index)"
        let latitude = random.uniform(-90, 90), longitude = random.uniform(-180, 180)
        let name = "n-" + jsonRandomString(&random)
        func s() -> String { separator(&random, multiline: multiline) }
        if index % 7 == 3 { // malformed: a trailing comma inside the coordinates
            let text = "{\(s())\"type\":\(s())\"Feature\",\(s())\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2,]},\"properties\":{}}"
            return (text, "! invalid JSON", nil)
        }
        if index % 11 == 5 { // out of range latitude
            let text = flat
                ? "{\"id\":\"\(id)\",\(s())\"lat\":\(s())95.5,\"lon\":10}"
                : "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[10,\(s())95.5]},\"properties\":{}}"
            return (text, "! " + (flat ? "field 'latitude': latitude 95.5" : "geometry.coordinates: latitude 95.5"), nil)
        }
        let members: [String]
        if flat {
            members = ["\"id\":\(s())\"\(id)\"", "\"lat\":\(s())\(latitude)", "\"lon\":\(s())\(longitude)", "\"name\":\(s())\(quoted(name, &random))"]
        } else {
            members = [
                "\"type\":\(s())\"Feature\"",
                "\"id\":\(s())\"\(id)\"",
                "\"geometry\":\(s()){\(s())\"type\":\"Point\",\(s())\"coordinates\":\(s())[\(s())\(longitude),\(s())\(latitude)\(s())]\(s())}",
                "\"properties\":\(s()){\"name\":\(s())\(quoted(name, &random)),\(s())\"nested\":{\"a\":[[1],{\"b\":\"]}\"}]}}",
            ]
        }
        let order = members.indices.sorted { _, _ in random.next() % 2 == 0 }
        let body = order.map { members[$0] }.joined(separator: "," + s())
        return ("{" + s() + body + s() + "}", "\(id) \(latitude) \(longitude)", name)
    }

    private static func lineCount(_ text: String) -> Int { 1 + text.utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }

    private static func makeCollection(seed: UInt64, count: Int) -> (String, [Expected]) {
        var random = JSONTestRandom(seed: seed)
        var text = "{\"name\":\(quoted("x ] } \" [ " + jsonRandomString(&random), &random)),\n \"bbox\": [1, [2, {\"c\": \"]\"}]],\n\"type\": \"FeatureCollection\",\"features\":" + separator(&random, multiline: true) + "["
        var expected: [Expected] = []
        for index in 0..<count {
            if index > 0 { text += "," }
            text += separator(&random, multiline: true)
            let line = lineCount(text)
            let (feature, summary, name) = GeoJSONChunkBoundaryTests.feature(index, &random, multiline: true, flat: false)
            text += feature
            expected.append(Expected(line: line, summary: summary, name: name))
        }
        text += separator(&random, multiline: true) + "],\n\"crs\": null}\n"
        return (text, expected)
    }

    private static func makeLines(seed: UInt64, count: Int, flat: Bool, recordSeparators: Bool) -> (String, [Expected]) {
        var random = JSONTestRandom(seed: seed)
        var text = ""
        var expected: [Expected] = []
        for index in 0..<count {
            if random.next() % 5 == 0 { text += recordSeparators ? "\u{1E}\n" : "  \n" } // blank records
            if recordSeparators { text += "\u{1E}" }
            let line = lineCount(text)
            let (feature, summary, name) = GeoJSONChunkBoundaryTests.feature(index, &random, multiline: false, flat: flat)
            text += feature + (random.next() % 2 == 0 ? "\r\n" : "\n")
            expected.append(Expected(line: line, summary: summary, name: name))
        }
        return (text, expected)
    }

    private static func withTemporaryFile<T>(_ text: String, _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-json-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url.path)
    }

    private func check(_ records: [ImportRecord], against expected: [Expected], chunkSize: Int) {
        #expect(records.count == expected.count, "chunk size \(chunkSize)")
        for (record, want) in zip(records, expected) {
            switch record {
            case .feature(let feature, let line):
                #expect(line == want.line, "chunk size \(chunkSize)")
                #expect("\(feature.id) \(feature.location.latitude) \(feature.location.longitude)" == want.summary, "chunk size \(chunkSize)")
                #expect(feature.attributes["name"] == want.name.map { AttributeValue.string($0) }, "chunk size \(chunkSize)")
            case .rejected(let rejection):
                #expect(rejection.line == want.line, "chunk size \(chunkSize): \(rejection)")
                #expect(want.summary.hasPrefix("! "), "chunk size \(chunkSize): \(rejection)")
                #expect(rejection.reason.hasPrefix(want.summary.dropFirst(2)), "chunk size \(chunkSize): \(rejection)")
            }
        }
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func featureCollection(seed: UInt64) throws {
        let (text, expected) = GeoJSONChunkBoundaryTests.makeCollection(seed: seed, count: 40)
        try GeoJSONChunkBoundaryTests.withTemporaryFile(text) { path in
            for chunkSize in GeoJSONChunkBoundaryTests.chunkSizes {
                let records = try jsonReadAll(GeoJSONReader(path: path, options: ImportOptions(), chunkSize: chunkSize))
                check(records, against: expected, chunkSize: chunkSize)
            }
        }
    }

    @Test(arguments: [UInt64(4), 5])
    func geoJSONSequence(seed: UInt64) throws {
        for recordSeparators in [true, false] {
            let (text, expected) = GeoJSONChunkBoundaryTests.makeLines(seed: seed, count: 40, flat: false, recordSeparators: recordSeparators)
            try GeoJSONChunkBoundaryTests.withTemporaryFile(text) { path in
                for chunkSize in GeoJSONChunkBoundaryTests.chunkSizes {
                    let records = try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .geoJSONFeatures, chunkSize: chunkSize))
                    check(records, against: expected, chunkSize: chunkSize)
                }
            }
        }
    }

    @Test(arguments: [UInt64(6), 7])
    func jsonLines(seed: UInt64) throws {
        for flat in [true, false] {
            let (text, expected) = GeoJSONChunkBoundaryTests.makeLines(seed: seed, count: 40, flat: flat, recordSeparators: false)
            try GeoJSONChunkBoundaryTests.withTemporaryFile(text) { path in
                for chunkSize in GeoJSONChunkBoundaryTests.chunkSizes {
                    let records = try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .featuresOrFlatRecords, chunkSize: chunkSize))
                    check(records, against: expected, chunkSize: chunkSize)
                }
            }
        }
    }

    @Test func fixturesReadTheSameWithTinyChunks() throws {
        for name in ["collection.geojson", "rejections.geojson", "truncated.geojson.gz", "invalid-utf8.geojson", "bare-feature.geojson", "helsinki-parks.geojson.gz"] {
            let path = try jsonFixture(name)
            let reference = jsonSummaries(try jsonReadAll(GeoJSONReader(path: path, options: ImportOptions())))
            for chunkSize in [1, 2, 7] {
                #expect(jsonSummaries(try jsonReadAll(GeoJSONReader(path: path, options: ImportOptions(), chunkSize: chunkSize))) == reference, "\(name) \(chunkSize)")
            }
        }
        for name in ["records.jsonl", "sequence.geojsons"] {
            let path = try jsonFixture(name)
            let reference = jsonSummaries(try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .featuresOrFlatRecords)))
            let seqReference = jsonSummaries(try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .geoJSONFeatures)))
            for chunkSize in [1, 2, 7] {
                #expect(jsonSummaries(try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .featuresOrFlatRecords, chunkSize: chunkSize))) == reference)
                #expect(jsonSummaries(try jsonReadAll(DelimitedJSONReader(path: path, options: ImportOptions(), records: .geoJSONFeatures, chunkSize: chunkSize))) == seqReference)
            }
        }
    }
}
