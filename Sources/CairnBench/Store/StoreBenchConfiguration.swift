import CairnCore

/// How `cairn bench --db` runs its operations.
public struct StoreBenchConfiguration: Sendable {
    /// Threads querying at once, each with its own working memory, sharing the one index.
    public var threads = 1
    /// When set, each operation runs this long, every thread cycling through its share of the queries; when nil,
    /// every query runs once.
    public var durationSeconds: Double?
    /// Untimed queries each thread runs first on each operation (at most its share).
    public var warmupQueries = 100
    /// The distance model of radius, nearest and containment queries.
    public var model: DistanceModel = .wgs84

    /// One thread, every query once after 100 untimed, WGS84.
    /// - Complexity: O(1).
    public init() {}
}
