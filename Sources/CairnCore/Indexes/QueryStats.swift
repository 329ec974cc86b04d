/// Counters a query fills as it runs, for `--explain`: how much of the index it touched and how many exact
/// distance computations it needed.
public struct QueryStats: Hashable, Sendable, CustomStringConvertible {
    /// Tree nodes opened (internal nodes and leaf buckets).
    public var nodesVisited = 0
    /// Items compared one by one with the query (box test or distance bound).
    public var candidates = 0
    /// Items emitted without a test because their whole node lay inside the query.
    public var acceptedWithoutTest = 0
    /// Full distance computations under the model (`geod_inverse` for WGS84), for items the cheap bounds
    /// could not decide or whose distance is reported.
    public var exactChecks = 0
    /// Items the index matched, before a feature filter (`--kind`, `--where`) and any limit.
    public var results = 0

    /// Zero counters.
    /// - Complexity: O(1).
    public init() {}

    /// Adds another query's counters to these.
    /// - Complexity: O(1).
    public mutating func add(_ other: QueryStats) {
        nodesVisited += other.nodesVisited
        candidates += other.candidates
        acceptedWithoutTest += other.acceptedWithoutTest
        exactChecks += other.exactChecks
        results += other.results
    }

    public var description: String {
        "nodes visited \(nodesVisited), candidates \(candidates), accepted without test \(acceptedWithoutTest), "
            + "exact checks \(exactChecks), matches before filters \(results)"
    }
}
