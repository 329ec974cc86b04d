/// The identifier of a cluster in a `ClusterIndex`: its zoom and its origin, packed as `origin * 32 + zoom`.
///
/// The origin is the input position of the point the cluster grew from: the entry whose neighbourhood formed the
/// cluster, followed down through the clusters it came from to a point (supercluster packs the entry's position
/// in the level above instead, as `(position << 5) + zoom + 1 + pointCount`). A point is the origin of at most
/// one cluster per zoom, so the pair is unique, and it stays put when points after it change. Zooms are at most 25
/// (`ClusterOptions.zoomLimit` + 1, the level of groups of identical points), so they fit in 5 bits, and origins
/// are below 2^32, so raw values stay below 2^37: exact in JSON numbers and JavaScript. Ids are stable for a
/// given build over the same points in the same order.
public struct ClusterID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The packed value, `origin * 32 + zoom`.
    public let rawValue: UInt64

    /// Creates an id from its packed value; nil when the zoom part exceeds 25 or the origin 2^32 - 1.
    /// - Complexity: O(1).
    public init?(rawValue: UInt64) {
        guard rawValue & 31 <= UInt64(ClusterOptions.zoomLimit + 1), rawValue >> 5 <= UInt64(UInt32.max) else { return nil }
        self.rawValue = rawValue
    }

    /// Creates an id from its parts (internal: the caller keeps both in range).
    init(zoom: Int, origin: Int) {
        rawValue = UInt64(origin) << 5 | UInt64(zoom)
    }

    /// The zoom at which the cluster formed (a cluster of identical points formed at `maxZoom + 1`).
    /// - Complexity: O(1).
    public var zoom: Int { Int(rawValue & 31) }

    /// The input position of the point the cluster grew from.
    /// - Complexity: O(1).
    public var origin: Int { Int(rawValue >> 5) }

    public static func < (a: ClusterID, b: ClusterID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { String(rawValue) }
}

/// What `ClusterIndex.expansionZoom(of:)` answers: the zoom at which a cluster splits, or that it never does.
public enum ClusterExpansion: Hashable, Sendable, CustomStringConvertible {
    /// The cluster splits into several entries at this zoom (at most `maxZoom + 1`).
    case zoom(Int)
    /// The cluster holds points at identical coordinates only: it never splits, at any zoom. Show its leaves as a list.
    case identicalPoints

    public var description: String {
        switch self {
        case .zoom(let z): String(z)
        case .identicalPoints: "never (identical points)"
        }
    }
}

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

/// Why a cluster query was refused.
public enum ClusterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No cluster of this index has the id (it may come from another build, or an edit removed it).
    case unknownCluster(ClusterID)
    /// A point position outside the input.
    case pointOutOfRange(Int, count: Int)

    public var description: String {
        switch self {
        case .unknownCluster(let id): "no cluster with id \(id) in this index (ids hold for one build: query again after edits)"
        case .pointOutOfRange(let i, let n): "point \(i) is out of range; the index holds \(n) points"
        }
    }
}
