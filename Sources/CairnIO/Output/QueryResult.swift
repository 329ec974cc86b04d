import CairnCore

/// One query result as the result writers read it: the feature and, for queries that measure, its distance.
///
/// `QueryResultRow` is one, and so is `DynamicFeatureIndex`'s `DynamicHit`: a server hands its hits to the writer as
/// they are, and the writer reads each feature where the hit holds it, without a row and a copy of the feature per
/// result. Internal: the writer's public entry points take concrete types, so that its loop is specialised.
protocol QueryResult {
    /// The feature found.
    /// - Complexity: O(1).
    var feature: Feature { get }
    /// The distance from the query's point in metres (`around`, `nearest`, `containing`), nil for a box query.
    /// - Complexity: O(1).
    var distanceMeters: Double? { get }
}

extension QueryResultRow: QueryResult {}

extension DynamicHit: QueryResult {}
