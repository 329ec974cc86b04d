/// A query argument that cannot be used, with the argument's name as the user typed it (`--bbox` on the command
/// line, `bbox` in a URL) and what was expected.
public struct QueryArgumentError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The argument's name as the front end spells it.
    public let argument: String
    /// The whole message, starting with the argument's name.
    public let description: String

    /// An error for `argument` saying `message` (which names the argument itself).
    public init(argument: String, message: String) {
        self.argument = argument
        self.description = message
    }
}
