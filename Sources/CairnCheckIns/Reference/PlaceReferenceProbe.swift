import CairnCore
import CairnIO
import Foundation

/// Lets an event be read from JSON lines or GeoJSON by its `placeId` alone, as it is from CSV.
///
/// The feature readers need a location for every record; a record with no coordinates but a place id gets one
/// from `ImportOptions.placeLookup`. Check-ins resolve the place themselves (places may come later, from another
/// file), so this lookup answers every id with a stand-in location and notes the id: the event then keeps only
/// its place id, no circle, exactly like a CSV event row without coordinates. Readers are sequential: `take()`
/// right after each record gives the id noted while that record was built.
final class PlaceReferenceProbe: @unchecked Sendable {
    // A lock, not Synchronization's Mutex, for the package's macOS 14 floor; it is never contended.
    private let lock = NSLock()
    private var noted: String?

    /// The lookup for `ImportOptions.placeLookup`: a stand-in place at 0, 0 with no radius, and the id noted.
    /// - Complexity: O(1).
    var lookup: @Sendable (String) -> Feature? {
        { [self] reference in
            lock.withLock { noted = reference }
            return try? Feature(id: reference, kind: .place, location: Coordinate(latitude: 0, longitude: 0))
        }
    }

    /// The place id noted for the record just read (nil when its location came from its own coordinates), and forgets it.
    /// - Complexity: O(1).
    func take() -> String? {
        lock.withLock {
            defer { noted = nil }
            return noted
        }
    }
}
