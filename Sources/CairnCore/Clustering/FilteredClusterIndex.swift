import Foundation

/// A clustering of the features that pass one filter.
public struct FilteredClusterIndex: Sendable {
    /// The clusters; its points are numbered in the filtered order (0 is the first feature that passed).
    public let index: ClusterIndex
    /// For each of the index's points, its position among the features the cache was made with.
    public let sourceIndices: [Int]
}
