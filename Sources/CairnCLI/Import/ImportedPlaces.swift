import CairnCore
import CairnStore
import Foundation

/// The place lookup of one import run: rows (events) whose `placeId` names a place, stored before the run or
/// written earlier in it, take that place's location and radius.
///
/// Memory is bounded, whatever the number of rows. What the run writes is read back through its own write
/// transaction (`FeatureStoreWriter.feature(id:)`, which sees the rows upserted so far), not kept here: only the
/// places recorded in the last two windows of `recentCapacity` rows are, since the importer upserts a batch at a
/// time and its last rows may not be in the store yet. Answers read from the store go through a bounded
/// `PlaceLookupCache`, which forgets an id as soon as the run writes it again. An id the store does not hold is
/// asked of `outside` (the caller's own lookup).
///
/// `place(id:)` reads through the writer, so it must run on the thread of the write transaction (the readers ask it
/// from `next()` on the reading thread, and `Importer` relays it through `RecordPipeline.onWriterThread`); GRDB
/// stops the program otherwise. Safe to share between threads otherwise.
final class ImportedPlaces: @unchecked Sendable {
    private struct Place {
        var location: Coordinate
        var radiusMeters: Double?
    }

    /// The write transaction of the run, while it is open.
    private final class WriterSlot: @unchecked Sendable {
        var writer: FeatureStoreWriter?
    }

    private let lock = NSLock()
    private let recentCapacity: Int
    /// The places recorded since the last rotation, and in the window before it.
    private var recent: [String: Place] = [:]
    private var older: [String: Place] = [:]
    private var recentRows = 0
    private let slot = WriterSlot()
    private let stored: PlaceLookupCache

    /// A lookup for a run whose importer holds at most `recentCapacity` rows before upserting them.
    /// - Complexity: O(1).
    init(recentCapacity: Int, outside: @escaping @Sendable (String) -> Feature?) {
        self.recentCapacity = max(1, recentCapacity)
        let slot = slot
        stored = PlaceLookupCache { id in
            // A read error counts as "not stored": the row is then refused with the place's id, as a missing one.
            (try? slot.writer?.feature(id: id)) ?? outside(id)
        }
    }

    /// Reads stored places through `writer` until `detach()`.
    func attach(_ writer: FeatureStoreWriter) {
        lock.withLock { slot.writer = writer }
    }

    /// Stops reading through the writer (its transaction is over).
    func detach() {
        lock.withLock { slot.writer = nil }
    }

    /// Remembers where `feature` is until the importer has surely upserted it; a later feature with the same id
    /// replaces it (the last row wins, as in the store).
    /// - Complexity: O(1) expected (amortised: the windows keep their storage).
    func record(_ feature: Feature) {
        lock.lock()
        recent[feature.id] = Place(location: feature.location, radiusMeters: feature.radiusMeters)
        recentRows += 1
        if recentRows >= recentCapacity {
            // The rows before `older` are upserted by now: the store answers for them.
            swap(&recent, &older)
            recent.removeAll(keepingCapacity: true)
            recentRows = 0
        }
        lock.unlock()
        stored.forget(id: feature.id)
    }

    /// How many places the recent windows hold (at most twice `recentCapacity`).
    var rememberedCount: Int { lock.withLock { recent.count + older.count } }

    /// The place with `id` as the run sees it (location and radius, all that a place lookup reads), or nil.
    /// - Complexity: O(1) expected for a recent or remembered id; otherwise one indexed read of the store.
    func place(id: String) -> Feature? {
        lock.lock()
        let place = recent[id] ?? older[id]
        lock.unlock()
        guard let place else { return stored.place(id: id) }
        return try? Feature(id: id, kind: .place, location: place.location, radiusMeters: place.radiusMeters)
    }
}
