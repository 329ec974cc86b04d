import Testing
@testable import CairnCore

@Suite("BoundingBox")
struct BoundingBoxTests {
    func c(_ latitude: Double, _ longitude: Double) -> Coordinate {
        Coordinate(uncheckedLatitude: latitude, longitude: longitude)
    }

    @Test("refuses non-finite and out-of-range edges, and south above north")
    func validation() {
        #expect(throws: BoundingBoxError.notFinite(edge: .west, value: -.infinity)) {
            try BoundingBox(west: -.infinity, south: 0, east: 1, north: 1)
        }
        #expect(throws: BoundingBoxError.outOfRange(edge: .east, value: 180.5)) {
            try BoundingBox(west: 0, south: 0, east: 180.5, north: 1)
        }
        #expect(throws: BoundingBoxError.outOfRange(edge: .north, value: 91)) {
            try BoundingBox(west: 0, south: 0, east: 1, north: 91)
        }
        #expect(throws: BoundingBoxError.southAboveNorth(south: 2, north: 1)) {
            try BoundingBox(west: 0, south: 2, east: 1, north: 1)
        }
        #expect(throws: BoundingBoxError.self) { try BoundingBox(west: 0, south: .nan, east: 1, north: 1) }
        #expect((try? BoundingBox(west: 170, south: -10, east: -170, north: 10))?.crossesAntimeridian == true)
        #expect((try? BoundingBox(southWest: c(-10, 10), northEast: c(10, 20))) == (try? BoundingBox(west: 10, south: -10, east: 20, north: 10)))
    }

    @Test("edges are inside; the wrap-around region; 180 and -180 are one meridian")
    func contains() throws {
        let box = try BoundingBox(west: -10, south: -5, east: 10, north: 5)
        #expect(box.contains(c(-5, -10)) && box.contains(c(5, 10)) && box.contains(c(0, 0)))
        #expect(!box.contains(c(5.000000001, 0)) && !box.contains(c(0, 10.000000001)))

        let wrap = try BoundingBox(west: 170, south: -5, east: -170, north: 5)
        #expect(wrap.contains(c(0, 175)) && wrap.contains(c(0, -175)) && wrap.contains(c(0, 180)) && wrap.contains(c(0, -180)))
        #expect(wrap.contains(c(0, 170)) && wrap.contains(c(0, -170)))
        #expect(!wrap.contains(c(0, 0)) && !wrap.contains(c(0, 169.9)) && !wrap.contains(c(0, -169.9)))

        let eastEdge180 = try BoundingBox(west: 100, south: -5, east: 180, north: 5)
        #expect(eastEdge180.contains(c(0, -180)) && eastEdge180.contains(c(0, 180)) && !eastEdge180.contains(c(0, -179.9)))
        let westEdge180 = try BoundingBox(west: -180, south: -5, east: -100, north: 5)
        #expect(westEdge180.contains(c(0, 180)) && westEdge180.contains(c(0, -180)) && !westEdge180.contains(c(0, 179.9)))
        let meridian = try BoundingBox(west: 180, south: -5, east: -180, north: 5)
        #expect(meridian.contains(c(0, 180)) && meridian.contains(c(0, -180)) && !meridian.contains(c(0, 0)))
        let world = try BoundingBox(west: -180, south: -90, east: 180, north: 90)
        #expect(world.contains(c(90, 0)) && world.contains(c(-90, -180)))
        let almostAll = try BoundingBox(west: 10, south: -90, east: 9.999, north: 90)
        #expect(almostAll.contains(c(0, 180)) && almostAll.contains(c(0, 10)) && !almostAll.contains(c(0, 9.9995)))
    }

    @Test("contains agrees with a direct reading of the definition on random boxes")
    func randomContains() throws {
        var random = IndexTestRandom(seed: 3)
        for _ in 0..<5_000 {
            let a = random.double(-90...90), b = random.double(-90...90)
            let box = try BoundingBox(west: random.chance(0.1) ? 180 : random.double(-180...180), south: min(a, b),
                                      east: random.chance(0.1) ? -180 : random.double(-180...180), north: max(a, b))
            let p = random.awkwardCoordinate()
            // Definition: the longitude, or its other spelling at ±180, is between west and east going east.
            let spellings = abs(p.longitude) == 180 ? [180.0, -180.0] : [p.longitude]
            let inLongitude = spellings.contains { lon in
                box.west <= box.east ? (box.west <= lon && lon <= box.east) : (lon >= box.west || lon <= box.east)
            }
            #expect(box.contains(p) == (inLongitude && box.south <= p.latitude && p.latitude <= box.north))
        }
    }
}
