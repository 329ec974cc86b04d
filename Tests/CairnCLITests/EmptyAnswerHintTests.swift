import CairnCore
import Testing
@testable import CairnCLI

/// An empty answer explains itself when the index can tell why (#16 item 2), and says nothing it cannot back.
@Suite struct EmptyAnswerHintTests {
    let index: FeatureIndex

    init() throws {
        index = FeatureIndex([
            try Feature(id: "a", kind: .place, location: Coordinate(latitude: 60.17, longitude: 24.94)),
            try Feature(id: "b", kind: .place, location: Coordinate(latitude: 60.18, longitude: 24.95)),
        ])
    }

    @Test func anEmptyStoreSaysSo() {
        #expect(EmptyAnswerHint.hints(index: FeatureIndex([]), filter: .all, command: nil) == [
            "the store holds no features: import some first (cairn import FILE)",
        ])
    }

    @Test func kindsTheStoreDoesNotHoldAreNamedWithWhatItHolds() {
        #expect(EmptyAnswerHint.hints(index: index, filter: FeatureFilter(kinds: [.park, .trailhead]), command: nil) == [
            "no feature of kind park or trailhead in the store (it holds 2 place)",
        ])
        #expect(EmptyAnswerHint.hints(index: index, filter: FeatureFilter(kinds: [.place]), command: nil) == [])
    }

    @Test func aBoxGivenAsLatLonSaysSoElseWhereTheFeaturesLie() throws {
        let swapped = try BoundingBox(west: 60.15, south: 24.90, east: 60.20, north: 24.99)
        let swappedHints = EmptyAnswerHint.hints(index: index, filter: .all, command: EmptyAnswerHint.box(swapped))
        #expect(swappedHints.count == 1 && swappedHints[0].contains("latitude and longitude swapped"))
        let elsewhere = try BoundingBox(west: 0, south: 0, east: 1, north: 1)
        let hints = EmptyAnswerHint.hints(index: index, filter: .all, command: EmptyAnswerHint.box(elsewhere))
        #expect(hints == ["nothing in \(elsewhere); the store's 2 features lie within [west 24.94, south 60.17, east 24.95, north 60.18]"])
    }

    @Test func containingWithoutAnyRadiusSaysSo() throws {
        #expect(EmptyAnswerHint.hints(index: index, filter: .all, command: EmptyAnswerHint.radius).first?.contains("has a radius") == true)
        let withRadius = FeatureIndex([try Feature(id: "c", kind: .place, location: Coordinate(latitude: 0, longitude: 0), radiusMeters: 10)])
        #expect(EmptyAnswerHint.hints(index: withRadius, filter: .all, command: EmptyAnswerHint.radius) == [])
    }

    /// The kinds are read without decoding from a mapped snapshot too.
    @Test func kindsAreReadFromAMappedIndex() throws {
        let mapped = try FeatureIndex(mapping: SnapshotFile(bytes: index.snapshotBytes()))
        #expect(mapped.features.isMapped)
        #expect((0..<mapped.count).map { mapped.features.kind(at: $0) } == [.place, .place])
        #expect(mapped.extent == index.extent && mapped.radiusCount == 0)
    }
}
