import CairnCore

/// How the commands read a PostgreSQL store: installed by cairn-postgres (`PostgresCompanion.install`), which has
/// the PostgreSQL client. Each function takes the store URL as given to `--db`.
public struct PostgresStoreReader: Sendable {
    /// Every feature, in the store's order (the order the SQLite store's rowids give the same import).
    public let features: @Sendable (_ url: String) throws -> [Feature]
    /// One feature by id, nil when there is none.
    public let feature: @Sendable (_ url: String, _ id: String) throws -> Feature?

    /// A reader from its two functions.
    /// - Complexity: O(1).
    public init(features: @escaping @Sendable (String) throws -> [Feature], feature: @escaping @Sendable (String, String) throws -> Feature?) {
        self.features = features
        self.feature = feature
    }
}
