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
