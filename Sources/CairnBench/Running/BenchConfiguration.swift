import CairnCore

/// What one `cairn bench` run measures.
public struct BenchConfiguration: Sendable {
    /// The datasets, in report order.
    public var datasets: [BenchDatasetSource] = [.uniform(count: 1_000_000)]
    /// Timed queries per operation and engine.
    public var queriesPerOperation = 1_000
    /// Untimed queries run first on each operation and engine (at most `queriesPerOperation`).
    public var warmupQueries = 100
    /// Seed of the uniform points, the queries and the circles.
    public var seed: UInt64 = 42
    /// The engines, the first one being the reference the others are checked against.
    public var engines: [BenchEngineName] = BenchEngineName.allCases
    /// The operations, besides the build that every run measures.
    public var operations: [BenchOperationKind] = BenchOperationKind.all
    /// The distance model of radius, nearest and containment queries.
    public var model: DistanceModel = .wgs84
    /// More engines, run after the named ones (tests use it to check that a wrong engine is caught).
    public var extraEngines: [@Sendable () -> any BenchEngine] = []

    /// The defaults: 1,000,000 uniform points, 1,000 timed queries per operation after 100 untimed, seed 42,
    /// every engine and operation, WGS84.
    /// - Complexity: O(1).
    public init() {}
}
