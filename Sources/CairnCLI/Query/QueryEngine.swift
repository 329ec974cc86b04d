import ArgumentParser

/// Which engine answers a query: Cairn's in-memory index (built from the store's features) or, for a PostgreSQL
/// store, PostGIS itself (the query as SQL), so that a user can switch per query and compare.
enum QueryEngine: String, ExpressibleByArgument, CaseIterable {
    case memory, postgis
}
