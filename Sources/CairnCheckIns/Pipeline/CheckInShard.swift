import CairnCore

/// A shard of the duplicate and visit state: the users whose id hash falls in it.
final class CheckInShard: @unchecked Sendable {
    var ledger: CheckInLedger
    /// A sum of lookups made only to warm the cache (kept so they are not optimised away).
    var peeked = 0
    /// Per piece of the current batch, the rows this shard found to be duplicates (phase 2), marked in phase 3.
    var duplicates: [[Int32]] = []
    init(_ ledger: CheckInLedger) { self.ledger = ledger }
}
