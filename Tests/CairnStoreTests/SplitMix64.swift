import CairnCore

/// The seedable generator random tests use (CairnCore's SplitMix64), so they repeat exactly.
typealias SplitMix64 = SeededRandom
