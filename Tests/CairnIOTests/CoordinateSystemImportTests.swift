import CairnCore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnIO

/// `--s-srs`, GeoJSON's `crs` member and the refusal of projected positions, through the readers.
@Suite struct CoordinateSystemImportTests {
    // One of scripts/crs-check's pyproj answers: Finland in EPSG:3067.
    static let helsinkiX = 385785.8191056211, helsinkiY = 7753920.543452315
    static let longitude = 24.0256486, latitude = 69.8678511

    func readAll(_ path: String, _ options: ImportOptions = ImportOptions()) throws -> (records: [ImportRecord], notes: [String]) {
        let reader = try openFeatureReader(path: path, options: options)
        return (try jsonReadAll(reader), reader.coordinateSystemNotes)
    }

    func near(_ feature: Feature, _ longitude: Double, _ latitude: Double) -> Bool {
        abs(feature.location.longitude - longitude) < 1e-9 && abs(feature.location.latitude - latitude) < 1e-9
    }

    @Test func csvPositionsInANationalGridBecomeDegrees() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("grid.csv", "id,x,y\na,\(Self.helsinkiX),\(Self.helsinkiY)\nb,oops,1\nc,,\n")
        let (records, notes) = try readAll(path, ImportOptions(sourceCoordinateSystem: "EPSG:3067"))
        let features = jsonFeatures(records)
        #expect(features.count == 1)
        #expect(near(try #require(features.first), Self.longitude, Self.latitude))
        // Bad rows are rejected one by one, with the builder's own messages, at their lines.
        #expect(jsonRejections(records).map(\.line) == [3, 4])
        #expect(jsonRejections(records)[0].reason.contains("'oops'"))
        #expect(notes == ["\(path): coordinates from EPSG:3067 (--s-srs)"])
    }

    @Test func csvBatchesKeepEveryRowInOrderWithItsLine() throws {
        // 2,500 rows (three PROJ batches), a bad row in the second batch and one outside the system's domain.
        let folder = try TemporaryFolder()
        var text = "id,lon,lat\n"
        for n in 0..<2500 {
            switch n {
            case 1500: text += "bad,x,1\n"
            case 2000: text += "far,1e30,1e30\n"
            default: text += "p\(n),\(Self.helsinkiX + Double(n)),\(Self.helsinkiY)\n"
            }
        }
        let path = try folder.write("many.csv", text)
        let (records, _) = try readAll(path, ImportOptions(sourceCoordinateSystem: "EPSG:3067"))
        #expect(records.count == 2500)
        for (n, record) in records.enumerated() {
            switch record {
            case .feature(let feature, let line):
                #expect(line == n + 2 && feature.id == "p\(n)")
            case .rejected(let rejection):
                #expect(n == 1500 || n == 2000)
                #expect(rejection.line == n + 2)
                if n == 2000 { #expect(rejection.reason.contains("cannot be transformed from EPSG:3067 into WGS84 degrees")) }
            }
        }
        let first = try #require(jsonFeatures(records).first)
        #expect(near(first, Self.longitude, Self.latitude))
    }

    @Test func projectedPositionsWithoutASystemAreRefusedOnce() throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("grid.csv", "id,lat,lon\na,6672000,385000\nb,6672001,385001\n")
        let csvError = try #require(jsonInputError { () throws(InputError) in
            let reader = try openFeatureReader(path: csv, options: ImportOptions())
            while try reader.next() != nil {}
            return reader
        })
        #expect(csvError.description == "\(csv): these look like projected coordinates (x 385000, y 6672000 at line 2); pass --s-srs")

        let geojson = try folder.write("grid.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[385000,6672000]}}]}
            """)
        let geojsonError = try #require(jsonInputError { () throws(InputError) in
            let reader = try openFeatureReader(path: geojson, options: ImportOptions())
            while try reader.next() != nil {}
            return reader
        })
        #expect(geojsonError.description == "\(geojson): these look like projected coordinates (x 385000, y 6672000 at line 2); pass --s-srs")
    }

    @Test func aTypoInOneOrdinateIsStillABadRowNotAProjectedFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("typo.csv", "id,lat,lon\na,95,24\nb,60,24\n")
        let (records, _) = try readAll(path)
        #expect(jsonFeatures(records).map(\.id) == ["b"])
        #expect(jsonRejections(records).map(\.line) == [2])
    }

    static func pointCollection(crs: String?, crsFirst: Bool) -> String {
        let features = """
            "features":[{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[\(helsinkiX),\(helsinkiY)]}},
            {"type":"Feature","id":"p","properties":{},"geometry":{"type":"Polygon","coordinates":[[[\(helsinkiX),\(helsinkiY)],[\(helsinkiX + 100),\(helsinkiY)],[\(helsinkiX + 100),\(helsinkiY + 100)],[\(helsinkiX),\(helsinkiY)]]]}}]
            """
        guard let crs else { return "{\"type\":\"FeatureCollection\",\(features)}" }
        return crsFirst ? "{\"type\":\"FeatureCollection\",\"crs\":\(crs),\n\(features)}" : "{\"type\":\"FeatureCollection\",\n\(features),\n\"crs\":\(crs)}"
    }

    @Test(arguments: [true, false])
    func theGeoJSONCRSMemberIsHonouredBeforeOrAfterTheFeatures(crsFirst: Bool) throws {
        let folder = try TemporaryFolder()
        for crs in [#"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3067"}}"#,
                    #"{"type":"name","properties":{"name":"EPSG:3067"}}"#,
                    #"{"type":"EPSG","properties":{"code":3067}}"#] {
            let path = try folder.write("crs.geojson", Self.pointCollection(crs: crs, crsFirst: crsFirst))
            let (records, notes) = try readAll(path)
            let features = jsonFeatures(records)
            #expect(features.count == 2, "\(crs)")
            #expect(near(try #require(features.first), Self.longitude, Self.latitude))
            // The polygon's vertices were transformed before its representative point was taken.
            let polygon = try #require(features.last)
            #expect(abs(polygon.location.latitude - Self.latitude) < 0.001 && abs(polygon.location.longitude - Self.longitude) < 0.003)
            #expect(notes.count == 1 && notes[0].hasSuffix("(the file's crs member)"))
        }
    }

    @Test func sSRSOverridesTheCRSMemberAndSaysSo() throws {
        let folder = try TemporaryFolder()
        let crs = #"{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2263"}}"#
        for crsFirst in [true, false] {
            let path = try folder.write("override.geojson", Self.pointCollection(crs: crs, crsFirst: crsFirst))
            let (records, notes) = try readAll(path, ImportOptions(sourceCoordinateSystem: "EPSG:3067"))
            #expect(near(try #require(jsonFeatures(records).first), Self.longitude, Self.latitude))
            #expect(notes == ["\(path): coordinates from EPSG:3067 (--s-srs)",
                              "\(path): --s-srs EPSG:3067 overrides the file's crs member (urn:ogc:def:crs:EPSG::2263)"])
        }
    }

    @Test func aCRSMemberNamingWGS84NeedsNoTransform() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("crs84.geojson", """
            {"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},
            "features":[{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[24.94,60.17]}}]}
            """)
        let (records, _) = try readAll(path)
        #expect(near(try #require(jsonFeatures(records).first), 24.94, 60.17))
    }

    @Test func aCRSMemberPROJDoesNotKnowIsAClearError() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("unknown.geojson", Self.pointCollection(crs: #"{"type":"name","properties":{"name":"EPSG:99999"}}"#, crsFirst: true))
        let error = try #require(jsonInputError { () throws(InputError) in
            let reader = try openFeatureReader(path: path, options: ImportOptions())
            while try reader.next() != nil {}
            return reader
        })
        #expect(error.description.hasPrefix("\(path): coordinate system 'EPSG:99999': "))
        #expect(error.description.hasSuffix("(from the file's crs member)"))
    }

    /// The five boroughs of New York City in US feet (EPSG:2263, named by a `crs` member after the features).
    /// Each borough's representative point must fall in its own extent (in degrees, from the City's published
    /// boundaries, rounded outwards). When polygons are kept whole (issue #19, the shapes work), this test also
    /// checks each borough's area from the imported shape against its `Shape_Area` (square feet) to 0.1 %.
    struct Borough: Sendable, CustomStringConvertible {
        let name: String
        let west: Double, south: Double, east: Double, north: Double
        var description: String { name }
    }

    static let boroughs = [
        Borough(name: "Staten Island", west: -74.26, south: 40.49, east: -74.05, north: 40.65),
        Borough(name: "Queens", west: -73.97, south: 40.54, east: -73.70, north: 40.81),
        Borough(name: "Brooklyn", west: -74.05, south: 40.56, east: -73.83, north: 40.74),
        Borough(name: "Manhattan", west: -74.05, south: 40.68, east: -73.90, north: 40.88),
        Borough(name: "Bronx", west: -73.94, south: 40.78, east: -73.74, north: 40.92),
    ]

    @Test func theNewYorkBoroughsImportFromUSFeet() throws {
        let path = try RepositoryData.path("Data/nyc-boroughs-epsg2263.geojson.gz")
        let (records, notes) = try readAll(path)
        #expect(jsonRejections(records).isEmpty)
        #expect(notes == ["\(path): coordinates from urn:ogc:def:crs:EPSG::2263 (the file's crs member)"])
        let features = jsonFeatures(records)
        #expect(features.map { $0.attributes["BoroName"] } == Self.boroughs.map { .string($0.name) })
        for (feature, borough) in zip(features, Self.boroughs) {
            let location = feature.location
            #expect((borough.west...borough.east).contains(location.longitude) && (borough.south...borough.north).contains(location.latitude),
                    "\(borough) at \(location)")
            #expect(feature.attributes["Shape_Area"] != nil)
        }
        // The same with --s-srs, which overrides the member (and says so).
        let (again, overridden) = try readAll(path, ImportOptions(sourceCoordinateSystem: "EPSG:2263"))
        #expect(jsonFeatures(again).map(\.location) == features.map(\.location))
        #expect(overridden.last == "\(path): --s-srs EPSG:2263 overrides the file's crs member (urn:ogc:def:crs:EPSG::2263)")
    }
}
