import CairnCore
import Testing

/// A whole use of the public query API on a few features (the README showed it before the library guide,
/// docs/LIBRARY.md, took the examples), kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleWorks() throws {
        // --- example begins
        let station = try Coordinate(latitude: 60.1719, longitude: 24.9414)
        let features = try [
            Feature(id: "kaivopuisto", kind: .park, location: Coordinate(latitude: 60.1566, longitude: 24.9562),
                    attributes: ["fenced": .bool(true), "offLeash": .bool(true)]),
            Feature(id: "oodi", kind: .place, location: Coordinate(latitude: 60.1738, longitude: 24.9381), radiusMeters: 80),
            Feature(id: "suva", kind: .place, location: Coordinate(latitude: -18.1416, longitude: 178.4415), radiusMeters: 500),
        ]
        let index = FeatureIndex(features)                                   // build once, query from any thread

        let viewfinder = try BoundingBox(west: 24.90, south: 60.15, east: 25.00, north: 60.20)
        let inView = index.search(in: viewfinder)                             // ["kaivopuisto", "oodi"]
        let around = index.within(radiusMeters: 2_000, of: station)          // nearest first, with distance
        let fencedParks = FeatureFilter(kinds: [.park], predicates: [try AttributePredicate(parsing: "fenced")])
        let nearestPark = index.nearest(to: station, count: 1, filter: fencedParks)
        let checkIn = index.containing(try Coordinate(latitude: 60.1740, longitude: 24.9385)) // ["oodi"]
        let fiji = index.search(in: try BoundingBox(west: 178, south: -20, east: -178, north: -15)) // across 180°
        // --- example ends

        #expect(inView.map { features[$0.item].id } == ["kaivopuisto", "oodi"])
        #expect(around.map { features[$0.item].id } == ["oodi", "kaivopuisto"])
        #expect(around.allSatisfy { ($0.distanceMeters ?? .infinity) <= 2_000 })
        #expect(nearestPark.map { features[$0.item].id } == ["kaivopuisto"])
        #expect(checkIn.map { features[$0.item].id } == ["oodi"])
        #expect(fiji.map { features[$0.item].id } == ["suva"])
    }
}
