/// A named list of queries timed together: one row of the `cairn bench --db` report.
public struct StoreOperation: Sendable {
    /// The row's name: `nearest-20`, `box-100` for drawn queries; `nearest`, `box` for a file's.
    public let name: String
    /// The queries, in the order the threads share them out.
    public let queries: [StoreQuery]

    /// An operation named `name` of `queries`.
    /// - Complexity: O(1).
    public init(name: String, queries: [StoreQuery]) {
        self.name = name
        self.queries = queries
    }
}
