import Testing
@testable import CairnCore

@Suite("CircleIndex against the brute-force oracle")
struct CircleIndexTests {
    @Test("refuses bad radii")
    func validation() throws {
        let here = try Coordinate(latitude: 1, longitude: 2)
        #expect(throws: CircleError.invalidRadius(-1)) { try Circle(center: here, radiusMeters: -1) }
        #expect(throws: CircleError.self) { try Circle(center: here, radiusMeters: .infinity) }
        #expect(throws: CircleError.self) { try Circle(center: here, radiusMeters: .nan) }
        #expect(try Circle(center: here, radiusMeters: 0).contains(here))
    }

    @Test("which circles contain a point", arguments: DistanceModel.allCases)
    func containing(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 707 : 808)
        var circles: [Circle] = []
        var onEdge: [(point: Coordinate, item: Int)] = []
        for _ in 0..<1_500 {
            let center = random.awkwardCoordinate()
            // Mostly check-in sized circles, some huge ones, some of zero radius.
            let radius = random.chance(0.8) ? random.double(10...2_000) : random.radiusMeters()
            circles.append(try Circle(center: center, radiusMeters: radius))
        }
        // Circles whose edge passes exactly through a known point: radius = the computed distance to it.
        for _ in 0..<60 {
            let center = random.awkwardCoordinate()
            let point = try destination(from: center, bearingDegrees: random.double(0...360), distanceMeters: random.radiusMeters(), model: model)
            onEdge.append((point, circles.count))
            circles.append(try Circle(center: center, radiusMeters: distanceMeters(from: center, to: point, model: model)))
        }
        let index = CircleIndex(circles, bucketSize: 8)
        #expect(index.count == circles.count)
        var buffer: [Int] = []
        for query in 0..<400 {
            let point: Coordinate
            if query < onEdge.count {
                point = onEdge[query].point
            } else if random.chance(0.3) {
                let circle = circles[random.int(0...(circles.count - 1))]
                point = try destination(from: circle.center, bearingDegrees: random.double(0...360),
                                        distanceMeters: circle.radiusMeters * random.double(0.99...1.01), model: model)
            } else {
                point = random.awkwardCoordinate()
            }
            let expected = Oracle.containing(circles, point, model: model)
            let actual = index.containing(point, model: model)
            #expect(actual == expected, "\(model) at \(point)")
            if query < onEdge.count { #expect(actual.contains(onEdge[query].item), "a point on the edge is inside") }
            buffer.removeAll(keepingCapacity: true)
            let stats = index.containing(point, model: model, into: &buffer)
            #expect(buffer == expected && stats.results == expected.count)
        }
        #expect(CircleIndex([Circle]()).containing(try Coordinate(latitude: 0, longitude: 0), model: model).isEmpty)
    }

