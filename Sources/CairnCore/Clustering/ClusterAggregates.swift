/// What a cluster (or a single point) holds, beyond its position: counts, numeric summaries, counts per category.
public struct ClusterAggregates: Hashable, Sendable {
    /// Sum, extremes and mean of one numeric attribute over the points that have it.
    public struct Summary: Hashable, Sendable {
        /// How many points carry the attribute.
        public let count: Int
        /// Their sum (0 when none).
        public let sum: Double
        /// Their minimum, or nil when none.
        public let min: Double?
        /// Their maximum, or nil when none.
        public let max: Double?
        /// Their mean, or nil when none.
        public var mean: Double? { count > 0 ? sum / Double(count) : nil }
    }

    /// Points held.
    public let pointCount: Int
    /// Per numeric attribute named in the options.
    public let numeric: [String: Summary]
    /// Points per value of the options' category attribute (points without it are not counted).
    public let categories: [String: Int]
}
