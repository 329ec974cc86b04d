/// A query on which an engine disagreed with the reference engine.
public struct BenchMismatch: Sendable, CustomStringConvertible {
    /// The dataset's name.
    public let dataset: String
    /// The operation's name.
    public let operation: String
    /// The first query (0-based) on which the answers differ.
    public let queryIndex: Int
    /// The engine that disagreed.
    public let engine: String
    /// The reference engine it disagreed with.
    public let reference: String
    /// What differed.
    public let detail: String

    /// `uniform box-100 query #3: geos-strtree disagrees with cairn: …`.
    /// - Complexity: O(detail length).
    public var description: String {
        "\(dataset) \(operation) query #\(queryIndex): \(engine) disagrees with \(reference): \(detail)"
    }
}
