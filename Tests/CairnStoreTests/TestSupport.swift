import CairnCore
import CairnStore
import Foundation

/// A fresh temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("cairn-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file named `name` inside the folder.
    func path(_ name: String = "cairn.sqlite") -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

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
