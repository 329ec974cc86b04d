import Foundation

/// Query-time filters (`--kind`, `--where`) over one feature set: each distinct filter is clustered once, from
/// projections and attribute values computed once for all filters, and kept for the next query with the same
/// filter (the least recently used one leaves first when `capacity` filters are kept).
///
/// Clusters of a subset differ from a subset of the clusters (supercluster's greedy pass depends on every point
/// present), so a new filter re-runs the levels over its subset; repeated filters cost a lookup.
/// Safe to share between threads.
public final class ClusterFilterCache: @unchecked Sendable {
    private let features: [Feature]
    private let options: ClusterOptions
    private let capacity: Int
    private let points: ClusterPoints
    private let lock = NSLock()
    private var cached: [(filter: FeatureFilter, index: FilteredClusterIndex)] = []

    /// Prepares the features (projections, aggregated values); the unfiltered clustering is built on first use.
    /// - Complexity: O(n) for n features.
    public init(features: [Feature], options: ClusterOptions = .standard, capacity: Int = 8) {
        self.features = features
        self.options = options
        self.capacity = max(1, capacity)
        points = ClusterPoints(features: features, options: options)
    }

    /// The clustering of the features that pass `filter`, built on first use.
    /// - Complexity: O(1) for a kept filter (a scan of at most `capacity` filters); otherwise O(n) to filter plus
    ///   a build over the subset.
    public func clusters(matching filter: FeatureFilter) -> FilteredClusterIndex {
        lock.lock()
        if let k = cached.firstIndex(where: { $0.filter == filter }) {
            let hit = cached.remove(at: k)
            cached.append(hit)
            lock.unlock()
            return hit.index
        }
        lock.unlock()
        let indices = filter.acceptsAll ? Array(features.indices) : features.indices.filter { filter.matches(features[$0]) }
        let built = FilteredClusterIndex(index: ClusterIndex(points: points.subset(indices), options: options), sourceIndices: indices)
        lock.lock()
        defer { lock.unlock() }
        if !cached.contains(where: { $0.filter == filter }) {
            cached.append((filter, built))
            if cached.count > capacity { cached.removeFirst() }
        }
        return built
    }

    /// How many filters are kept.
    public var keptCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return cached.count
    }
}
