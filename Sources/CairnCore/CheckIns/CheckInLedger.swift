/// What a batch of check-ins has seen so far: the (user, event) pairs that already have a valid check-in
/// (for `duplicate`), and optionally visit counts per place and per (place, user) for statistics.
///
/// Memory grows with the number of distinct users and (user, event) pairs of valid check-ins (5 to 8 bytes
/// per pair in a `DensePairSet`, plus each user id once), and with distinct (place, user) pairs when
/// visits are counted; never with the number of check-ins as such.
///
/// Sharding: a ledger may see only the check-ins of some users (for example those whose id hash falls in
/// one shard) provided it sees them in input order; shards then merge into `CheckInStats`.
public struct CheckInLedger: Sendable {
    /// User ids seen in valid check-ins, numbered.
    var users = KeyTable()
    /// (event, user) of every valid event check-in.
    var pairs: DensePairSet
    /// Whether visits are counted.
    public let countsVisits: Bool
    /// Valid check-ins per place.
    var placeVisits: ContiguousArray<UInt32>
    /// Valid check-ins per (place << 32 | user).
    var visitsByUser = CountMap()

    /// An empty ledger that counts nothing (a stand-in while a shard's ledger is borrowed).
    package static var placeholder: CheckInLedger { CheckInLedger(placeCount: 0, countsVisits: false) }

    private init(placeCount: Int, countsVisits: Bool) {
        self.countsVisits = countsVisits
        placeVisits = ContiguousArray(repeating: 0, count: placeCount)
        pairs = DensePairSet(eventCount: 0)
    }

    /// Creates an empty ledger for `validator`'s places.
    /// - Complexity: O(p) for p places when counting visits, O(1) otherwise.
    public init(validator: CheckInValidator, countsVisits: Bool) {
        self.countsVisits = countsVisits
        placeVisits = ContiguousArray(repeating: 0, count: countsVisits ? validator.placeCount : 0)
        pairs = DensePairSet(eventCount: validator.eventCount)
    }

    /// Settles a judged check-in in input order: a valid event check-in whose user already has one for that
    /// event becomes `duplicate`; a still-valid one is counted as a visit to its place when visits are counted.
    /// - Complexity: O(n) in the user id's length, amortised expected.
    public mutating func settle(_ result: inout CheckInResult, userId: String) {
        var userId = userId
        userId.withUTF8 { user in
            let raw = UnsafeRawBufferPointer(user)
            settle(&result, user: raw, userHash: byteHash(raw))
        }
    }

    /// `settle(_:userId:)` on the user id's bytes and their `byteHash`.
    @inline(__always)
    package mutating func settle(_ result: inout CheckInResult, user: UnsafeRawBufferPointer, userHash: UInt64) {
        guard result.reason == nil else { return }
        let needsUser = result.event >= 0 || (countsVisits && result.place >= 0)
        guard needsUser else { return }
        let userIndex = UInt64(users.insert(user, hash: userHash).index)
        if result.event >= 0, !pairs.insert(event: Int(result.event), user: Int(userIndex)) {
            result.reason = .duplicate
            return
        }
        if countsVisits, result.place >= 0 {
            placeVisits[Int(result.place)] &+= 1
            visitsByUser.increment(UInt64(UInt32(result.place)) << 32 | userIndex)
        }
    }

