import CairnCore
import CairnIO
import CairnStore
import CairnTestSupport
import Foundation
import Testing
@testable import CairnCheckIns

/// Check-ins at places with an area (issue #19 item 4), against a brute-force oracle: inside is `Shape.covers`
/// (boundary inside), outside is `outside_area` with `ShapeBoundaryDistance.meters`; a point-only check-in goes to
/// a place whose area covers it, or `no_match`. The data: the Helsinki parks (`Data/osm-helsinki-parks.geojson`,
/// one with a hole) and a square park with a square hole, whose edges lie on exact doubles.
@Suite struct CheckInAreaTests {
    static let parksFile = "Data/osm-helsinki-parks.geojson"
    static let noon = Timestamp(secondsSince1970: 1_780_000_000)

    /// The parks as the places loader reads them from the GeoJSON file.
    func fileParks() throws -> CheckInReferenceData {
        var data = CheckInReferenceData(defaultRadiusMeters: nil)
        try data.loadPlaces(path: RepositoryData.path(Self.parksFile))
        return data
    }

    /// A square park from 24.90 to 24.92 east, 60.16 to 60.17 north, with a square hole from 24.905 to 24.915 east,
    /// 60.163 to 60.167 north.
    static func squareWithHole() throws -> Shape {
        var parts = ShapeParts(kind: .polygon)
        for (lon, lat) in [(24.90, 60.16), (24.92, 60.16), (24.92, 60.17), (24.90, 60.17), (24.90, 60.16)] {
            parts.append(longitude: lon, latitude: lat)
        }
        parts.endRing()
        for (lon, lat) in [(24.905, 60.163), (24.905, 60.167), (24.915, 60.167), (24.915, 60.163), (24.905, 60.163)] {
            parts.append(longitude: lon, latitude: lat)
        }
        parts.endRing()
        parts.endPolygon()
        return try Shape(checking: parts)
    }

    /// The hole of `squareWithHole` as a polygon of its own: its boundary is the hole's ring.
    static func holeAlone() throws -> Shape {
        var parts = ShapeParts(kind: .polygon)
        for (lon, lat) in [(24.905, 60.163), (24.905, 60.167), (24.915, 60.167), (24.915, 60.163), (24.905, 60.163)] {
            parts.append(longitude: lon, latitude: lat)
        }
        parts.endRing()
        parts.endPolygon()
        return try Shape(checking: parts)
    }

    func checkIn(_ id: String, place: String? = nil, event: String? = nil, _ latitude: Double, _ longitude: Double,
                 at time: Timestamp = noon, accuracy: Double? = nil) -> CheckIn {
        CheckIn(id: id, userId: "u-\(id)", eventId: event, placeId: place, latitude: latitude, longitude: longitude,
                time: time, accuracyMeters: accuracy)
    }

    /// Seeded points in and around every park's extent: each verdict and distance as the oracle's, naming the
    /// park and naming none.
    @Test func seededPointsAroundTheHelsinkiParksGetTheOraclesVerdicts() throws {
        let data = try fileParks()
        #expect(data.places.count == 17)
        #expect(data.skippedCount == 0, "\(data.skippedMessages)")
        #expect(data.places.allSatisfy { $0.shape != nil })
        let validator = data.makeValidator()
        var random = SeededRandom(seed: 19)
        var inside = 0, outside = 0, matched = 0
        for place in data.places {
            let shape = try #require(place.shape)
            let box = shape.extent
            let marginLat = (box.north - box.south) * 0.4 + 1e-5, marginLon = (box.east - box.west) * 0.4 + 1e-5
            for n in 0..<80 {
                let point = try Coordinate(latitude: random.uniform(box.south - marginLat ... box.north + marginLat),
                                           longitude: random.uniform(box.west - marginLon ... box.east + marginLon))
                let named = validator.judge(checkIn("n\(n)", place: place.id, point.latitude, point.longitude))
                #expect(named.placeIndex.map(validator.placeId(at:)) == place.id)
                if shape.covers(point) {
                    #expect(named.reason == nil, "\(place.id) \(point)")
                    inside += 1
                } else {
                    #expect(named.reason == .outsideArea, "\(place.id) \(point)")
                    #expect(named.distanceMeters == ShapeBoundaryDistance.meters(from: point, to: shape))
                    #expect((named.distanceMeters ?? 0) > 0)
                    outside += 1
                }
                // Naming no place: the parks whose area covers the point, by brute force.
                let covering = data.places.filter { $0.shape?.covers(point) == true }.map(\.id)
                let free = validator.judge(checkIn("f\(n)", point.latitude, point.longitude))
                if covering.isEmpty {
                    #expect(free.reason == .noMatch)
                } else {
                    #expect(free.reason == nil)
                    #expect(covering.contains(free.placeIndex.map(validator.placeId(at:)) ?? "-"))
                    matched += 1
                }
            }
        }
        #expect(inside > 200 && outside > 800 && matched > 400, "\(inside) \(outside) \(matched)")
    }

