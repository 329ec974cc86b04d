import Testing
@testable import CairnCore

/// A sample of queries on the real GeoNames data (Data/geonames-cities500.csv.gz), against the oracle.
@Suite("PointIndex on real data")
struct RealDataIndexTests {
    @Test("boxes, radii and nearest on GeoNames cities, both models")
    func cities() throws {
        let points = try RealData.cityCoordinates()
        try #require(points.count > 200_000)
        let index = PointIndex(points)
        var random = IndexTestRandom(seed: 909)
        for query in 0..<6 {
            let city = points[random.int(0...(points.count - 1))]
            let box = try BoundingBox(west: Spherical.normalizedLongitude(city.longitude - 1), south: max(-90, city.latitude - 0.5),
                                      east: Spherical.normalizedLongitude(city.longitude + 1), north: min(90, city.latitude + 0.5))
            #expect(index.search(in: box) == Oracle.box(points, box), "box \(box)")
            let model: DistanceModel = query % 2 == 0 ? .wgs84 : .sphere
            let radiusMeters = [150.0, 2_000, 25_000, 150_000][query % 4]
            // One brute-force pass of distances serves both oracles.
            let distances = points.map { distanceMeters(from: city, to: $0, model: model) }
            let expectedWithin = points.indices.filter { distances[$0] <= radiusMeters }
            let expectedNearest = Array(points.indices.map { Neighbor(item: $0, distanceMeters: distances[$0]) }
                .filter { $0.distanceMeters <= 500_000 }.sorted().prefix(20))
            #expect(index.within(radiusMeters: radiusMeters, of: city, model: model) == expectedWithin,
                    "\(model) r=\(radiusMeters) at \(city)")
            #expect(index.nearest(to: city, count: 20, maxDistance: 500_000, model: model) == expectedNearest,
                    "\(model) nearest at \(city)")
        }
        // Fiji and the Chukotka coast straddle the antimeridian.
        let fiji = try Coordinate(latitude: -17.8, longitude: 179.9)
        let box = try BoundingBox(west: 177, south: -20, east: -178, north: -15)
        #expect(index.search(in: box) == Oracle.box(points, box))
        #expect(!index.search(in: box).isEmpty)
        #expect(index.within(radiusMeters: 300_000, of: fiji) == Oracle.within(points, 300_000, of: fiji, model: .wgs84))
        #expect(index.nearest(to: fiji, count: 20) == Oracle.nearest(points, to: fiji, count: 20, maxDistance: nil, model: .wgs84))
    }
}