    /// Settles a block of valid check-ins (a few dozen) in input order, as `settle(_:user:userHash:)` does one
    /// by one (the rows that become `duplicate` are appended to `duplicates` instead of being changed), but
    /// looking ahead: all users are numbered first, then every (user, event) pair's slot is read, so that the
    /// cache misses of different rows overlap instead of queueing. `rows` index `results`, `users` and `hashes`.
    /// - Complexity: O(n) in the user ids' lengths, amortised expected.
    package mutating func settle(rows: UnsafeBufferPointer<Int32>, results: UnsafePointer<CheckInResult>,
                                 users: (Int) -> UnsafeRawBufferPointer, hashes: UnsafePointer<UInt64>,
                                 duplicates: inout [Int32]) -> Int {
        var warm = 0
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: max(1, rows.count)) { keys in
            // Users are numbered in three passes so that the cache misses of different rows overlap: the users'
            // bytes (in the batch, read by another thread in phase 1) are touched, then their dense slots are
            // worked out and read, then the users are numbered. The bytes are fetched before the table is
            // touched: a call to `users` between reading `self.users` and using it would make Swift copy the
            // table (retains) for every row.
            withUnsafeTemporaryAllocation(of: (key: UnsafeRawBufferPointer, slot: Int).self, capacity: max(1, rows.count)) { block in
                for (k, row) in rows.enumerated() {
                    let user = users(Int(row))
                    block[k] = (user, -1)
                    if let first = user.first { warm &+= Int(first) }
                }
                for k in rows.indices {
                    let slot = self.users.denseSlot(block[k].key)
                    block[k].slot = slot
                    warm &+= Int(self.users.touch(denseSlot: slot))
                }
                for (k, row) in rows.enumerated() {
                    let r = Int(row)
                    let userIndex = UInt64(self.users.insert(block[k].key, hash: hashes[r], denseSlot: block[k].slot).index)
                    let result = results[r]
                    keys[k] = result.event >= 0 ? UInt64(UInt32(result.event)) << 32 | userIndex : userIndex
                }
            }
            for (k, row) in rows.enumerated() where results[Int(row)].event >= 0 {
                warm &+= Int(pairs.touch(event: Int(keys[k] >> 32), user: Int(keys[k] & 0xFFFF_FFFF)))
            }
            for (k, row) in rows.enumerated() {
                let r = Int(row)
                guard results[r].reason == nil else { continue }
                if results[r].event >= 0, !pairs.insert(event: Int(keys[k] >> 32), user: Int(keys[k] & 0xFFFF_FFFF)) {
                    duplicates.append(Int32(r))
                    continue
                }
                if countsVisits, results[r].place >= 0 {
                    placeVisits[Int(results[r].place)] &+= 1
                    visitsByUser.increment(UInt64(UInt32(results[r].place)) << 32 | (keys[k] & 0xFFFF_FFFF))
                }
            }
        }
        return warm
    }

    /// Makes room for about `pairs` (user, event) pairs, so that the duplicate state does not grow step by
    /// step (a hint).
    /// - Complexity: O(capacity) when it grows.
    package mutating func reserve(pairs: Int) { self.pairs.reserve(pairs: pairs) }

    /// The number of (user, event) pairs remembered.
    /// - Complexity: O(1).
    public var pairCount: Int { pairs.count }

    /// Bytes held by the duplicate state (capacity), for reports.
    /// - Complexity: O(1).
    public var memoryBytes: Int { users.memoryBytes + pairs.memoryBytes }
}

/// Visits per place: how many valid check-ins, by how many users, and the top visitor.
public struct CheckInPlaceStats: Hashable, Sendable {
    /// The place's index in the validator.
    public let placeIndex: Int
    /// Valid check-ins at the place (event check-ins and repeatable visits alike).
    public let visits: Int
    /// Distinct users among them.
    public let visitors: Int
    /// The user with the most visits (ties: the smallest id in byte order).
    public let topVisitor: String
    /// The top visitor's visits.
    public let topVisitorVisits: Int
}

extension CheckInLedger {
    /// Per-place statistics merged from ledgers that saw disjoint sets of users (or one ledger), for places
    /// with at least one visit, in place index order.
    /// - Complexity: O(p + u) for p places and u distinct (place, user) pairs.
    public static func placeStats(_ ledgers: [CheckInLedger]) -> [CheckInPlaceStats] {
        guard let first = ledgers.first, first.countsVisits else { return [] }
        let placeCount = first.placeVisits.count
        var visits = [Int](repeating: 0, count: placeCount)
        var visitors = [Int](repeating: 0, count: placeCount)
        var top = [(ledger: Int, user: Int, count: Int)](repeating: (-1, -1, 0), count: placeCount)
        for (l, ledger) in ledgers.enumerated() {
            for p in 0..<placeCount { visits[p] += Int(ledger.placeVisits[p]) }
            ledger.visitsByUser.forEach { key, count in
                let place = Int(key >> 32), user = Int(key & 0xFFFF_FFFF)
                visitors[place] += 1
                let current = top[place]
                let better: Bool
                if current.ledger < 0 || Int(count) > current.count {
                    better = true
                } else if Int(count) == current.count {
                    better = ledger.users.withKey(at: user) { candidate in
                        ledgers[current.ledger].users.withKey(at: current.user) { best in
                            candidate.lexicographicallyPrecedes(best)
                        }
                    }
                } else {
                    better = false
                }
                if better { top[place] = (l, user, Int(count)) }
            }
        }
        var result: [CheckInPlaceStats] = []
        for p in 0..<placeCount where visits[p] > 0 {
            let best = top[p]
            result.append(CheckInPlaceStats(placeIndex: p, visits: visits[p], visitors: visitors[p],
                                            topVisitor: ledgers[best.ledger].users.key(at: best.user),
                                            topVisitorVisits: best.count))
        }
        return result
    }
}