    /// On a vertex or an edge (outer ring or hole) is inside; in the hole is `outside_area` with the distance to the
    /// hole's ring, naming the place and matched by containment alike.
    @Test func edgesAndVerticesAreInsideAndAHoleIsOutside() throws {
        let shape = try Self.squareWithHole()
        let place = CheckInPlace(id: "sq", circle: try Circle(center: Coordinate(latitude: 60.165, longitude: 24.91), radiusMeters: 500),
                                 shape: shape)
        let validator = CheckInValidator(places: [place], events: [CheckInEvent]())
        let onBoundary = [(60.16, 24.90), (60.16, 24.91), (60.17, 24.92), (60.165, 24.90), (60.163, 24.91),
                          (60.167, 24.905), (60.165, 24.915), (60.163, 24.915)]
        for (latitude, longitude) in onBoundary {
            #expect(validator.judge(checkIn("e", place: "sq", latitude, longitude)).reason == nil, "\(latitude) \(longitude)")
            #expect(validator.judge(checkIn("e", latitude, longitude)).reason == nil, "\(latitude) \(longitude)")
        }
        // The hole's centre: within the place's 500 m radius, but the area decides.
        let centre = try Coordinate(latitude: 60.165, longitude: 24.91)
        let result = validator.judge(checkIn("h", place: "sq", centre.latitude, centre.longitude))
        #expect(result.reason == .outsideArea)
        let distance = try #require(result.distanceMeters)
        #expect(distance == ShapeBoundaryDistance.meters(from: centre, to: shape))
        // 0.002 degrees of latitude to the hole's north and south edges: about 223 m, the outer ring is farther.
        #expect(abs(distance - ShapeBoundaryDistance.meters(from: centre, to: try Self.holeAlone())) <= 2e-4)
        #expect(distance > 200 && distance < 250)
        #expect(validator.judge(checkIn("h", centre.latitude, centre.longitude)).reason == .noMatch)
        // Outside the square: 0.001 degrees south of its south edge.
        let south = validator.judge(checkIn("s", place: "sq", 60.159, 24.91))
        #expect(south.reason == .outsideArea)
        #expect(abs((south.distanceMeters ?? 0) - 111.4) < 1)
        #expect(validator.place(at: 0).shape == shape)
        #expect(validator.shape(ofPlace: 0) == shape)
    }

    /// The hole of the Helsinki park that has one (Kaisaniemen puisto): a point in it is `outside_area`, at the
    /// distance to the hole's ring.
    @Test func aPointInTheHoleOfAHelsinkiPark() throws {
        let data = try fileParks()
        let park = try #require(data.places.first { $0.shape?.polygons.contains { !$0.holes.isEmpty } == true })
        let shape = try #require(park.shape)
        let polygon = try #require(shape.polygons.first { !$0.holes.isEmpty })
        let hole = polygon.holes[0]
        // The hole's vertex mean, nudged towards the first vertex until the park does not cover it.
        var latitude = hole.map(\.latitude).reduce(0, +) / Double(hole.count)
        var longitude = hole.map(\.longitude).reduce(0, +) / Double(hole.count)
        while shape.covers(try Coordinate(latitude: latitude, longitude: longitude)) {
            latitude = (latitude + hole[0].latitude) / 2
            longitude = (longitude + hole[0].longitude) / 2
        }
        let point = try Coordinate(latitude: latitude, longitude: longitude)
        var holeParts = ShapeParts(kind: .polygon)
        for vertex in hole { holeParts.append(longitude: vertex.longitude, latitude: vertex.latitude) }
        holeParts.endRing()
        holeParts.endPolygon()
        let holeShape = try Shape(checking: holeParts)
        #expect(holeShape.covers(point))
        let result = data.makeValidator().judge(checkIn("h", place: park.id, latitude, longitude))
        #expect(result.reason == .outsideArea)
        let distance = try #require(result.distanceMeters)
        #expect(abs(distance - ShapeBoundaryDistance.meters(from: point, to: holeShape)) <= 2e-4)
    }

