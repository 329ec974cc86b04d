import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCheckIns
@testable import CairnIO

/// The places CSV file of areas read the fast way (`AreaPlaceColumns`, `AreaWKTScanner`, on every worker) against
/// the feature reader it stands for (`CSVFeatureReader`, then `CheckInReferenceData.place`): the same places (id,
/// centre, radius, area, bit for bit), the same skipped rows and messages, on seeded polygons and multipolygons with
/// holes, across ±180, at the poles, written in many WKT spellings, and on files with rows it must leave to the
/// feature reader.
@Suite struct CheckInAreaFastReadTests {
    /// What `loadPlaceFeatures` makes of `path`: places, and the messages of skipped rows with their count.
    static func oracle(_ path: String) throws -> (places: [CheckInPlace], messages: [String]) {
        var places: [CheckInPlace] = []
        var messages: [String] = []
        try openFeatureReader(path: path, options: ImportOptions(kind: .place, defaultRadiusMeters: nil)).forEachRecord { feature in
            guard let place = CheckInReferenceData.place(feature, defaultRadiusMeters: nil) else {
                messages.append("\(path): place \(feature.id) has no radius (give --radius for a default)")
                return
            }
            places.append(place)
        } rejected: { messages.append($0.description) }
        return (places, messages)
    }

