import CairnCore
import Foundation

/// Remembers the answers of an import's place lookup (events with a `placeId` and no coordinates take the place's
/// location). Events name the same places over and over, and without it every such row cost one SQL query: a read
/// transaction and a full feature decode.
///
/// An answer changes only when the run writes that id again, and then `ImportedPlaces` calls `forget(id:)`, so
/// remembering answers (misses included) changes no result. Memory is bounded: when `capacity` ids are remembered
/// the cache starts afresh (an import whose events each name a different place gains nothing from it, and should
/// not hold every place in memory). Safe to share between threads.
final class PlaceLookupCache: @unchecked Sendable {
    private let lookup: @Sendable (String) -> Feature?
    private let capacity: Int
    private let lock = NSLock()
    private var answers: [String: Feature?] = [:]

    /// Wraps `lookup`, which is asked once per id while fewer than `capacity` ids are remembered.
    /// - Complexity: O(1).
    init(capacity: Int = 65_536, _ lookup: @escaping @Sendable (String) -> Feature?) {
        self.capacity = max(1, capacity)
        self.lookup = lookup
    }

    /// The feature with `id`, or nil when the store has none.
    /// - Complexity: O(1) expected for an id seen before; otherwise one call of the wrapped lookup.
    func place(id: String) -> Feature? {
        lock.lock()
        let known = answers[id]
        lock.unlock()
        if let known { return known }
        let answer = lookup(id)
        lock.lock()
        if answers.count >= capacity { answers.removeAll(keepingCapacity: true) }
        answers[id] = answer
        lock.unlock()
        return answer
    }

    /// Drops what is remembered for `id` (the run has just written it).
    /// - Complexity: O(1) expected.
    func forget(id: String) {
        lock.lock()
        if !answers.isEmpty { answers[id] = nil }
        lock.unlock()
    }
}
