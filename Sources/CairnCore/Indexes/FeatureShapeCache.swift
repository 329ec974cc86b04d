import Atomics

/// A `FeatureIndex`'s `FeatureShapeIndex`, built by the first query that reads shapes and shared by every copy of
/// the index and every thread after it.
///
/// Why at first use and not stored in the snapshot: a one-off query that reads no shapes pays nothing (`around` and
/// `nearest` read it too, since they measure shaped features to their shapes), a store without shapes finds none
/// at once (the snapshot's shape table is empty), and building it reads only the records of features that have a
/// shape and their WKB (about a millisecond for Natural Earth's 177 countries).
/// Two threads may build it at once; one result is kept.
final class FeatureShapeCache: Sendable {
    private let features: FeatureList
    private let built = ManagedAtomicLazyReference<FeatureShapeIndex>()

    /// A cache over `features`, empty until read.
    /// - Complexity: O(1).
    init(_ features: FeatureList) { self.features = features }

    /// The shape index, built at the first call.
    /// - Complexity: O(n + v + p log p) at the first call (see `FeatureShapeIndex.init`), O(1) after.
    var index: FeatureShapeIndex {
        if let index = built.load() { return index }
        return built.storeIfNilThenLoad(FeatureShapeIndex(features))
    }
}
