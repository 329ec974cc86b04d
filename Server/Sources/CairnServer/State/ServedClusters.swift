import CairnCore
import CairnIO

/// The cluster hierarchies of the served features as of one generation: the one over every feature, which follows
/// the edits (spliced, not rebuilt) a moment after the index (`ServedStore+Hierarchy`), and those for a
/// `kind`/`where` filter, built at their first request and kept until the hierarchy changes.
final class ServedClusters: Sendable {
    /// The store generation these hierarchies match (the served index's, or an earlier one while they catch up).
    let generation: Int64
    /// Counts the hierarchies served since the server started (wrapping at `ServedState.epochLimit`): cluster ids
    /// carry it in their bits above 32, so an id from an earlier hierarchy is refused rather than read as another
    /// cluster.
    let epoch: UInt64
    /// The hierarchy over every feature, in `features` order.
    let all: ClusterIndex
    /// The features `all` was built over, in its input order (the served index's feature order).
    let features: [Feature]
    /// The lines and polygons of `features`, for the tiles' `shapes` layer.
    let shapes: TileShapes
    /// The features `/clusters` wrote for `all`'s entries (filtered hierarchies keep none: they come and go).
    private let fragments: ClusterFeatureFragments
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

    /// The hierarchy `hierarchy` (sharing its storage) as of `generation`, for a server keeping `answerCacheBytes`
    /// of whole answers: it keeps a quarter as much of the features its answers write (the answers' parts, which
    /// every answer of a zoom shares).
    /// - Complexity: O(e) for the e entries' fragment slots.
    init(_ hierarchy: ServedHierarchy, generation: Int64, epoch: UInt64, answerCacheBytes: Int) {
        self.generation = generation
        self.epoch = epoch
        all = hierarchy.clusters
        features = hierarchy.features
        shapes = hierarchy.shapes
        fragments = ClusterFeatureFragments(for: all, limitBytes: answerCacheBytes / 4)
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
}
