import CairnCore
import CairnTestSupport
@testable import CairnIO
import Foundation
import Testing

@Suite("CSV feature reader")
struct CSVFeatureReaderTests {
    // MARK: - The committed fixture

    /// The expected reading of Fixtures/places.csv, record by record (line numbers counted by hand).
    static let placesExpectation: [(line: Int, id: String?, reason: String?)] = [
        (2, "p1", nil),
        (3, "p2", nil),
        (4, "p3", nil),
        (6, nil, "field 'latitude': latitude 95 is out of range [-90, 90] (are latitude and longitude swapped?)"),
        (7, nil, "field 'latitude': latitude 150 is out of range [-90, 90] (are latitude and longitude swapped?)"),
        (8, nil, "field 'latitude': expected a number in [-90, 90], got 'abc'"),
        (9, nil, "expected 7 fields as in the header, found 5"),
        (11, "p8", nil),
    ]

    @Test("fixture: quoting, an embedded newline, bad rows between good rows", arguments: ["places.csv", "places.csv.gz"])
    func fixture(name: String) throws {
        let path = try fixturesDirectory().appendingPathComponent(name).path
        let records = try readAllRecords(path: path)
        try #require(records.count == Self.placesExpectation.count)
        for (record, expected) in zip(records, Self.placesExpectation) {
            #expect(record.line == expected.line)
            if let id = expected.id {
                #expect(record.feature?.id == id, "line \(expected.line): \(record.summary)")
            } else {
                #expect(record.rejection?.reason == expected.reason, "line \(expected.line): \(record.summary)")
                #expect(record.rejection?.file == path)
            }
        }
        let features = records.compactMap(\.feature)
        #expect(features[0].kind == .park && features[0].radiusMeters == 200 && features[0].attributes["fenced"] == .bool(true))
        #expect(features[1].attributes["name"] == .string("Café \"Regatta\", Helsinki"))
        #expect(features[1].radiusMeters == 50)
        #expect(features[2].attributes["name"] == .string("Line one\nline two"))
        #expect(features[2].radiusMeters == 1200)
        #expect(features[2].location == (try Coordinate(latitude: 60.17, longitude: 24.94)))
        #expect(features[3].id == "p8" && features[3].kind == .park)
    }

