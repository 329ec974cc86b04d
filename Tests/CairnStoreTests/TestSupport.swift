import CairnCore
import CairnStore
import CairnTestSupport
import Foundation

/// Runs `body` with a new store in a temporary folder, then deletes the folder.
func withTemporaryStore(_ body: (FeatureStore, TemporaryFolder) throws -> Void) throws {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    try body(try FeatureStore(path: folder.path()), folder)
}

/// A plain point feature for tests.
func point(_ id: String, latitude: Double, longitude: Double, kind: FeatureKind = .place) throws -> Feature {
    let window: TimeWindow? = kind == .event || kind == .sighting ? TimeWindow(instant: Timestamp(secondsSince1970: 0)) : nil
    return try Feature(
        id: id, kind: kind, location: Coordinate(latitude: latitude, longitude: longitude), timeWindow: window)
}

struct ExpectedTestError: Error {}
