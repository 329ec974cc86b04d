/// Where and why a JSON text is not valid JSON. Lines and columns are 1-based; columns count bytes.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based byte column of the problem.
    public var column: Int

    /// The message with its place.
    public var description: String { "invalid JSON at line \(line), column \(column): \(message)" }
}
