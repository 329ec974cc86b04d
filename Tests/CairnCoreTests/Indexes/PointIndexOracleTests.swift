import Testing
@testable import CairnCore

/// Every PointIndex query against the brute-force oracle on seeded awkward data.
@Suite("PointIndex against the brute-force oracle")
struct PointIndexOracleTests {
    /// A random box; half the time its edges are copied from data points so that points lie exactly on them.
    static func randomBox(_ random: inout IndexTestRandom, _ points: [Coordinate]) throws -> BoundingBox {
        func pick() -> Coordinate { points.isEmpty ? random.awkwardCoordinate() : points[random.int(0...(points.count - 1))] }
        let onEdges = random.chance(0.5)
        let a = onEdges ? pick().latitude : random.double(-90...90)
        let b = onEdges ? pick().latitude : random.double(-90...90)
        var west = onEdges ? pick().longitude : random.double(-180...180)
        var east = onEdges ? pick().longitude : random.double(-180...180)
        if random.chance(0.3) {
            // Small boxes, often across the antimeridian.
            west = random.chance(0.5) ? random.double(170...180) : random.double(-180...180)
            east = Spherical.normalizedLongitude(west + random.double(0...20))
        }
        return try BoundingBox(west: west, south: min(a, b), east: east, north: max(a, b))
    }

    @Test("box queries", arguments: [(0, 64), (1, 64), (2, 2), (65, 8), (1_000, 16), (4_000, 64)])
    func boxes(count: Int, bucketSize: Int) throws {
        var random = IndexTestRandom(seed: UInt64(count * 31 + bucketSize))
        let points = random.awkwardPoints(count)
        let index = PointIndex(points, bucketSize: bucketSize)
        #expect(index.count == count)
        var buffer: [Int] = []
        for _ in 0..<400 {
            let box = try Self.randomBox(&random, points)
            let expected = Oracle.box(points, box)
            #expect(index.search(in: box) == expected, "box \(box)")
            buffer.removeAll(keepingCapacity: true)
            let stats = index.search(in: box, into: &buffer)
            #expect(buffer.sorted() == expected && stats.results == expected.count)
        }
        #expect(index.search(in: .world) == Array(0..<count))
    }

