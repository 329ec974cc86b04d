import CairnTestSupport
import Testing
@testable import CairnCore

/// Check-ins at park polygons, where `ShapeBoundaryDistance.bracket` decides most points: the printing
/// validator's `outside_area` distances print as `ShapeBoundaryDistance.meters` does (same millimetre ceiling),
/// its verdicts are the exact validator's, and under the lenient policy a point-only check-in matches exactly the
/// places a brute-force scan accepts (covers, or the boundary within the accuracy).
@Suite struct CheckInAreaDistanceTests {
    /// Star-shaped parks (a third with a hole) of 100 m to 3 km near the equator, the poles and ±180, and check-ins
    /// within 1.2 radii of their centres naming the park, or no park.
    static func load(seed: UInt64, count: Int) throws -> (places: [CheckInPlace], checkIns: [CheckIn]) {
        var random = SplitMix64(seed: seed)
        var places: [CheckInPlace] = []
        for n in 0..<200 {
            let latitude = n % 20 == 0 ? random.uniform(88...89.9) : random.uniform(-70...70)
            let longitude = n % 20 == 1 ? 179.99 : random.uniform(-180...180)
            let centre = try Coordinate(latitude: latitude, longitude: longitude)
            let size = random.uniform(0.001...0.03)
            let shape = try SyntheticShapes.shape(n % 3 == 0 ? .multiPolygon : .polygon, around: centre, sizeDegrees: size,
                                                  random: &random)
            places.append(CheckInPlace(id: "p\(n)", circle: try Circle(center: centre, radiusMeters: 1), shape: shape))
        }
        var checkIns: [CheckIn] = []
        for n in 0..<count {
            let place = places[random.below(places.count)]
            let box = try #require(place.shape).extent
            let latitude = min(90, max(-90, random.uniform(box.south...box.north) + random.uniform(-0.2...0.2) * (box.north - box.south)))
            let longitude = BoundingBox.wrapped(random.uniform(box.west...max(box.west, box.east))
                                                + random.uniform(-0.2...0.2) * (box.north - box.south))
            checkIns.append(CheckIn(id: "c\(n)", userId: "u\(n)", placeId: n % 4 == 0 ? nil : place.id, latitude: latitude,
                                    longitude: longitude, time: Timestamp(secondsSince1970: 0),
                                    accuracyMeters: random.uniform(0...60)))
        }
        return (places, checkIns)
    }

    /// A named check-in on, just inside and just beyond its area's box (every vertex's extremes), at its vertices,
    /// and at -180 for areas that reach 180: valid exactly when `Shape.covers` holds (the validator skips the
    /// crossing test beyond the box, except at ±180 and the poles).
    @Test func pointsAtTheAreasBoxGetTheCoversVerdict() throws {
        let (places, _) = try Self.load(seed: 23, count: 0)
        let validator = CheckInValidator(places: places, events: [CheckInEvent]()).printingDistances()
        var random = SplitMix64(seed: 5)
        var checked = 0, covered = 0
        for place in places {
            let shape = try #require(place.shape)
            let positions = shape.parts.positions
            let longitudes = stride(from: 0, to: positions.count, by: 2).map { positions[$0] }
            let latitudes = stride(from: 1, to: positions.count, by: 2).map { positions[$0] }
            let (west, east) = (longitudes.min() ?? 0, longitudes.max() ?? 0)
            let (south, north) = (latitudes.min() ?? 0, latitudes.max() ?? 0)
            var points: [(Double, Double)] = zip(latitudes, longitudes).map { ($0, $1) }
            for _ in 0..<12 {
                let lat = random.uniform(south...north), lon = random.uniform(west...east)
                for edge in [west, west.nextDown, west.nextUp, east, east.nextUp, east.nextDown] { points.append((lat, edge)) }
                for edge in [south, south.nextDown, south.nextUp, north, north.nextUp, north.nextDown] { points.append((edge, lon)) }
                if east == 180 { points.append((lat, -180)) }
            }
            for (lat, lon) in points where abs(lat) <= 90 && abs(lon) <= 180 {
                let point = try Coordinate(latitude: lat, longitude: lon)
                let result = validator.judge(CheckIn(id: "c", userId: "u", placeId: place.id, latitude: lat, longitude: lon,
                                                     time: Timestamp(secondsSince1970: 0)))
                let inside = shape.covers(point)
                #expect((result.reason == nil) == inside, "\(place.id) at \(lat), \(lon)")
                checked += 1
                if inside { covered += 1 }
            }
        }
        #expect(checked > 20_000 && covered > 2_000, "\(checked) \(covered)")
    }

