import CairnCore
import Foundation

/// The locations of the features one import run has written so far, so that rows later in the same run (events
/// whose `placeId` names a place of an earlier file or row) find them.
///
/// The store's own lookup cannot: it reads outside the run's open write transaction, so it sees the store as it was
/// before the import. Only what the place lookup uses is kept, the location and radius (about 50 bytes per id).
/// Safe to share between threads.
final class ImportedPlaces: @unchecked Sendable {
    private struct Place {
        var location: Coordinate
        var radiusMeters: Double?
    }

    private let lock = NSLock()
    private var places: [String: Place] = [:]

    /// Remembers where `feature` is; a later feature with the same id replaces it (the last row wins, as in the store).
    /// - Complexity: O(1) expected.
    func record(_ feature: Feature) {
        lock.lock()
        places[feature.id] = Place(location: feature.location, radiusMeters: feature.radiusMeters)
        lock.unlock()
    }

    /// The feature with `id` written by this run, as a place with its location and radius (all that a place lookup
    /// reads), or nil when the run wrote none.
    /// - Complexity: O(1) expected.
    func place(id: String) -> Feature? {
        lock.lock()
        let place = places[id]
        lock.unlock()
        guard let place else { return nil }
        return try? Feature(id: id, kind: .place, location: place.location, radiusMeters: place.radiusMeters)
    }
}
