import CairnCore

/// The seedable generator random tests use (CairnCore's SplitMix64), so that every run repeats exactly.
public typealias SplitMix64 = SeededRandom
