import CairnCore
import CairnIO

/// The cluster hierarchies of one state of the served features: the one over every feature, kept up to date by
/// edits (spliced, not rebuilt), and those for a `kind`/`where` filter, built at their first request and kept until
/// the features change.
final class ServedClusters: Sendable {
    /// The hierarchy over every feature, in `features` order.
    let all: ClusterIndex
    /// The features `all` was built over, in its input order (the served index's feature order).
    let features: [Feature]
    /// The lines and polygons of `features`, for the tiles' `shapes` layer.
    let shapes: TileShapes
    /// The features `/clusters` wrote for `all`'s entries (filtered hierarchies keep none: they come and go).
    private let fragments: ClusterFeatureFragments
    private let fragmentLimitBytes: Int
    /// The hierarchies built for filters, by the filter's canonical text; cleared when it reaches `filteredLimit`.
    private let filtered = Locked<[String: Clusters]>([:])
    /// How many filtered hierarchies are kept at once.
    static let filteredLimit = 16

    /// A hierarchy with the features its point positions refer to.
    struct Clusters: Sendable {
        let index: ClusterIndex
        let features: [Feature]
        /// The lines and polygons of `features`.
        let shapes: TileShapes
        /// Where its answers keep the features they wrote, if anywhere.
        var fragments: ClusterFeatureFragments? = nil
    }

    /// The hierarchy already built for the filter with canonical text `key`, if any (never builds).
    /// - Complexity: O(1) on average.
    func kept(key: String) -> Clusters? {
        filtered.withLock { $0[key] }
    }

    /// Clusters every feature with `options`, for a server keeping `answerCacheBytes` of whole answers: it keeps a
    /// quarter as much of the features its answers write (the answers' parts, which every answer of a zoom shares).
    /// - Complexity: O(n log n).
    convenience init(features: [Feature], options: ClusterOptions, answerCacheBytes: Int) {
        self.init(all: ClusterIndex(features: features, options: options), features: features, fragmentLimitBytes: answerCacheBytes / 4)
    }

    private init(all: ClusterIndex, features: [Feature], fragmentLimitBytes: Int) {
        self.all = all
        self.features = features
        self.fragmentLimitBytes = fragmentLimitBytes
        fragments = ClusterFeatureFragments(for: all, limitBytes: fragmentLimitBytes)
        shapes = TileShapes(features: features)
    }

    /// The hierarchy for `filter`: `all` when it accepts everything, else one over the features that pass it.
    /// - Complexity: O(1) once built; O(n log n) at its first request.
    func clusters(matching filter: FeatureFilter, key: String) -> Clusters {
        if filter.acceptsAll { return Clusters(index: all, features: features, shapes: shapes, fragments: fragments) }
        if let kept = filtered.withLock({ $0[key] }) { return kept }
        let chosen = features.filter { filter.matches($0) }
        let built = Clusters(index: ClusterIndex(features: chosen, options: all.options), features: chosen,
                             shapes: TileShapes(features: chosen))
        filtered.withLock { kept in
            if kept.count >= Self.filteredLimit { kept.removeAll() }
            kept[key] = built
        }
        return built
    }

    /// The hierarchy after removing the features with `removedIDs` and then appending `upserted` (a replaced
    /// feature moves to the end, as in `DynamicFeatureIndex`); filtered hierarchies and the kept features start
    /// afresh.
    /// - Complexity: per edit O(n) to find the point plus `ClusterIndex.apply`'s splice.
    func applying(removedIDs: [String], upserted: [Feature]) throws -> ServedClusters {
        var index = all
        var features = features
        var edits: [ClusterEdit] = []
        for id in removedIDs + upserted.map(\.id) {
            guard let position = features.firstIndex(where: { $0.id == id }) else { continue }
            features.remove(at: position)
            edits.append(.remove(at: position))
        }
        for feature in upserted {
            features.append(feature)
            edits.append(.insertFeature(feature))
        }
        try index.apply(edits)
        return ServedClusters(all: index, features: features, fragmentLimitBytes: fragmentLimitBytes)
    }
}
