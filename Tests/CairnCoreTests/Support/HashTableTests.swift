import Testing
@testable import CairnCore

/// The check-in hash tables against `Set` and `Dictionary` on seeded random keys.
struct HashTableTests {
    /// Pairs of every size class: few events (one bucket), many events (user bits spill into buckets at once),
    /// user numbers that grow past several powers of two (buckets split), repeats (duplicates), a reservation.
    @Test(arguments: [(eventCount: 1, users: 40), (eventCount: 3, users: 5_000), (eventCount: 1 << 20, users: 70_000),
                      (eventCount: (1 << 31) - 2, users: 3_000)])
    func densePairSetMatchesASet(eventCount: Int, users: Int) {
        var random = SeededRandom(seed: UInt64(eventCount &* 31 &+ users))
        var set = DensePairSet(eventCount: eventCount)
        var oracle = Set<[Int]>()
        for step in 0 ..< 30_000 {
            // User numbers grow over time, as a ledger's do; a third of the pairs repeat an earlier one.
            let userBound = max(1, users * (step + 1) / 30_000)
            let event = random.below(min(eventCount, 1 << 40)), user = random.below(userBound)
            let (e, u) = random.chance(0.3) && !oracle.isEmpty ? (event % 7 % eventCount, user % 5) : (event, user)
            // Sized ahead once, as the batch validator does after its first batch (buckets split after it).
            if step == 200 { set.reserve(pairs: 12_000) }
            #expect(set.contains(event: e, user: u) == oracle.contains([e, u]))
            #expect(set.insert(event: e, user: u) == oracle.insert([e, u]).inserted)
        }
        #expect(set.count == oracle.count)
        for _ in 0 ..< 2_000 {
            let e = random.below(eventCount), u = random.below(users + 10)
            #expect(set.contains(event: e, user: u) == oracle.contains([e, u]))
        }
        // At most 8 bytes per pair once the buckets are well above their minimum size.
        if eventCount == 1 << 20 { #expect(set.memoryBytes <= 8 * oracle.count) }
    }

    /// Numbered ids (kept in the dense array), ids with other prefixes, leading zeros, huge numbers and plain
    /// strings (kept in the hash table): every key gets its insertion index back, and absent keys -1.
    @Test(arguments: ["event-", "", "a-very-long-prefix-over-16-", "x"])
    func keyTableMatchesADictionary(prefix: String) {
        var random = SeededRandom(seed: UInt64(prefix.utf8.count))
        var table = KeyTable()
        var oracle: [String: Int] = [:]
        func makeKey() -> String {
            switch random.below(8) {
            case 0: return "other-\(random.below(500))"
            case 1: return prefix + "0\(random.below(50))"
            case 2: return prefix + "\(random.below(1 << 40))"
            case 3: return "id \(random.below(1_000)) with spaces and more than twenty-four bytes"
            case 4: return prefix
            default: return prefix + "\(random.below(20_000))"
            }
        }
        _ = table.insert(prefix + "7")
        oracle[prefix + "7"] = 0
        for _ in 0 ..< 20_000 {
            let key = makeKey()
            if random.chance(0.5) {
                let expected = oracle[key] ?? oracle.count
                let (index, inserted) = table.insert(key)
                #expect(index == expected && inserted == (oracle[key] == nil), "\(key)")
                oracle[key] = expected
            } else {
                #expect(table.index(of: key) == (oracle[key] ?? -1), "\(key)")
            }
        }
        #expect(table.count == oracle.count)
        for (key, index) in oracle {
            #expect(table.index(of: key) == index)
            #expect(table.key(at: index) == key)
        }
    }
}
