/// The one radix sort: a stable least-significant-digit sort of integer keys, each carrying a value (Knuth, TAOCP
/// vol. 3, 5.2.5, "Sorting by Distribution"). Used for the cluster tree's Morton order, the neighbour grid's
/// cells and the check-in validator's events per place.
package enum RadixSort {
    /// Sorts `keys` ascending by their low `bits` bits, moving `values` with them; stable (equal keys keep their
    /// order). Each pass sorts on `digitBits` bits (a counting sort: one pass with `digitBits >= bits`); a pass
    /// whose digit is the same for every key is skipped.
    /// - Precondition: `keys.count == values.count`, `1 <= digitBits <= 24`; the bits above `bits` are zero.
    /// - Complexity: O((n + 2^digitBits) × ⌈bits / digitBits⌉) time for n keys; O(n) extra memory.
    package static func sort<Key: FixedWidthInteger & UnsignedInteger, Value>(
        keys: inout [Key], values: inout [Value], bits: Int, digitBits: Int
    ) {
        let n = keys.count
        precondition(values.count == n && digitBits >= 1 && digitBits <= 24, "RadixSort: mismatched arrays or digit")
        guard n > 1, bits > 0 else { return }
        var otherKeys = keys, otherValues = values
        var counts = [Int](repeating: 0, count: (1 << digitBits) + 1)
        let mask = (1 << digitBits) - 1
        var shift = 0
        while shift < bits {
            let moved = counts.withUnsafeMutableBufferPointer { counts -> Bool in
                for i in counts.indices { counts[i] = 0 }
                return keys.withUnsafeBufferPointer { from in
                    for key in from { counts[Int(truncatingIfNeeded: key >> Key(shift)) & mask &+ 1] &+= 1 }
                    // One bucket holds every key: this digit leaves the order as it is.
                    if counts[Int(truncatingIfNeeded: from[0] >> Key(shift)) & mask &+ 1] == n { return false }
                    for i in 1 ..< counts.count { counts[i] &+= counts[i &- 1] }
                    values.withUnsafeBufferPointer { fromValues in
                        otherKeys.withUnsafeMutableBufferPointer { to in
                            otherValues.withUnsafeMutableBufferPointer { toValues in
                                for i in 0 ..< n {
                                    let b = Int(truncatingIfNeeded: from[i] >> Key(shift)) & mask
                                    let slot = counts[b]
                                    to[slot] = from[i]
                                    toValues[slot] = fromValues[i]
                                    counts[b] = slot &+ 1
                                }
                            }
                        }
                    }
                    return true
                }
            }
            if moved {
                swap(&keys, &otherKeys)
                swap(&values, &otherValues)
            }
            shift += digitBits
        }
    }
}
