import CairnCore

/// A failure that stops reading a whole file (unreadable, not the expected format, missing required columns).
public struct InputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input file as named by the user.
    public let file: String
    /// The 1-based line, when the failure is at a place in the file.
    public let line: Int?
    /// What went wrong and what to do about it.
    public let message: String

    /// Creates an input error.
    public init(file: String, line: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `FILE:LINE: message` or `FILE: message`, with control characters quoted from the input written as
    /// `\u{1B}` (see `RowRejection.description`).
    public var description: String {
        TextEscaping.escapingControlCharacters(line.map { "\(file):\($0): \(message)" } ?? "\(file): \(message)")
    }
}
