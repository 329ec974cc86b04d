import CairnCore
import CairnIO

/// The GeoJSON features of one hierarchy's entries as `/clusters` wrote them, kept for the answers that follow
/// (`ClusterFeatureCache`), up to a budget of bytes, then no more (nothing is evicted: the cache lives as long as
/// its state, until the next edit or reload).
///
/// The answer cache keeps whole answers, but a map's viewports are rarely asked twice while their entries are:
/// ten thousand zoom-5 viewports of the GeoNames places are 1.2 GB of answers made of the same few thousand
/// clusters, and encoding them (their numbers above all) was most of each answer's work. With the entries kept, an
/// answer is mostly copies.
///
/// Thread-safe: the entries are split over stripes by hash, each behind its own lock, so that the request threads
/// rarely wait for each other.
final class ClusterFeatureFragments: ClusterFeatureCache {
    private static let stripeCount = 16
    private let stripes: [Locked<(features: [UInt64: [UInt8]], bytes: Int)>]
    /// The budget it was made with.
    let limitBytes: Int
    private let stripeLimitBytes: Int

    /// A cache keeping at most about `limitBytes` of features.
    init(limitBytes: Int) {
        self.limitBytes = limitBytes
        stripes = (0..<Self.stripeCount).map { _ in Locked(([:], 0)) }
        stripeLimitBytes = max(0, limitBytes) / Self.stripeCount
    }

    func feature(for content: ClusterNode.Content) -> [UInt8]? {
        let key = Self.key(content)
        return stripe(key).withLock { $0.features[key] }
    }

    func keep(_ bytes: ArraySlice<UInt8>, for content: ClusterNode.Content) {
        let key = Self.key(content), size = bytes.count + 32  // the bytes and about what a dictionary entry costs
        stripe(key).withLock { kept in
            guard kept.bytes + size <= stripeLimitBytes, kept.features[key] == nil else { return }
            kept.features[key] = Array(bytes)
            kept.bytes += size
        }
    }

    /// One integer per entry, cheaper to hash than the enum and its payload: a point's position times two, a
    /// cluster's id times two plus one.
    private static func key(_ content: ClusterNode.Content) -> UInt64 {
        switch content {
        case .point(let i): UInt64(truncatingIfNeeded: i) << 1
        case .cluster(let id): id.rawValue << 1 | 1
        }
    }

    private func stripe(_ key: UInt64) -> Locked<(features: [UInt64: [UInt8]], bytes: Int)> {
        // Points run in input order and cluster ids step by 32 (origin · 32 + zoom): mix before taking the stripe.
        stripes[Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 60)]
    }
}