    @Test func printedDistancesAreTheExactMethods() throws {
        let (places, checkIns) = try Self.load(seed: 19, count: 6_000)
        let validator = CheckInValidator(places: places, events: [CheckInEvent]())
        let printing = validator.printingDistances()
        var outside = 0, bracketed = 0
        for checkIn in checkIns {
            let result = validator.judge(checkIn)
            let printed = printing.judge(checkIn)
            #expect(printed.reason == result.reason && printed.placeIndex == result.placeIndex, "\(checkIn.id)")
            guard let place = checkIn.placeId, let shape = places.first(where: { $0.id == place })?.shape else { continue }
            let point = try Coordinate(latitude: checkIn.latitude, longitude: checkIn.longitude)
            if shape.covers(point) {
                #expect(result.reason == nil)
                continue
            }
            outside += 1
            let exact = ShapeBoundaryDistance.meters(from: point, to: shape)
            #expect(result.reason == .outsideArea && result.distanceMeters == exact, "\(checkIn.id)")
            let distance = try #require(printed.distanceMeters)
            #expect(CheckInMillimetres.ceiling(distance) == CheckInMillimetres.ceiling(exact), "\(checkIn.id): \(distance) vs \(exact)")
            if distance != exact { bracketed += 1 }
        }
        #expect(outside > 1_500, "\(outside)")
        // Most distances are printed from the bracket, without the distance search.
        #expect(bracketed * 10 > outside * 7, "\(bracketed) of \(outside)")
    }

    /// Under the lenient policy, a check-in naming no place goes to a place whose area covers it or whose boundary
    /// is within the accuracy (the extent index searched with the accuracy's box), and the verdicts agree with a
    /// scan of every place.
    @Test func lenientMatchesAreTheScansPlaces() throws {
        let (places, checkIns) = try Self.load(seed: 23, count: 2_000)
        let validator = CheckInValidator(places: places, events: [CheckInEvent](), accuracyPolicy: .lenient)
        let printing = validator.printingDistances()
        var matched = 0, byAccuracy = 0
        for checkIn in checkIns {
            let point = try Coordinate(latitude: checkIn.latitude, longitude: checkIn.longitude)
            let accuracy = checkIn.accuracyMeters ?? 0
            // Every place, skipping only those whose extent alone is beyond the accuracy (a lower bound).
            let accepting = places.indices.filter { index in
                guard let shape = places[index].shape,
                      ShapeBoundaryDistance.lowerBoundMeters(from: point, to: shape.extent) <= accuracy else { return false }
                return shape.covers(point) || ShapeBoundaryDistance.meters(from: point, to: shape) - accuracy <= 0
            }
            let free = CheckIn(id: checkIn.id, userId: checkIn.userId, latitude: checkIn.latitude, longitude: checkIn.longitude,
                               time: checkIn.time, accuracyMeters: checkIn.accuracyMeters)
            for judged in [validator.judge(free), printing.judge(free)] {
                if accepting.isEmpty {
                    #expect(judged.reason == .noMatch, "\(checkIn.id)")
                } else {
                    #expect(judged.reason == nil, "\(checkIn.id)")
                    #expect(accepting.contains(judged.placeIndex ?? -1), "\(checkIn.id)")
                }
            }
            if !accepting.isEmpty {
                matched += 1
                if !accepting.contains(where: { places[$0].shape?.covers(point) == true }) { byAccuracy += 1 }
            }
            // Naming the place: valid exactly when the scan accepts it.
            if let name = checkIn.placeId, let index = places.firstIndex(where: { $0.id == name }) {
                let named = printing.judge(checkIn)
                #expect((named.reason == nil) == accepting.contains(index), "\(checkIn.id)")
                #expect(named.reason == validator.judge(checkIn).reason)
            }
        }
        #expect(matched > 700 && byAccuracy > 20, "\(matched) \(byAccuracy)")
    }
}
