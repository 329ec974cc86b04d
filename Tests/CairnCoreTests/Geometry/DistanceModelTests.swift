import Testing
@testable import CairnCore

@Suite("Distance models against geod (PROJ) known answers")
struct DistanceModelTests {
    static func rows(_ text: String) -> [[Double]] {
        text.split(separator: "\n").map { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Double($0) }
        }
    }

    @Test("inverse: distance matches geod to a micrometre", arguments: DistanceModel.allCases)
    func inverse(model: DistanceModel) throws {
        let inputs = Self.rows(GeodesicVectors.inverseInput)
        let outputs = Self.rows(model == .wgs84 ? GeodesicVectors.inverseWGS84 : GeodesicVectors.inverseSphere)
        try #require(inputs.count == outputs.count && inputs.count >= 30)
        for (input, output) in zip(inputs, outputs) {
            let a = try Coordinate(latitude: input[0], longitude: input[1])
            let b = try Coordinate(latitude: input[2], longitude: input[3])
            let expected = output[2]
            let actual = distanceMeters(from: a, to: b, model: model)
            // geod prints 6 decimals.
            let tolerance = 1e-6
            #expect(abs(actual - expected) <= tolerance, "\(model) \(input): got \(actual), geod says \(expected)")
            // The argument order is part of the contract but the distance is symmetric up to rounding.
            #expect(abs(distanceMeters(from: b, to: a, model: model) - expected) <= tolerance)
        }
    }

    @Test("direct: destination matches geod to 1e-9 degrees", arguments: DistanceModel.allCases)
    func direct(model: DistanceModel) throws {
        let inputs = Self.rows(GeodesicVectors.directInput)
        let outputs = Self.rows(model == .wgs84 ? GeodesicVectors.directWGS84 : GeodesicVectors.directSphere)
        try #require(inputs.count == outputs.count && inputs.count >= 10)
        for (input, output) in zip(inputs, outputs) {
            let start = try Coordinate(latitude: input[0], longitude: input[1])
            let end = try destination(from: start, bearingDegrees: input[2], distanceMeters: input[3], model: model)
            #expect(abs(end.latitude - output[0]) <= 1e-9, "\(model) \(input): latitude \(end.latitude) vs \(output[0])")
            // Longitudes 180 and -180 are the same meridian; at a pole longitude is arbitrary.
            if abs(output[0]) < 89.9999 {
                #expect(Spherical.angularGapDegrees(end.longitude, output[1]) <= 1e-9,
                        "\(model) \(input): longitude \(end.longitude) vs \(output[1])")
            }
        }
    }

    @Test("destination then distance comes back to the same length", arguments: DistanceModel.allCases)
    func roundTrip(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: 7)
        for _ in 0..<500 {
            let start = random.awkwardCoordinate()
            let meters = random.double(0...19_000_000)
            let end = try destination(from: start, bearingDegrees: random.double(-180...360), distanceMeters: meters, model: model)
            #expect((-90...90).contains(end.latitude) && (-180...180).contains(end.longitude))
            let back = distanceMeters(from: start, to: end, model: model)
            #expect(abs(back - meters) <= 1e-6 + meters * 1e-9, "\(start) \(meters) -> \(end): \(back)")
        }
    }

    @Test("zero, identity of ±180, refusal of non-finite input")
    func edges() throws {
        let p = try Coordinate(latitude: 12.5, longitude: 180)
        let q = try Coordinate(latitude: 12.5, longitude: -180)
        for model in DistanceModel.allCases {
            #expect(distanceMeters(from: p, to: p, model: model) == 0)
            #expect(distanceMeters(from: p, to: q, model: model) <= 1e-8)
            #expect(throws: CoordinateError.self) { try destination(from: p, bearingDegrees: .nan, distanceMeters: 1, model: model) }
            #expect(throws: CoordinateError.self) { try destination(from: p, bearingDegrees: 0, distanceMeters: .infinity, model: model) }
        }
    }

    @Test("the spherical bounds hold: Rmin·σ ≤ geodesic ≤ Rmax·σ on random pairs")
    func bounds() {
        var random = IndexTestRandom(seed: 11)
        let bounds = DistanceBounds(.wgs84)
        for _ in 0..<20_000 {
            let a = random.awkwardCoordinate()
            let b = random.chance(0.5) ? random.awkwardCoordinate()
                : Coordinate(uncheckedLatitude: (a.latitude + random.double(-0.01...0.01)).clamped(to: -90...90),
                             longitude: Spherical.normalizedLongitude(a.longitude + random.double(-0.01...0.01)))
            let h = Spherical.haversine(a.latitude, a.longitude, b.latitude, b.longitude)
            let s = distanceMeters(from: a, to: b)
            #expect(bounds.lowerBoundMeters(haversine: h) <= s)
            #expect(s <= bounds.upperBoundMeters(haversine: h))
        }
    }
}
