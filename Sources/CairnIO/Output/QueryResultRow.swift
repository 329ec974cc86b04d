import CairnCore

/// One result of a query as the result writers take it: the feature and, for queries that measure, its distance.
public struct QueryResultRow: Sendable {
    /// The feature found.
    public var feature: Feature
    /// The distance from the query's point in metres (`around`, `nearest`, `containing`), nil for a box query.
    public var distanceMeters: Double?

    /// A result row.
    /// - Complexity: O(1).
    public init(feature: Feature, distanceMeters: Double? = nil) {
        self.feature = feature
        self.distanceMeters = distanceMeters
    }
}
