import CairnCore

/// One state of the served features, read by any number of requests at once without a lock: the index and the
/// store stamp it matches, and the clusters (of the same generation, or of an earlier one for the moment they take
/// to follow an edit). Edits, reloads and the clusters catching up make a new state and swap it in (`ServedStore`).
///
/// A class: a request takes the state with one retain. As a struct, its copy retained each of the index's arrays and
/// tables, atomic operations on counters that every request thread shares, which held `/healthz` to half the rate
/// of a handler that takes no state.
final class ServedState: Sendable {
    /// The features, queried as the CLI queries the store's index (the same answers in the same order).
    let index: DynamicFeatureIndex
    /// The cluster hierarchies of these features.
    let clusters: ServedClusters
    /// Each feature's store rowid: ascending in the index's order (a box answer's), never changed by an edit of
    /// another feature; `/features` pages continue after the rowid of a page's last feature.
    let rowids: [String: Int64]
    /// The answers written from this state, by request.
    let answers: AnswerCache
    /// The store's generation when this state was made.
    let generation: Int64
    /// The store's content id then (drawn anew by every write transaction).
    let contentID: String
    /// The epoch of `clusters`: cluster ids carry it in their bits above 32.
    var epoch: UInt64 { clusters.epoch }

    init(index: DynamicFeatureIndex, clusters: ServedClusters, rowids: [String: Int64], generation: Int64, contentID: String,
         answerCacheBytes: Int) {
        self.answers = AnswerCache(limitBytes: answerCacheBytes)
        self.index = index
        self.clusters = clusters
        self.rowids = rowids
        self.generation = generation
        self.contentID = contentID
        // The clusters' generation too: a cluster or tile answer changes when they catch up, the index's does not.
        self.entityTag = "\"g\(generation)-c\(clusters.generation)-\(contentID.prefix(12))\""
    }

    /// A state serving `content` (sharing its storage) with `clusters`, stamped with the store's `generation` and
    /// `contentID`.
    /// - Complexity: O(1).
    convenience init(_ content: ServedContent, clusters: ServedClusters, generation: Int64, contentID: String, answerCacheBytes: Int) {
        self.init(index: content.index, clusters: clusters, rowids: content.rowids, generation: generation, contentID: contentID,
                  answerCacheBytes: answerCacheBytes)
    }

    /// The number of epochs before they wrap: ids stay below 2^53, exact in JavaScript.
    static let epochLimit: UInt64 = 1 << 21

    /// The offset added to the cluster ids this state writes.
    var clusterIDOffset: UInt64 { epoch << 32 }

    /// The `ETag` of every answer read from this state: the generation, the clusters' generation and the content
    /// id, quoted (made once, not per request).
    let entityTag: String

    /// The cluster id of this state's hierarchy that a client's `served` id names, or nil when the id was written
    /// by another state (or is not an id at all).
    /// - Complexity: O(1).
    func clusterID(served: UInt64) -> ClusterID? {
        guard served >> 32 == epoch else { return nil }
        return ClusterID(rawValue: served & 0xFFFF_FFFF)
    }
}

extension ServedState {
    /// One more than the most features served: a cluster id's origin must fit in 27 bits to leave the bits above
    /// 32 to the epoch.
    static let maxClusteredFeatures = 1 << 27
}
