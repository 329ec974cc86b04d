import CairnTestSupport
import Testing
@testable import CairnCore

/// Check-ins near the circle's edge, where the chord bound decides most points: every verdict and every
/// `outside_radius` distance equals the exact geodesic's, and the printing validator's distances print alike.
@Suite struct CheckInEdgeDistanceTests {
    /// Places anywhere (poles and the antimeridian among them), radii 1 m to 20 km, points within ±1.5 radii.
    static func load(seed: UInt64) throws -> (places: [CheckInPlace], checkIns: [CheckIn]) {
        var random = SplitMix64(seed: seed)
        var places: [CheckInPlace] = []
        for n in 0..<400 {
            let latitude = n % 40 == 0 ? (n % 80 == 0 ? 90 : -89.9999) : random.uniform(-89.9...89.9)
            let longitude = n % 40 == 1 ? 179.9999 : random.uniform(-180...180)
            let radius = n % 10 == 0 ? random.uniform(1...50) : (n % 10 == 1 ? random.uniform(2_000...20_000) : random.uniform(50...2_000))
            places.append(CheckInPlace(id: "p\(n)", circle: try Circle(center: Coordinate(latitude: latitude, longitude: longitude),
                                                                       radiusMeters: radius.rounded())))
        }
        var checkIns: [CheckIn] = []
        for n in 0..<40_000 {
            let place = places[random.below(places.count)]
            let centre = place.circle.center
            // Half the points at 0.999–1.001 radii (the hardest), half anywhere within 1.5 radii.
            let scale = random.chance(0.5) ? random.uniform(0.999...1.001) : random.uniform(0...1.5)
            let point = try destination(from: centre, bearingDegrees: random.uniform(0...360),
                                        distanceMeters: scale * place.circle.radiusMeters)
            checkIns.append(CheckIn(id: "c\(n)", userId: "u\(n)", placeId: place.id,
                                    latitude: point.latitude, longitude: point.longitude, time: Timestamp(secondsSince1970: 0)))
        }
        return (places, checkIns)
    }

    @Test func verdictsAndDistancesAreExact() throws {
        let (places, checkIns) = try Self.load(seed: 11)
        let validator = CheckInValidator(places: places, events: [CheckInEvent]())
        let printing = validator.printingDistances()
        var outside = 0, chordPrinted = 0
        for checkIn in checkIns {
            let place = try #require(places.first { $0.id == checkIn.placeId })
            let exact = distanceMeters(from: place.circle.center,
                                       to: try Coordinate(latitude: checkIn.latitude, longitude: checkIn.longitude))
            let result = validator.judge(checkIn)
            if exact <= place.circle.radiusMeters {
                #expect(result.reason == nil, "\(checkIn.id) at \(exact) m of \(place.circle.radiusMeters)")
            } else {
                outside += 1
                #expect(result.reason == .outsideRadius)
                #expect(result.distanceMeters == exact)
            }
            let printed = printing.judge(checkIn)
            #expect(printed.reason == result.reason)
            if let distance = printed.distanceMeters {
                #expect(CheckInMillimetres.ceiling(distance) == CheckInMillimetres.ceiling(exact), "\(checkIn.id)")
                if distance != exact { chordPrinted += 1 }
            }
        }
        #expect(outside > 10_000)
        // Most outside distances are printed from the bound, without the geodesic.
        #expect(chordPrinted > outside / 2)
    }

    @Test func theMillimetreCeilingIsMonotoneAndNeverBelow() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<100_000 {
            let a = random.uniform(0...10_000), b = a + random.uniform(0...1e-3)
            let ca = CheckInMillimetres.ceiling(a) ?? 0, cb = CheckInMillimetres.ceiling(b) ?? 0
            #expect(ca <= cb)
            #expect(Double(ca) / 1000 >= a)
        }
        #expect(CheckInMillimetres.ceiling(-1) == nil)
        #expect(CheckInMillimetres.ceiling(.nan) == nil)
        #expect(CheckInMillimetres.ceiling(1.2345) == 1_235)
        #expect(CheckInMillimetres.ceiling(2) == 2_000)
    }
}