    /// Events at a place with an area: the area, then the time rule; matched by containment with the ongoing
    /// event; the lenient policy counts the accuracy against the distance to the boundary.
    @Test func eventsAtAnAreaKeepTheTimeRule() throws {
        let shape = try Self.squareWithHole()
        let place = CheckInPlace(id: "sq", circle: try Circle(center: Coordinate(latitude: 60.161, longitude: 24.901), radiusMeters: 0),
                                 shape: shape)
        let start = Self.noon, end = Timestamp(secondsSince1970: Self.noon.secondsSince1970 + 3600)
        let event = CheckInEvent(id: "e1", placeId: "sq", window: try TimeWindow(start: start, end: end))
        let validator = CheckInValidator(places: [place], events: [event])
        let early = Timestamp(secondsSince1970: start.secondsSince1970 - 1)
        #expect(validator.judge(checkIn("a", event: "e1", 60.161, 24.901)).reason == nil)
        #expect(validator.judge(checkIn("b", event: "e1", 60.161, 24.901, at: early)).reason == .beforeStart)
        #expect(validator.judge(checkIn("c", event: "e1", 60.161, 24.901, at: end)).reason == .afterEnd)
        // Outside the area and out of time: the area is judged first.
        #expect(validator.judge(checkIn("d", event: "e1", 60.165, 24.91, at: early)).reason == .outsideArea)
        let matched = validator.judge(checkIn("m", 60.161, 24.901))
        #expect(matched.reason == nil)
        #expect(matched.eventIndex.map(validator.eventId(at:)) == "e1")
        let visit = validator.judge(checkIn("v", 60.161, 24.901, at: early))
        #expect(visit.reason == nil && visit.eventIndex == nil && visit.placeIndex == 0)
        let lenient = CheckInValidator(places: [place], events: [event], accuracyPolicy: .lenient)
        #expect(lenient.judge(checkIn("l", place: "sq", 60.165, 24.91, accuracy: 300)).reason == nil)
        #expect(lenient.judge(checkIn("l", 60.165, 24.91, accuracy: 300)).reason == nil)
        #expect(lenient.judge(checkIn("l", place: "sq", 60.165, 24.91, accuracy: 100)).reason == .outsideArea)
        #expect(lenient.judge(checkIn("l", 60.165, 24.91, accuracy: 100)).reason == .noMatch)
    }

    /// Circles and areas side by side: a point-only check-in goes to whichever contains it; the circle's verdicts
    /// are those of a validator without the area.
    @Test func circlesAndAreasTogether() throws {
        let circle = CheckInPlace(id: "c", circle: try Circle(center: Coordinate(latitude: 60.2, longitude: 24.95), radiusMeters: 100))
        let area = CheckInPlace(id: "sq", circle: try Circle(center: Coordinate(latitude: 60.161, longitude: 24.901), radiusMeters: 0),
                                shape: try Self.squareWithHole())
        let both = CheckInValidator(places: [area, circle], events: [CheckInEvent]())
        let circleOnly = CheckInValidator(places: [circle], events: [CheckInEvent]())
        var random = SeededRandom(seed: 7)
        var freeMatches = 0
        for n in 0..<300 {
            let latitude = random.uniform(60.199 ... 60.201), longitude = random.uniform(24.948 ... 24.952)
            let named = both.judge(checkIn("n\(n)", place: "c", latitude, longitude))
            let alone = circleOnly.judge(checkIn("n\(n)", place: "c", latitude, longitude))
            #expect(named.reason == alone.reason && named.distanceMeters == alone.distanceMeters)
            let free = both.judge(checkIn("f\(n)", latitude, longitude))
            #expect(free.reason == circleOnly.judge(checkIn("f\(n)", latitude, longitude)).reason)
            if free.reason == nil {
                #expect(free.placeIndex == 1)
                freeMatches += 1
            }
        }
        // The square around the circle's centre holds points on both sides of its edge.
        #expect(freeMatches > 0 && freeMatches < 300)
        #expect(both.judge(checkIn("a", 60.161, 24.901)).placeIndex == 0)
        #expect(both.judge(checkIn("x", 60.3, 24.901)).reason == .noMatch)
    }

