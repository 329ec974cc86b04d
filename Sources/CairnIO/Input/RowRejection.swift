import CairnCore

/// A record that cannot become a feature: where it is and what is wrong.
public struct RowRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input file as named by the user.
    public let file: String
    /// The 1-based line where the record starts.
    public let line: Int
    /// The field at fault (canonical or input name), when one field is.
    public let field: String?
    /// What is wrong and what was expected, e.g. `latitude 95 is out of range [-90, 90]`.
    public let reason: String

    /// Creates a rejection.
    public init(file: String, line: Int, field: String?, reason: String) {
        self.file = file
        self.line = line
        self.field = field
        self.reason = reason
    }

    /// `FILE:LINE: reason`, the form compilers use, so editors can jump to the line.
    public var description: String { "\(file):\(line): \(reason)" }
}