    /// Loads `path` as the check-in command does (every worker) and compares with the oracle; returns whether the
    /// fast read took the file.
    @discardableResult
    static func expectSameAsFeatureReader(_ path: String, workers: Int = 3, sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        var data = CheckInReferenceData(defaultRadiusMeters: nil)
        data.workers = workers
        try data.loadPlaces(path: path)
        let expected = try oracle(path)
        let places = data.places
        #expect(places.count == expected.places.count, sourceLocation: sourceLocation)
        for (place, want) in zip(places, expected.places) {
            #expect(place.id == want.id, sourceLocation: sourceLocation)
            #expect(place.circle.center.latitude.bitPattern == want.circle.center.latitude.bitPattern
                    && place.circle.center.longitude.bitPattern == want.circle.center.longitude.bitPattern
                    && place.circle.radiusMeters == want.circle.radiusMeters, "\(place.id)", sourceLocation: sourceLocation)
            #expect(place.shape == want.shape, "\(place.id)", sourceLocation: sourceLocation)
            #expect(place.shape?.parts.positions.map(\.bitPattern) == want.shape?.parts.positions.map(\.bitPattern),
                    sourceLocation: sourceLocation)
        }
        #expect(data.skippedCount == expected.messages.count, sourceLocation: sourceLocation)
        #expect(data.skippedMessages == Array(expected.messages.prefix(10)), sourceLocation: sourceLocation)
        return data.areaFilesReadFast == 1
    }

    /// A number as exports write it, in one of several spellings that read as the same double or a near one.
    static func number(_ value: Double, _ random: inout SplitMix64) -> String {
        switch random.below(6) {
        case 0: "\(value)" // shortest round trip, exponents for small values (1e-05)
        case 1: String(format: "%.7f", value)
        case 2: String(format: "%.17g", value)
        case 3: value >= 0 ? "+" + String(format: "%.6f", value) : String(format: "%.6f", value)
        case 4: String(format: "%.3e", value)
        default: String(format: "%.9f", value)
        }
    }

    /// `shape` as WKT in a random spelling: keyword case, spaces and tabs (and line ends, `lineEnds`) between
    /// tokens, POLYGON for one polygon or MULTIPOLYGON.
    static func wkt(_ shape: Shape, _ random: inout SplitMix64, lineEnds: Bool = false) -> String {
        let spaces = [" ", "", "  ", "\t"] + (lineEnds ? [" \n", "\r\n "] : [])
        func gap() -> String { random.chance(0.7) ? (random.chance(0.5) ? " " : "") : spaces[random.below(spaces.count)] }
        let parts = shape.parts
        func polygon(_ index: Int) -> String {
            "(" + gap() + parts.ringRange(ofPolygon: index).map { ring in
                "(" + gap() + parts.positionRange(ofRing: ring).map { position in
                    number(parts.positions[2 * position], &random) + (random.chance(0.9) ? " " : " \t ")
                        + number(parts.positions[2 * position + 1], &random)
                }.joined(separator: gap() + "," + gap()) + gap() + ")"
            }.joined(separator: gap() + "," + gap()) + gap() + ")"
        }
        let polygons = (0..<parts.polygonEnds.count).map(polygon)
        let single = polygons.count == 1 && random.chance(0.5)
        var keyword = single ? "POLYGON" : "MULTIPOLYGON"
        switch random.below(4) {
        case 0: keyword = keyword.lowercased()
        case 1: keyword = keyword.prefix(1) + keyword.dropFirst().lowercased()
        default: break
        }
        let body = single ? polygons[0] : "(" + gap() + polygons.joined(separator: gap() + "," + gap()) + gap() + ")"
        return gap() + keyword + gap() + body + gap()
    }

    /// Seeded areas around centres at ordinary places, at ±180 and near the poles.
    static func seededAreas(count: Int, seed: UInt64) throws -> [Shape] {
        var random = SplitMix64(seed: seed)
        let centres = [(60.17, 24.94), (0, 179.9), (-12, -179.95), (89.9, 10), (-89.95, -60), (40.7, -74), (-33.9, 151.2)]
        return try (0..<count).map { n in
            let (lat, lon) = centres[n % centres.count]
            let centre = try Coordinate(latitude: lat + random.uniform(-0.05...0.05), longitude: min(180, max(-180, lon + random.uniform(-0.05...0.05))))
            return try SyntheticShapes.shape(random.chance(0.5) ? .polygon : .multiPolygon, around: centre,
                                             sizeDegrees: random.uniform(0.002...0.3), random: &random)
        }
    }

    static func csvQuoted(_ text: String) -> String { "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }

    @Test func seededAreasInManySpellingsReadAsTheFeatureReaderReadsThem() throws {
        let folder = try TemporaryFolder()
        var random = SplitMix64(seed: 1915)
        let areas = try Self.seededAreas(count: 300, seed: 15)
        var csv = "id,name,wkt,tags\n"
        for (n, area) in areas.enumerated() {
            csv += "park\(n),Park \(n) ä,\(Self.csvQuoted(Self.wkt(area, &random))),a;b\n"
            if n % 50 == 7 { csv += "\n" } // blank lines are skipped by both readers
        }
        // Rounding noise beyond ±180 and ±90, taken as the edge and counted by `Shape(checking:)`.
        csv += "noise,,\"POLYGON ((179.9 1, 180.00000000000006 1, 180.0000000001 1.1, 179.9 1))\",\n"
        csv += "pole,,\"POLYGON ((0 89.99, 90 89.99, 180 90.0000000001, 0 89.99))\",\n"
        let path = try folder.write("parks.csv", csv)
        #expect(try Self.expectSameAsFeatureReader(path), "the fast read took the file")
        #expect(try Self.expectSameAsFeatureReader(path, workers: 1))
        // Other column orders and names: the geometry first, `geometry` for `wkt`, CRLF line ends.
        var reordered = "geometry,id\r\n"
        for (n, area) in areas.prefix(40).enumerated() { reordered += "\(Self.csvQuoted(Self.wkt(area, &random))),p\(n)\r\n" }
        #expect(try Self.expectSameAsFeatureReader(try folder.write("reordered.csv", reordered)))
    }

    /// Rows the fast read declines (each may be one the feature reader rejects or reads otherwise): the file is
    /// then read by the feature reader, with its messages; the good rows beside them are kept.
    @Test(arguments: [
        "p9,x,\"POLYGON Z ((1 1 0, 2 1 0, 2 2 0, 1 1 0))\"",
        "p9,x,\"LINESTRING (1 1, 2 2)\"",
        "p9,x,\"POLYGON EMPTY\"",
        "p9,x,\"POLYGON ((1 1, 2 2))\"",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 95, 1 1))\"",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1)\"",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1)) x\"",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 2x, 1 1))\"",
        "p9,x,\"SRID=4326;POLYGON ((1 1, 2 1, 2 2, 1 1))\"",
        "p9,x,0103000000010000000400000000000000000000000000000000000000000000000000F03F000000000000F03F000000000000F03F000000000000000000000000000000000000000000000000",
        "p9,x,",
        " p9 ,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1))\"",
        ",x,\"POLYGON ((1 1, 2 1, 2 2, 1 1))\"",
        "p9,x",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1))\",extra",
        "p\u{1}9,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1))\"",
        "p9,x,\"POLYGON ((1 1, 2 1, 2 2, 1 1))",
        "   ",
    ])
    func aRowTheFastReadDeclinesLeavesTheFileToTheFeatureReader(row: String) throws {
        let folder = try TemporaryFolder()
        let good = "p1,a,\"POLYGON ((24.9 60.1, 25 60.1, 25 60.2, 24.9 60.1))\"\np2,b,\"MULTIPOLYGON (((1 1, 2 1, 2 2, 1 1)))\"\n"
        let path = try folder.write("parks.csv", "id,name,wkt\n" + good + row + "\n" + good.replacingOccurrences(of: "p", with: "q"))
        #expect(try !Self.expectSameAsFeatureReader(path))
    }

    @Test func invalidUTF8AndOtherHeadersAreLeftToTheFeatureReader() throws {
        let folder = try TemporaryFolder()
        let row = Array("p1,\"POLYGON ((1 1, 2 1, 2 2, 1 1))\",".utf8)
        let bad = try folder.write("bad.csv", bytes: Array("id,wkt,name\n".utf8) + row + [0xC3, 0x28, 0x0A])
        #expect(try !Self.expectSameAsFeatureReader(bad))
        let polygon = "\"POLYGON ((1 1, 2 1, 2 2, 1 1))\""
        // A byte order mark: both readers drop it.
        #expect(try Self.expectSameAsFeatureReader(try folder.write("bom.csv", "\u{FEFF}id,wkt\np1,\(polygon)\n")))
        // A line end inside a quoted field: the check-in scanner holds a record to its line.
        #expect(try !Self.expectSameAsFeatureReader(try folder.write("lines.csv", "id,wkt\np1,\"POLYGON ((1 1, 2 1,\n2 2, 1 1))\"\n")))
        // Two geometry columns: the feature reader's error.
        let twice = try folder.write("twice.csv", "id,wkt,geometry\np1,\(polygon),\(polygon)\n")
        var data = CheckInReferenceData(defaultRadiusMeters: nil)
        #expect(throws: CheckInError.self) { try data.loadPlaces(path: twice) }
        #expect(throws: InputError.self) { try Self.oracle(twice) }
        for text in ["id, wkt\np1,\(polygon)\n",                           // a name with a space before it
                     "id,wkt,latitude,longitude\np1,\(polygon),1.5,1.5\n", // a location of its own
                     "id,wkt,radius\np1,\(polygon),100\n",                 // a radius
                     "id,wkt,,x\np1,\(polygon),1,2\n",                      // a column without a name
                     "name,wkt\np1,\(polygon)\n"] {                         // no id: derived from file and line
            let path = try folder.write("places.csv", text)
            #expect(try !Self.expectSameAsFeatureReader(path), "\(text)")
        }
    }

    /// `AreaWKTScanner` gives `WKTReader`'s parts for every text it takes, and takes the common forms.
    @Test func theScannerReadsWhatWKTReaderReads() throws {
        var random = SplitMix64(seed: 77)
        for area in try Self.seededAreas(count: 200, seed: 16) {
            let text = Self.wkt(area, &random, lineEnds: true)
            let scanned = Array(text.utf8).withUnsafeBufferPointer { AreaWKTScanner.parts($0) }
            let read = try WKTReader.parts(text)
            #expect(scanned == read, "\(text)")
            #expect(scanned?.positions.map(\.bitPattern) == read.positions.map(\.bitPattern))
        }
        // Rings of 4 to 300 positions, alone and among others: the scanner's scratch holds them all.
        for positions in [4, 63, 64, 65, 66, 300] {
            var ring = (0..<(positions - 1)).map { n -> String in
                let angle = Double(n) / Double(positions - 1) * 2 * .pi
                return "\(24.94 + 0.01 * cos(angle)) \(60.17 + 0.01 * sin(angle))"
            }
            ring.append(ring[0])
            for text in ["POLYGON ((\(ring.joined(separator: ", "))))",
                         "MULTIPOLYGON (((1 2, 3 4, 5 2, 1 2)), ((\(ring.joined(separator: ","))), (1 2, 3 4, 5 2, 1 2)))"] {
                let scanned = Array(text.utf8).withUnsafeBufferPointer { AreaWKTScanner.parts($0) }
                let read = try WKTReader.parts(text)
                #expect(scanned == read && scanned?.positions.map(\.bitPattern) == read.positions.map(\.bitPattern), "\(text)")
            }
        }
        for declined in ["POINT (1 2)", "POLYGON ((1 2 3, 4 5 6))", "POLYGONZ ((1 2))", "POLYGON M ((1 2 3))",
                         "MULTIPOLYGON ((1 2, 3 4))", "POLYGON ((1 2, 3 4)))", "", "  ", "POLYGON ((1 2;, 3 4))"] {
            #expect(Array(declined.utf8).withUnsafeBufferPointer { AreaWKTScanner.parts($0) } == nil, "\(declined)")
        }
    }
}
