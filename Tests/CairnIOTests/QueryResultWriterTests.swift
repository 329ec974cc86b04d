import CairnCore
import CairnTestSupport
import Foundation
@testable import CairnIO
import Testing

/// The query result encoders, byte for byte: what `cairn bbox/around/nearest/containing` print and a server sends.
@Suite struct QueryResultWriterTests {
    let rows: [QueryResultRow]

    init() throws {
        let hel = try Feature(id: "hel", kind: .place, location: Coordinate(latitude: 60.16952, longitude: 24.93545), radiusMeters: 2000,
                              attributes: ["name": .string("Helsinki, \"HEL\""), "fenced": .bool(true)])
        let match = try Feature(id: "m1", kind: .event, location: Coordinate(latitude: -0.0, longitude: 24.5),
                                timeWindow: TimeWindow(start: Timestamp(secondsSince1970: 0), end: Timestamp(secondsSince1970: 3600)),
                                attributes: ["tags": .stringSet(["a", "b"]), "price": .number(12.5)])
        rows = [QueryResultRow(feature: hel, distanceMeters: 258.1875), QueryResultRow(feature: match, distanceMeters: 1000)]
    }

    func written(_ format: QueryResultFormat, _ rows: [QueryResultRow]) -> String {
        let sink = MemorySink()
        QueryResultWriter(format: format).write(rows, to: sink)
        return sink.text
    }

    @Test func geoJSON() {
        #expect(written(.geojson, rows) == """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","id":"hel","geometry":{"type":"Point","coordinates":[24.93545,60.16952]},"properties":{"kind":"place","radiusMeters":2000,"distance_m":258.1875,"fenced":true,"name":"Helsinki, \\"HEL\\""}},
            {"type":"Feature","id":"m1","geometry":{"type":"Point","coordinates":[24.5,-0]},"properties":{"kind":"event","startTime":"1970-01-01T00:00:00Z","endTime":"1970-01-01T01:00:00Z","distance_m":1000,"price":12.5,"tags":["a","b"]}}
            ]}

            """)
        #expect(written(.geojson, []) == "{\"type\":\"FeatureCollection\",\"features\":[\n]}\n")
    }

    @Test func flatJSON() {
        #expect(written(.json, [QueryResultRow(feature: rows[0].feature)]) == """
            [
            {"id":"hel","kind":"place","latitude":60.16952,"longitude":24.93545,"radiusMeters":2000,"fenced":true,"name":"Helsinki, \\"HEL\\""}
            ]

            """)
    }

    @Test func csvAndIds() {
        #expect(written(.csv, rows) == #"""
            id,kind,latitude,longitude,radiusMeters,startTime,endTime,distance_m,fenced,name,price,tags
            hel,place,60.16952,24.93545,2000,,,258.1875,true,"Helsinki, ""HEL""",,
            m1,event,-0,24.5,,1970-01-01T00:00:00Z,1970-01-01T01:00:00Z,1000,,,12.5,a;b

            """#)
        #expect(written(.ids, rows) == "hel\nm1\n")
    }

    @Test func gzipSinkWritesWhatAPlainOneDoes() throws {
        let folder = try TemporaryFolder()
        for name in ["r.geojson", "r.geojson.gz"] {
            let sink = try OutputSink(path: folder.path(name))
            QueryResultWriter(format: .geojson).write(rows, to: sink)
            try sink.close()
        }
        let packed = Array(try Data(contentsOf: URL(fileURLWithPath: folder.path("r.geojson.gz"))))
        #expect(Array(packed.prefix(2)) == [0x1F, 0x8B])
        #expect(try readAll(folder.path("r.geojson.gz")) == Array(written(.geojson, rows).utf8))
        #expect(try readAll(folder.path("r.geojson")) == Array(written(.geojson, rows).utf8))
    }

    func readAll(_ path: String) throws -> [UInt8] {
        let source = try ByteSource(path: path)
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1000)
        while case let read = try chunk.withUnsafeMutableBytes({ try source.read(into: $0) }), read > 0 { bytes += chunk[..<read] }
        return bytes
    }
}