    @Test("radius queries, with and without distances", arguments: DistanceModel.allCases)
    func radius(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 101 : 202)
        var points = random.awkwardPoints(1_500)
        // Points at exactly known distances from a few centres, to be queried with exactly that radius.
        var exact: [(center: Coordinate, item: Int)] = []
        for _ in 0..<40 {
            let center = random.awkwardCoordinate()
            for _ in 0..<3 {
                let target = try destination(from: center, bearingDegrees: random.double(0...360),
                                             distanceMeters: random.radiusMeters(), model: model)
                exact.append((center, points.count))
                points.append(target)
            }
        }
        let index = PointIndex(points, bucketSize: 16)
        var buffer: [Int] = []
        for query in 0..<400 {
            let center: Coordinate, radiusMeters: Double
            var mustContain: Int? = nil
            if query < exact.count {
                center = exact[query].center
                mustContain = exact[query].item
                radiusMeters = distanceMeters(from: center, to: points[exact[query].item], model: model)
            } else {
                center = random.chance(0.2) ? points[random.int(0...(points.count - 1))] : random.awkwardCoordinate()
                radiusMeters = random.radiusMeters()
            }
            let expected = Oracle.within(points, radiusMeters, of: center, model: model)
            let actual = index.within(radiusMeters: radiusMeters, of: center, model: model)
            #expect(actual == expected, "\(model) r=\(radiusMeters) around \(center)")
            if let mustContain { #expect(actual.contains(mustContain), "point at exactly the radius is inside") }
            buffer.removeAll(keepingCapacity: true)
            let stats = index.within(radiusMeters: radiusMeters, of: center, model: model, into: &buffer)
            #expect(buffer.sorted() == expected && stats.results == expected.count)
            #expect(stats.exactChecks <= stats.candidates)
            if query % 4 == 0 {
                #expect(index.neighbors(withinRadiusMeters: radiusMeters, of: center, model: model)
                        == Oracle.neighbors(points, radiusMeters, of: center, model: model))
            }
        }
    }

    @Test("circles across the antimeridian and around the poles", arguments: DistanceModel.allCases)
    func awkwardCircles(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: 303)
        var points: [Coordinate] = []
        for _ in 0..<3_000 {
            // Dense near the antimeridian and the poles.
            let latitude = random.chance(0.5) ? random.double(80...90) * (random.chance(0.5) ? 1 : -1) : random.double(-90...90)
            let longitude = random.chance(0.5) ? (random.chance(0.5) ? random.double(175...180) : random.double(-180 ... -175)) : random.double(-180...180)
            points.append(try Coordinate(latitude: latitude, longitude: longitude))
        }
        points.append(try Coordinate(latitude: 90, longitude: 0))
        points.append(try Coordinate(latitude: -90, longitude: 123))
        points.append(try Coordinate(latitude: 0, longitude: 180))
        points.append(try Coordinate(latitude: 0, longitude: -180))
        let index = PointIndex(points, bucketSize: 32)
        let cases: [(Double, Double, Double)] = [
            (89.5, 0, 200_000), (89.9, -170, 20_000), (-89.99, 45, 5_000), (-88, 180, 400_000), (90, 0, 100_000),
            (-90, 0, 1_000_000), (0, 179.9, 50_000), (0, -179.999, 1_000), (0, 180, 0), (0, -180, 1e-6), (65, 179, 300_000),
            (-40, -179.5, 2_000_000), (10, 0, 20_000_000), (10, 0, 19_990_000), (-10, 180, 10_018_754),
        ]
        for (latitude, longitude, radiusMeters) in cases {
            let center = try Coordinate(latitude: latitude, longitude: longitude)
            #expect(index.within(radiusMeters: radiusMeters, of: center, model: model)
                    == Oracle.within(points, radiusMeters, of: center, model: model), "\(center) r=\(radiusMeters)")
            #expect(index.nearest(to: center, count: 25, model: model)
                    == Oracle.nearest(points, to: center, count: 25, maxDistance: nil, model: model), "\(center)")
        }
    }

    @Test("nearest-k queries", arguments: DistanceModel.allCases)
    func nearest(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 404 : 505)
        let points = random.awkwardPoints(1_500)
        let index = PointIndex(points, bucketSize: 8)
        var buffer: [Neighbor] = []
        var scratch = NearestScratch()
        for _ in 0..<250 {
            let center = random.chance(0.2) ? points[random.int(0...(points.count - 1))] : random.awkwardCoordinate()
            let count = random.int(0...40)
            let maxDistance: Double? = random.chance(0.4) ? random.radiusMeters() : nil
            let expected = Oracle.nearest(points, to: center, count: count, maxDistance: maxDistance, model: model)
            #expect(index.nearest(to: center, count: count, maxDistance: maxDistance, model: model) == expected,
                    "\(model) k=\(count) max=\(String(describing: maxDistance)) at \(center)")
            buffer.removeAll(keepingCapacity: true)
            let stats = index.nearest(to: center, count: count, maxDistance: maxDistance, model: model, into: &buffer)
            #expect(buffer == expected && stats.results == expected.count)
            buffer.removeAll(keepingCapacity: true)
            index.nearest(to: center, count: count, maxDistance: maxDistance, model: model, into: &buffer, scratch: &scratch)
            #expect(buffer == expected, "with a reused scratch")
        }
        // Every point, in order.
        let center = try Coordinate(latitude: 12, longitude: -179.9)
        #expect(index.nearest(to: center, count: points.count + 5, model: model)
                == Oracle.nearest(points, to: center, count: points.count, maxDistance: nil, model: model))
    }

    @Test("empty, one point, many identical points", arguments: DistanceModel.allCases)
    func degenerate(model: DistanceModel) throws {
        let here = try Coordinate(latitude: 60.17, longitude: 24.94)
        let empty = PointIndex([Coordinate]())
        #expect(empty.isEmpty && empty.search(in: .world).isEmpty)
        #expect(empty.within(radiusMeters: 1e7, of: here, model: model).isEmpty)
        #expect(empty.nearest(to: here, count: 5, model: model).isEmpty)

        let one = PointIndex([here])
        #expect(one.search(in: .world) == [0])
        #expect(one.within(radiusMeters: 0, of: here, model: model) == [0])
        #expect(one.nearest(to: here, count: 3, model: model) == [Neighbor(item: 0, distanceMeters: 0)])
        #expect(one.nearest(to: try Coordinate(latitude: 0, longitude: 0), count: 1, maxDistance: 1000, model: model).isEmpty)
        #expect(one.within(radiusMeters: -1, of: here, model: model).isEmpty)
        #expect(one.within(radiusMeters: .nan, of: here, model: model).isEmpty)
        #expect(one.nearest(to: here, count: 0, model: model).isEmpty)

        var random = IndexTestRandom(seed: 606)
        var points = [Coordinate](repeating: here, count: 1_000)
        for _ in 0..<50 { points.insert(random.awkwardCoordinate(), at: random.int(0...points.count)) }
        let same = PointIndex(points, bucketSize: 4)
        let dupes = points.indices.filter { points[$0] == here }
        #expect(same.within(radiusMeters: 0, of: here, model: model) == Oracle.within(points, 0, of: here, model: model))
        #expect(same.search(in: try BoundingBox(west: 24.94, south: 60.17, east: 24.94, north: 60.17)) == dupes)
        let nearest = same.nearest(to: here, count: 10, model: model)
        #expect(nearest.map(\.item) == Array(dupes.prefix(10)), "ties broken by item index")
        #expect(nearest == Oracle.nearest(points, to: here, count: 10, maxDistance: nil, model: model))
    }
}
