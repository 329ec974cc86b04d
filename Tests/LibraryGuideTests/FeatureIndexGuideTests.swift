import CairnCore
import Testing

/// docs/LIBRARY.md, "CairnCore: FeatureIndex" and "DynamicFeatureIndex": the guide's code, verbatim
/// (scripts/library-guide --check), then the results the guide states.
@Suite struct FeatureIndexGuideTests {
    @Test func staticIndexThenEdits() throws {
        let features = [
            try Feature(id: "hyde-park", kind: .park, location: Coordinate(latitude: 51.5073, longitude: -0.1657),
                        attributes: ["fenced": .bool(false), "rating": .number(4.6)]),
            try Feature(id: "regents-park", kind: .park, location: Coordinate(latitude: 51.5313, longitude: -0.1570),
                        attributes: ["fenced": .bool(true), "rating": .number(4.7)]),
            try Feature(id: "british-museum", kind: .place, location: Coordinate(latitude: 51.5194, longitude: -0.1270),
                        radiusMeters: 150),
            try Feature(id: "louvre", kind: .place, location: Coordinate(latitude: 48.8606, longitude: 2.3376),
                        radiusMeters: 200),
        ]
        let index = FeatureIndex(features)

        // The viewfinder: what lies inside central London (edges count as inside).
        let centralLondon = try BoundingBox(west: -0.25, south: 51.45, east: 0.0, north: 51.56)
        let inView = index.search(in: centralLondon).map { index.features[$0.item].id }
        // ["hyde-park", "regents-park", "british-museum"]

        // Within 3 km of Trafalgar Square, nearest first, with WGS84 geodesic distances in metres.
        let trafalgar = try Coordinate(latitude: 51.5080, longitude: -0.1281)
        let around = index.within(radiusMeters: 3_000, of: trafalgar).map { hit in
            "\(index.features[hit.item].id) \(Int((hit.distanceMeters ?? 0).rounded())) m"
        }
        // ["british-museum 1271 m", "hyde-park 2612 m"]

        // The nearest fenced park, however far.
        let fencedParks = FeatureFilter(kinds: [.park], predicates: [try AttributePredicate(parsing: "fenced")])
        let nearestFenced = index.nearest(to: trafalgar, count: 1, filter: fencedParks).map { index.features[$0.item].id }
        // ["regents-park"]

        // Containment, the check-in question: whose circle holds this point?
        let visitor = try Coordinate(latitude: 51.5196, longitude: -0.1268)
        let checkedInAt = index.containing(visitor).map { index.features[$0.item].id }
        // ["british-museum"]

        #expect(inView == ["hyde-park", "regents-park", "british-museum"])
        #expect(around == ["british-museum 1271 m", "hyde-park 2612 m"])
        #expect(nearestFenced == ["regents-park"])
        #expect(checkedInAt == ["british-museum"])

        var live = DynamicFeatureIndex(features)
        // A café opens, the Louvre's circle grows (an upsert replaces by id), Hyde Park goes.
        live.upsert(try Feature(id: "cafe-nero", kind: .place,
                                location: Coordinate(latitude: 51.5085, longitude: -0.1290), radiusMeters: 30))
        live.upsert(try Feature(id: "louvre", kind: .place,
                                location: Coordinate(latitude: 48.8606, longitude: 2.3376), radiusMeters: 400))
        let removed = live.remove(id: "hyde-park")
        // removed == true; live.count == 4; live.pendingEdits == 4 (two delta slots, two tombstones)

        // The next query sees every edit; hits carry their features.
        let nearby = live.within(radiusMeters: 3_000, of: trafalgar).map(\.id)
        // ["cafe-nero", "british-museum"]
        let louvreRadius = live.feature(id: "louvre")?.radiusMeters
        // 400.0

        // A copy is free until one side is edited: hand it to readers on other threads.
        let forReaders = live
        live.compact()
        // live.pendingEdits == 0; forReaders still answers as before, from its own base and delta

        #expect(removed)
        #expect(live.count == 4)
        #expect(forReaders.pendingEdits == 4)
        #expect(nearby == ["cafe-nero", "british-museum"])
        #expect(louvreRadius == 400)
        #expect(live.pendingEdits == 0)
        #expect(forReaders.within(radiusMeters: 3_000, of: trafalgar).map(\.id) == nearby)
        #expect(live.within(radiusMeters: 3_000, of: trafalgar).map(\.id) == nearby)
    }
}
