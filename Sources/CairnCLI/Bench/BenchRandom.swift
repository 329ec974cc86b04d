/// The bench's seedable random number generator: SplitMix64 (Steele, Lea and Flood, "Fast splittable
/// pseudorandom number generators", OOPSLA 2014), so one seed gives the same workload on every machine.
struct BenchRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    /// - Complexity: O(1).
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    /// - Complexity: O(1).
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1) with 53 random bits.
    /// - Complexity: O(1).
    mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A double uniform in [lower, upper).
    /// - Complexity: O(1).
    mutating func uniform(_ lower: Double, _ upper: Double) -> Double {
        lower + (upper - lower) * unit()
    }

    /// An integer uniform in [0, bound), bound > 0.
    /// - Complexity: O(1).
    mutating func index(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
