/// A small, fast, seedable random number generator (SplitMix64, Steele, Lea & Flood, OOPSLA 2014).
///
/// The same seed gives the same sequence on every platform and Swift version: the helpers below do their own
/// range reduction instead of relying on the standard library's, whose algorithm may change.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    /// - Complexity: O(1).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1), with 53 random bits.
    /// - Complexity: O(1).
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A double uniform in `range` (lower bound inclusive).
    /// - Complexity: O(1).
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }

    /// An integer uniform in [0, bound), by multiply-shift (bias below 2^-32 for bounds under 2^32).
    /// - Complexity: O(1).
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        return Int((UInt128(next()) * UInt128(bound)) >> 64)
    }

    /// True with probability `p`.
    /// - Complexity: O(1).
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
}