    /// Only check-in sized circles, so the walk prunes by latitude and by the scaled longitude reach everywhere
    /// (a huge circle would make the root reach a pole and switch longitude pruning off): dense groups at the
    /// antimeridian, near the poles and in Helsinki, with query points on, just inside and just outside edges.
    @Test("small circles: the per-node reach prunes exactly", arguments: DistanceModel.allCases)
    func smallCircles(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 909 : 1_010)
        var circles: [Circle] = []
        for _ in 0..<3_000 {
            var center = random.awkwardCoordinate()
            if random.chance(0.4) {
                // Near a previous centre, so that circles overlap.
                let near = circles.isEmpty ? center : circles[random.int(0...(circles.count - 1))].center
                center = try destination(from: near, bearingDegrees: random.double(0...360),
                                         distanceMeters: random.double(0...3_000), model: model)
            }
            let radius = random.chance(0.05) ? random.double(0...1) : random.double(1...2_500)
            circles.append(try Circle(center: center, radiusMeters: radius))
        }
        let index = CircleIndex(circles, bucketSize: 4)
        for _ in 0..<1_500 {
            let circle = circles[random.int(0...(circles.count - 1))]
            let scale = random.chance(0.5) ? random.double(0.999_999...1.000_001) : random.double(0...1.5)
            let point = try destination(from: circle.center, bearingDegrees: random.double(0...360),
                                        distanceMeters: circle.radiusMeters * scale, model: model)
            #expect(index.containing(point, model: model) == Oracle.containing(circles, point, model: model),
                    "\(model) at \(point)")
        }
        // One point, one circle, identical circles.
        let here = try Coordinate(latitude: -89.9999, longitude: 179.9999)
        let same = try [Circle](repeating: Circle(center: here, radiusMeters: 30), count: 40)
        #expect(CircleIndex(same, bucketSize: 4).containing(here, model: model) == Array(0..<40))
        #expect(CircleIndex(same.prefix(1)).containing(try Coordinate(latitude: -89.9999, longitude: -179.9999), model: model) == [0])
    }
    /// The extent tree (`circleExtents`, which plain queries use after `ExtentCache.queriesBeforeBuild` of them)
    /// from its first query: seeded circles of every size at the antimeridian, the poles and in dense groups,
    /// identical circles, one circle and none, against the oracle and the centres' walk, counters included.
    @Test("the circles' extent tree answers as the oracle", arguments: DistanceModel.allCases)
    func extentTree(model: DistanceModel) throws {
        var random = IndexTestRandom(seed: model == .wgs84 ? 1_111 : 1_212)
        var circles: [Circle] = []
        for _ in 0..<600 {
            var center = random.awkwardCoordinate()
            if random.chance(0.3), let near = circles.last?.center {
                center = random.chance(0.3) ? near : try destination(from: near, bearingDegrees: random.double(0...360),
                                                                     distanceMeters: random.double(0...3_000), model: model)
            }
            let radius = random.chance(0.9) ? random.double(0...2_500) : random.radiusMeters()
            circles.append(try Circle(center: center, radiusMeters: radius))
        }
        func check(_ circles: [Circle], _ point: Coordinate, _ index: CircleIndex, _ extents: ShapeExtentIndex) {
            var viaExtents: [Int] = [], viaCentres: [Int] = []
            let stats = index.containing(point, model: model, extents: extents, into: &viaExtents)
            index.containing(point, model: model, accuracyMeters: 0, into: &viaCentres)
            let expected = Oracle.containing(circles, point, model: model)
            #expect(viaExtents == expected && viaCentres == expected, "\(model) at \(point)")
            #expect(stats.results == expected.count && stats.exactChecks <= stats.candidates)
        }
        let index = CircleIndex(circles, bucketSize: 8)
        let extents = index.circleExtents()
        #expect(extents.count >= circles.count)
        for _ in 0..<400 {
            let point: Coordinate
            if random.chance(0.6) {
                let circle = circles[random.int(0...(circles.count - 1))]
                let scale = random.chance(0.5) ? random.double(0.999_999...1.000_001) : random.double(0...1.5)
                point = try destination(from: circle.center, bearingDegrees: random.double(0...360),
                                        distanceMeters: circle.radiusMeters * scale, model: model)
            } else {
                point = random.awkwardCoordinate()
            }
            check(circles, point, index, extents)
        }
        for latitude in [-90.0, -89.999, 0, 89.999, 90] {
            for longitude in [-180.0, -179.999, 0, 179.999, 180] {
                check(circles, try Coordinate(latitude: latitude, longitude: longitude), index, extents)
            }
        }
        let here = try Coordinate(latitude: -89.9999, longitude: 179.9999)
        let same = try [Circle](repeating: Circle(center: here, radiusMeters: 30), count: 100)
        let identical = CircleIndex(same, bucketSize: 4)
        check(same, here, identical, identical.circleExtents())
        check(same, try Coordinate(latitude: -89.9999, longitude: -179.9999), identical, identical.circleExtents())
        check(same, try Coordinate(latitude: -90, longitude: 12), identical, identical.circleExtents())
        let one = CircleIndex(same.prefix(1))
        check(Array(same.prefix(1)), try Coordinate(latitude: -89.9999, longitude: -179.9999), one, one.circleExtents())
        let none = CircleIndex([Circle]())
        check([], here, none, none.circleExtents())
    }

    @Test("plain queries switch to the extent tree after a few, with the same answers")
    func extentTreeIsBuiltAfterAFewQueries() throws {
        var random = IndexTestRandom(seed: 1_313)
        let circles = try (0..<500).map { _ in try Circle(center: random.awkwardCoordinate(), radiusMeters: random.double(0...50_000)) }
        let index = CircleIndex(circles)
        let copy = index
        for query in 0..<(2 * CircleIndex.ExtentCache.queriesBeforeBuild) {
            let circle = circles[query % circles.count]
            #expect(copy.containing(circle.center) == Oracle.containing(circles, circle.center, model: .wgs84))
            #expect(index.extentCache.isBuilt == (query >= CircleIndex.ExtentCache.queriesBeforeBuild))
        }
    }
}
