/// One entry of a clustering answer: a cluster or a single point.
public struct ClusterNode: Hashable, Sendable {
    /// A point (its index in the input order) or a cluster (its id).
    public enum Content: Hashable, Sendable {
        /// A single input point, by its position in the input.
        case point(Int)
        /// A cluster of at least two points.
        case cluster(ClusterID)

        /// The cluster's id, or nil for a single point.
        public var clusterID: ClusterID? {
            if case .cluster(let id) = self { id } else { nil }
        }

        /// The input position of a single point, or nil for a cluster.
        public var pointIndex: Int? {
            if case .point(let i) = self { i } else { nil }
        }
    }

    /// What the entry is.
    public let content: Content
    /// Where to draw it: the point's own coordinate, or the cluster's weighted centroid in Web Mercator.
    public let coordinate: Coordinate
    /// How many input points it holds (1 for a point).
    public let pointCount: Int

    /// Creates an entry (for callers presenting their own points alongside clusters, e.g. a cluster's leaves).
    /// - Complexity: O(1).
    public init(content: Content, coordinate: Coordinate, pointCount: Int) {
        self.content = content
        self.coordinate = coordinate
        self.pointCount = pointCount
    }

    /// The cluster's id, or nil for a single point.
    public var clusterID: ClusterID? { content.clusterID }

    /// The input position of a single point, or nil for a cluster.
    public var pointIndex: Int? { content.pointIndex }
}