    @Test("a gzip file reads exactly like the plain file")
    func gzipMatchesPlain() throws {
        let directory = try fixturesDirectory()
        let plain = try readAllRecords(path: directory.appendingPathComponent("places.csv").path)
        let gzip = try readAllRecords(path: directory.appendingPathComponent("places.csv.gz").path)
        #expect(plain.map { $0.summary.replacingOccurrences(of: "places.csv:", with: "") }
            == gzip.map { $0.summary.replacingOccurrences(of: "places.csv.gz:", with: "") })
    }

    // MARK: - Line endings, BOM, chunks

    static let mixedText = #"""
        id,name,lat,lon,note
        a,"Quoted, with comma",10,20,"He said ""hi"""
        b,"Two
        lines",11,21,x

        c,Plain,12,22,"Three
        whole
        lines"
        d,Bad,95,23,y
        e,Last,13,24,
        """# + "\n"

    static let mixedExpectedLines = [2, 3, 6, 9, 10]

    @Test("LF and CRLF line endings give the same records and line numbers")
    func crlf() throws {
        let lf = try readAllRecords(csv: Self.mixedText)
        let crlf = try readAllRecords(csv: Self.mixedText.replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(lf.map(\.line) == Self.mixedExpectedLines)
        #expect(crlf.map(\.line) == Self.mixedExpectedLines)
        #expect(lf.compactMap(\.feature).map(\.id) == ["a", "b", "c", "e"])
        // Quoted line breaks are kept as written: LF in one file, CRLF in the other.
        #expect(lf[1].feature?.attributes["name"] == .string("Two\nlines"))
        #expect(crlf[1].feature?.attributes["name"] == .string("Two\r\nlines"))
        #expect(lf[0].feature?.attributes["note"] == .string("He said \"hi\""))
        #expect(lf[3].rejection?.description == "\(lf[3].rejection?.file ?? ""):9: field 'latitude': latitude 95 is out of range [-90, 90] (are latitude and longitude swapped?)")
        #expect(lf.map { $0.summary.replacingOccurrences(of: "\n", with: "\r\n") } == crlf.map(\.summary))
    }

    @Test("a UTF-8 byte order mark before the header is skipped")
    func byteOrderMark() throws {
        let records = try readAllRecords(csv: "\u{FEFF}id,lat,lon\nx1,1,2\n")
        #expect(records.count == 1)
        #expect(records.first?.feature?.id == "x1")
        #expect(records.first?.feature?.attributes.isEmpty == true)
    }

    @Test("the same records for every chunk size, however records straddle chunks")
    func chunkBoundaries() throws {
        let text = "\u{FEFF}" + Self.mixedText.replacingOccurrences(of: "\n", with: "\r\n") + "f,\"Unterminated,1,2,3\r\n"
        let scratch = try TemporaryFolder()
        let path = try scratch.write("chunks.csv", text)
        let reference = try readAllRecords(path: path).map(\.summary)
        #expect(reference.count == 6)
        #expect(reference.last?.hasSuffix(":11: unterminated quoted field starting on this line [name]") == true)
        for chunkSize in [4, 5, 6, 7, 8, 11, 16, 31, 64] {
            #expect(try readAllRecords(path: path, chunkSize: chunkSize).map(\.summary) == reference, "chunk size \(chunkSize)")
        }
    }

    // MARK: - File-level errors

    @Test("an empty file is an error", arguments: ["", " ", "\n\n", " \r\n\t\n", "\u{FEFF}"])
    func emptyFile(text: String) throws {
        let error = try #require(try inputError(csv: text))
        #expect(error.message == "the file is empty; expected a header row such as id,name,latitude,longitude")
    }

    @Test("a header-only file has no records")
    func headerOnly() throws {
        #expect(try readAllRecords(csv: "id,name,lat,lon\n").isEmpty)
        #expect(try readAllRecords(csv: "id,name,lat,lon").isEmpty)
        #expect(try readAllRecords(csv: "\n\nid,name,lat,lon\n\n").isEmpty)
    }

    @Test("missing required columns are named, with the header found")
    func missingColumns() throws {
        let error = try #require(try inputError(csv: "id,name,lat\n1,x,2\n"))
        #expect(error.line == 1)
        #expect(error.message == "missing required column longitude (or lon, lng, long); the header has: 'id', 'name', 'lat'")
        let both = try #require(try inputError(csv: "id,name\n1,x\n"))
        #expect(both.message == "missing required columns latitude (or lat), longitude (or lon, lng, long); the header has: 'id', 'name'")
    }

    @Test("duplicate columns are an error")
    func duplicateColumns() throws {
        let same = try #require(try inputError(csv: "id,name,lat,lon,name\n"))
        #expect(same.message.hasPrefix("duplicate column name 'name' (columns 2 and 5)"))
        let aliases = try #require(try inputError(csv: "id,lat,latitude,lon\n"))
        #expect(aliases.message.hasPrefix("columns 'lat' and 'latitude' both mean latitude (columns 2 and 3)"))
    }

    // MARK: - Row-level rejections

    @Test("a row with the wrong number of fields is rejected; its neighbours are kept")
    func wrongFieldCount() throws {
        let records = try readAllRecords(csv: "id,name,lat,lon\na,A,1,2\nb,B,1\nc,C,1,2,extra\nd,D,3,4\n")
        #expect(records.map(\.line) == [2, 3, 4, 5])
        #expect(records[1].rejection?.reason == "expected 4 fields as in the header, found 3")
        #expect(records[2].rejection?.reason == "expected 4 fields as in the header, found 5")
        #expect(records.compactMap(\.feature).map(\.id) == ["a", "d"])
    }

    @Test("an unterminated quote rejects its record with the line where it starts; the next line is read again")
    func unterminatedQuote() throws {
        let records = try readAllRecords(csv: "id,name,lat,lon\na,A,1,2\nb,\"B,1,2\nc,C,3,4\n")
        #expect(records.count == 3)
        #expect(records[0].feature?.id == "a")
        #expect(records[1].rejection?.line == 3)
        #expect(records[1].rejection?.reason == "unterminated quoted field starting on this line")
        #expect(records[2].feature?.id == "c")
    }

    @Test("invalid UTF-8 rejects the row and names the field")
    func invalidUTF8() throws {
        let scratch = try TemporaryFolder()
        var bytes = Array("id,name,lat,lon\na,ok,1,2\nb,".utf8)
        bytes += [0x66, 0xC3, 0x28] // "f" then a broken two-byte sequence
        bytes += Array(",1,2\nc,\u{00E9}t\u{00E9},3,4\nd,".utf8)
        bytes += [0xED, 0xA0, 0x80] // an encoded UTF-16 surrogate
        bytes += Array(",5,6\n".utf8)
        let records = try readAllRecords(path: scratch.write("bad.csv", bytes: bytes))
        #expect(records.map(\.line) == [2, 3, 4, 5])
        #expect(records[1].rejection?.field == "name")
        #expect(records[1].rejection?.reason == "field 'name': not valid UTF-8 text")
        #expect(records[2].feature?.attributes["name"] == .string("été"))
        #expect(records[3].rejection?.field == "name")
    }

    @Test("coordinates: out of range, not numeric, swapped")
    func badCoordinates() throws {
        let records = try readAllRecords(csv: """
            id,lat,lon
            a,91,0
            b,0,180.5
            c,north,10
            d,10,
            e,-120,45
            f,NaN,1
            g,-90,-180
            """)
        let reasons = records.map { $0.rejection?.reason }
        #expect(reasons[0] == "field 'latitude': latitude 91 is out of range [-90, 90] (are latitude and longitude swapped?)")
        #expect(reasons[1] == "field 'longitude': longitude 180.5 is out of range [-180, 180]")
        #expect(reasons[2] == "field 'latitude': expected a number in [-90, 90], got 'north'")
        #expect(reasons[3] == "field 'longitude': missing value (expected a number in [-180, 180])")
        #expect(reasons[4] == "field 'latitude': latitude -120 is out of range [-90, 90] (are latitude and longitude swapped?)")
        #expect(reasons[5] == "field 'latitude': latitude must be a finite number, got nan")
        #expect(records[6].feature?.location == (try Coordinate(latitude: -90, longitude: -180)))
        #expect(records.map { $0.rejection?.field } == ["latitude", "longitude", "latitude", "longitude", "latitude", "latitude", nil])
    }

    // MARK: - Names, ids, radius, kinds, times

    @Test("alias names for latitude, longitude and radius", arguments: [
        ("lat", "lng", "rad"), ("latitude", "longitude", "radius"), ("lattitude", "longtitude", "radiusMeters"),
        ("LAT", "long", "radius_m"), ("Latitude", "lon", "RAD"),
    ])
    func aliases(latitude: String, longitude: String, radius: String) throws {
        let records = try readAllRecords(csv: "id,\(latitude),\(longitude),\(radius)\nq,-33.87,151.21,0.5km\n")
        let feature = try #require(records.first?.feature)
        #expect(feature.location == (try Coordinate(latitude: -33.87, longitude: 151.21)))
        #expect(feature.radiusMeters == 500)
        #expect(feature.attributes.isEmpty)
    }

    @Test("--id-column picks the id field; without an id field the id is FILE:LINE")
    func ids() throws {
        let text = "geonameid,name,lat,lon\n12,Takht,32.1,48.9\n\n38,Seyyed,32.2,48.5\n"
        let named = try readAllRecords(csv: text, options: ImportOptions(idColumn: "geonameid"))
        #expect(named.compactMap(\.feature).map(\.id) == ["12", "38"])
        #expect(named.first?.feature?.attributes["geonameid"] == nil)
        let scratch = try TemporaryFolder()
        let path = try scratch.write("cities.csv", text)
        let derived = try readAllRecords(path: path)
        #expect(derived.compactMap(\.feature).map(\.id) == [path + ":2", path + ":4"]) // the path as given
        #expect(derived.first?.feature?.attributes["geonameid"] == .number(12))
        let missing = try #require(try inputError(csv: text, options: ImportOptions(idColumn: "code")))
        #expect(missing.message == "missing required column code; the header has: 'geonameid', 'name', 'lat', 'lon'")
    }

    @Test("the default radius applies where a row has none; units in radius values")
    func radius() throws {
        let text = "id,lat,lon,radius\na,1,2,\nb,1,2,1.2km\nc,1,2,300\nd,1,2,3mi\ne,1,2,-5\nf,1,2,far\n"
        let records = try readAllRecords(csv: text, options: ImportOptions(defaultRadiusMeters: 150))
        #expect(records[0].feature?.radiusMeters == 150)
        #expect(records[1].feature?.radiusMeters == 1200)
        #expect(records[2].feature?.radiusMeters == 300)
        #expect(records[3].feature?.radiusMeters.map { abs($0 - 4828.032) < 1e-6 } == true)
        #expect(records[4].rejection != nil)
        #expect(records[5].rejection?.reason == "field 'radius': expected a distance > 0 such as 150, 150m, 1.2km or 3mi, got 'far'")
        let noDefault = try readAllRecords(csv: "id,lat,lon\na,1,2\n")
        #expect(noDefault[0].feature?.radiusMeters == nil)
    }

    @Test("events with start and end times, with and without zones")
    func events() throws {
        let text = """
            id,kind,name,lat,lon,startTime,endTime,category
            e1,event,Match,60.19,24.92,2026-05-01T18:00:00Z,2026-05-01T20:00:00Z,football
            e2,event,Local,60.19,24.92,2026-05-01T18:00:00+02:00,2026-05-01 19:30,football
            e3,event,No end,60.19,24.92,2026-05-01T18:00:00Z,,running
            e4,event,Backwards,60.19,24.92,2026-05-01T18:00:00Z,2026-05-01T17:00:00Z,running
            e5,event,Bad time,60.19,24.92,tomorrow,2026-05-01T17:00:00Z,running
            """
        let records = try readAllRecords(csv: text)
        let start1 = Timestamp(secondsSince1970: 1_777_658_400) // 2026-05-01T18:00:00Z, from `date -u -d`
        let e1 = try #require(records[0].feature)
        #expect(e1.kind == .event)
        #expect(e1.timeWindow?.start == start1)
        #expect(e1.timeWindow?.end == Timestamp(secondsSince1970: 1_777_658_400 + 7200))
        #expect(e1.attributes["category"] == .string("football"))
        let e2 = try #require(records[1].feature)
        #expect(e2.timeWindow?.start == Timestamp(secondsSince1970: 1_777_658_400 - 7200))
        #expect(e2.timeWindow?.end == Timestamp(secondsSince1970: 1_777_658_400 + 5400))
        #expect(records[2].rejection?.field == "endTime")
        #expect(records[3].rejection?.field == "endTime")
        #expect(records[4].rejection?.reason == "field 'startTime': expected an ISO 8601 time such as 2026-05-01T18:30:00Z, got 'tomorrow'")
    }

    @Test("a kind column decides unless a kind is forced")
    func kinds() throws {
        let text = "id,kind,lat,lon,start,end\np,park,1,2,,\nt,trailhead,1,2,,\nu,,1,2,,\nx,castle,1,2,,\n"
        let fromData = try readAllRecords(csv: text)
        #expect(fromData.map { $0.feature?.kind } == [.park, .trailhead, .place, nil])
        #expect(fromData[3].rejection?.field == "kind")
        let forced = try readAllRecords(csv: text, options: ImportOptions(kind: .user))
        #expect(forced.map { $0.feature?.kind } == [.user, .user, .user, .user])
    }

    @Test("a TSV file is read with tabs")
    func tabSeparated() throws {
        let records = try readAllRecords(csv: "id\tname\tlat\tlon\nt1\tA, B\t1\t2\n", name: "t.tsv")
        #expect(records.first?.feature?.attributes["name"] == .string("A, B"))
    }

    // MARK: - The factory

    @Test("openFeatureReader picks the reader from the file name")
    func factory() throws {
        let scratch = try TemporaryFolder()
        let csv = try scratch.write("a.csv", "id,lat,lon\na,1,2\n")
        let reader = try openFeatureReader(path: csv, options: ImportOptions())
        #expect(try reader.next()?.feature?.id == "a")
        #expect(try reader.next() == nil)
        #expect(reader.fileSizeBytes == 17)
        #expect(reader.bytesConsumed == 17)

        let unknown = try scratch.write("a.xyz", "id,lat,lon\n")
        #expect(throws: InputError.self) { try openFeatureReader(path: unknown, options: ImportOptions()) }
        let forced = try openFeatureReader(path: unknown, format: .csv, options: ImportOptions())
        #expect(try forced.next() == nil)
        let geojson = try scratch.write("a.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"g","geometry":{"type":"Point","coordinates":[2,1]},"properties":{}}]}"#)
        #expect(try openFeatureReader(path: geojson, options: ImportOptions()).next()?.feature?.id == "g")
        let lines = try scratch.write("a.jsonl", #"{"id":"j","lat":1,"lon":2}"# + "\n")
        #expect(try openFeatureReader(path: lines, options: ImportOptions()).next()?.feature?.id == "j")
        #expect(throws: InputError.self) { try openFeatureReader(path: scratch.url.appendingPathComponent("none.csv").path, options: ImportOptions()) }
    }
}
