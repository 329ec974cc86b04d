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

    /// `FILE:LINE: reason`, the form compilers use, so editors can jump to the line. Control characters quoted
    /// from the input (an escape sequence, a NUL, a line feed) are written as `\u{1B}`: one rejection, one line,
    /// and nothing a terminal would act on.
    public var description: String { TextEscaping.escapingControlCharacters("\(file):\(line): \(reason)") }
}
