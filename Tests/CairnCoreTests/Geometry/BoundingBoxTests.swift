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

    @Test("unwrapped longitudes, as map clients give them with world copies, name the same meridians")
    func unwrappedLongitudes() throws {
        #expect(try BoundingBox(unwrappedWest: 170, south: -25, east: 190, north: -10) == BoundingBox(west: 170, south: -25, east: -170, north: -10))
        #expect(try BoundingBox(unwrappedWest: -190, south: 0, east: -170, north: 1) == BoundingBox(west: 170, south: 0, east: -170, north: 1))
        #expect(try BoundingBox(unwrappedWest: 190, south: 0, east: 200, north: 1) == BoundingBox(west: -170, south: 0, east: -160, north: 1))
        #expect(try BoundingBox(unwrappedWest: -200, south: -90, east: 170, north: 90) == BoundingBox.world)
        #expect(try BoundingBox(unwrappedWest: 10, south: 0, east: 20, north: 1) == BoundingBox(west: 10, south: 0, east: 20, north: 1))
        #expect(try BoundingBox(unwrappedWest: 170, south: 0, east: -170, north: 1) == BoundingBox(west: 170, south: 0, east: -170, north: 1))
        #expect(throws: BoundingBoxError.notFinite(edge: .east, value: .infinity)) {
            try BoundingBox(unwrappedWest: 0, south: 0, east: .infinity, north: 1)
        }
        // Oracle: a point is inside when some whole turn of its longitude lies within [west, east] (a span below 360).
        var random = SeededRandom(seed: 9)
        for _ in 0..<20_000 {
            let west = random.uniform(-720...720), span = random.uniform(0...359.9), east = west + span
            let box = try BoundingBox(unwrappedWest: west, south: -90, east: east, north: 90)
            let longitude = random.below(10) == 0 ? BoundingBox.wrapped(west.rounded()) : random.uniform(-180...180)
            let expected = (-4...4).contains { turn in
                let shifted = longitude + 360 * Double(turn)
                return shifted >= west && shifted <= east
            }
            #expect(box.contains(c(0, longitude)) == expected, "\(west)...\(east) at \(longitude)")
        }
    }
}
