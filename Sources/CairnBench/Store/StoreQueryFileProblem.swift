/// A line of a queries file that could not be read: where, which field, what was expected.
public struct StoreQueryFileProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file as given.
    public let path: String
    /// The 1-based line number.
    public let line: Int
    /// The field at fault, `field 3 (lon)`, or nil when the line as a whole is wrong (its field count).
    public let field: String?
    /// What was expected and what was found.
    public let message: String

    /// `queries.csv:7: field 3 (lon): expected a longitude in degrees, -180...180, got '200'`.
    public var description: String {
        "\(path):\(line): " + (field.map { "\($0): " } ?? "") + message
    }
}
