import CairnTestSupport
import Testing
@testable import CairnCore

/// `RadixSort` against the standard library's stable sort on seeded keys: every digit width the callers use,
/// few and many distinct keys, passes that every key shares (skipped), and the empty and one-key cases.
@Suite struct RadixSortTests {
    @Test(arguments: [(32, 8), (40, 11), (18, 18), (18, 20), (7, 11), (1, 1)])
    func matchesAStableSort(bits: Int, digitBits: Int) {
        var rng = SplitMix64(seed: UInt64(bits * 100 + digitBits))
        for n in [0, 1, 2, 17, 1000, 5000] {
            for distinct in [1, 3, 1 << min(bits, 20)] {
                let pool = (0..<distinct).map { _ in rng.next() & ((1 << UInt64(bits)) - 1) }
                var keys = (0..<n).map { _ in pool[rng.below(distinct)] }
                var values = Array(0..<n)
                let expected = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
                RadixSort.sort(keys: &keys, values: &values, bits: bits, digitBits: digitBits)
                #expect(values == expected, "n \(n), distinct \(distinct)")
                #expect(keys == keys.sorted())
            }
        }
        var narrow: [UInt32] = [3, 1, 2, 1], slots: [Int32] = [0, 1, 2, 3]
        RadixSort.sort(keys: &narrow, values: &slots, bits: 2, digitBits: 8)
        #expect(narrow == [1, 1, 2, 3] && slots == [1, 3, 2, 0])
    }
}
