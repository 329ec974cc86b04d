import Foundation

/// The threads' tallies of one operation, filled in as each thread ends (under a lock: threads end at any time).
final class StoreThreadTallies: @unchecked Sendable {
    private let lock = NSLock()
    private var tallies: [StoreThreadTally] = []

    /// Adds a thread's tally.
    func append(_ tally: StoreThreadTally) {
        lock.lock()
        tallies.append(tally)
        lock.unlock()
    }

    /// Every tally added so far.
    var all: [StoreThreadTally] {
        lock.lock()
        defer { lock.unlock() }
        return tallies
    }
}
