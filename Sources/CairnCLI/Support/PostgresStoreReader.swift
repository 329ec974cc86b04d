import CairnCore

/// How the commands read a PostgreSQL store: installed by cairn-postgres (`PostgresCompanion.install`), which has
/// the PostgreSQL client. Each function takes the store URL as given to `--db`.
public struct PostgresStoreReader: Sendable {
    /// Every feature, in the store's order (the order the SQLite store's rowids give the same import).
    public let features: @Sendable (_ url: String) throws -> [Feature]
    /// One feature by id, nil when there is none.
    public let feature: @Sendable (_ url: String, _ id: String) throws -> Feature?
    /// A query answered by PostGIS (`--engine postgis`), over features of `kinds` (all when empty), in the query's
    /// order, each with its distance (nil for a box).
    public let query: @Sendable (_ url: String, _ query: PushedDownQuery, _ kinds: Set<FeatureKind>) throws -> [(feature: Feature, distanceMeters: Double?)]

    /// A reader from its three functions.
    /// - Complexity: O(1).
    public init(features: @escaping @Sendable (String) throws -> [Feature], feature: @escaping @Sendable (String, String) throws -> Feature?,
                query: @escaping @Sendable (String, PushedDownQuery, Set<FeatureKind>) throws -> [(feature: Feature, distanceMeters: Double?)]) {
        self.features = features
        self.feature = feature
        self.query = query
    }
}