    /// The batch pipeline prints `outside_area` with its distance in millimetres rounded up, and no radius for a
    /// place with an area; a circle place's row is as before.
    @Test func thePipelinePrintsTheDistanceToTheBoundary() throws {
        let area = CheckInPlace(id: "sq", circle: try Circle(center: Coordinate(latitude: 60.161, longitude: 24.901), radiusMeters: 40),
                                shape: try Self.squareWithHole())
        let circle = CheckInPlace(id: "p", circle: try Circle(center: Coordinate(latitude: 0, longitude: 0), radiusMeters: 100))
        let validator = CheckInValidator(places: [area, circle], events: [CheckInEvent]())
        let text = """
            id,userId,eventId,placeId,latitude,longitude,time
            a,u,,sq,60.161,24.901,2026-06-01T10:00:00Z
            b,u,,sq,60.165,24.91,2026-06-01T10:00:00Z
            c,u,,p,0,0,2026-06-01T10:00:00Z
            d,u,,,60.161,24.901,2026-06-01T10:00:00Z

            """
        for format in [CheckInOutputFormat.csv, .jsonl] {
            let folder = try TemporaryFolder()
            let path = try folder.write("c.csv", text)
            let batch = CheckInBatchValidator(validator: validator, inputFormat: .csv, outputFormat: format, countsVisits: false, workers: 2)
            var output: [UInt8] = []
            try batch.run(input: try CheckInBatchInput(path: path)) { output += $0 }
            let distance = try #require(validator.judge(checkIn("b", place: "sq", 60.165, 24.91)).distanceMeters)
            let printed = String(format: "%.3f", Double(try #require(CheckInMillimetres.ceiling(distance))) / 1000)
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
            switch format {
            case .csv:
                #expect(lines == ["checkin_id,verdict,reason,distance_m,radius_m,place_id,event_id", "a,valid,,,,sq,",
                                  "b,invalid,outside_area,\(printed),,sq,", "c,valid,,,100,p,", "d,valid,,,,sq,"])
            case .jsonl:
                // JSON lines: no header.
                #expect(lines.count == 4)
                #expect(lines[0].contains("\"radius_m\":null,\"place_id\":\"sq\""), "\(lines)")
                #expect(lines[1].contains("\"reason\":\"outside_area\",\"distance_m\":\(printed),\"radius_m\":null"), "\(lines)")
                #expect(lines[2].contains("\"radius_m\":100,"), "\(lines)")
            }
            #expect(batch.counts[CheckInVerdictIndex.ordinal(.outsideArea)] == 1)
        }
    }

    /// The same parks through the store (imported as parks) and through a CSV with a WKT column give the same
    /// places, shapes included, and the same verdicts as the GeoJSON file.
    @Test func theStoreAndACSVGeometryColumnKeepTheAreas() throws {
        let file = try fileParks()
        let folder = try TemporaryFolder()
        var features: [Feature] = []
        try openFeatureReader(path: RepositoryData.path(Self.parksFile), options: ImportOptions(kind: .park)).forEachRecord { features.append($0) } rejected: { _ in }
        let db = folder.path + "/parks.sqlite"
        try FeatureStore(path: db).upsert(features)
        var stored = CheckInReferenceData(defaultRadiusMeters: nil)
        try stored.loadStore(path: db)
        // The store hands features out in its own order: compare by id.
        #expect(Dictionary(uniqueKeysWithValues: stored.places.map { ($0.id, $0.shape) })
                == Dictionary(uniqueKeysWithValues: file.places.map { ($0.id, $0.shape) }))

        var csv = "id,name,geometry\n"
        for place in file.places {
            let shape = try #require(place.shape)
            let polygons = shape.polygons.map { polygon in
                "(" + ([polygon.exterior] + polygon.holes).map { ring in
                    "(" + ring.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ") + ")"
                }.joined(separator: ", ") + ")"
            }
            csv += "\(place.id),park,\"MULTIPOLYGON (\(polygons.joined(separator: ", ")))\"\n"
        }
        var fromCSV = CheckInReferenceData(defaultRadiusMeters: nil)
        try fromCSV.loadPlaces(path: try folder.write("parks.csv", csv))
        #expect(fromCSV.skippedCount == 0, "\(fromCSV.skippedMessages)")
        #expect(fromCSV.places.map(\.id) == file.places.map(\.id))
        #expect(fromCSV.places.map(\.shape) == file.places.map(\.shape))

        let validators = [file.makeValidator(), stored.makeValidator(), fromCSV.makeValidator()]
        var random = SeededRandom(seed: 23)
        for n in 0..<400 {
            let latitude = random.uniform(60.165 ... 60.180), longitude = random.uniform(24.930 ... 24.955)
            let place = file.places[n % file.places.count].id
            let verdicts = validators.map { validator in
                [checkIn("n", place: place, latitude, longitude), checkIn("f", latitude, longitude)].map { checkIn in
                    let result = validator.judge(checkIn)
                    return "\(result.reason?.code ?? "valid") \(result.placeIndex.map(validator.placeId(at:)) ?? "-") \(result.distanceMeters ?? -1)"
                }
            }
            #expect(verdicts[1] == verdicts[0] && verdicts[2] == verdicts[0])
        }
    }
}
