/// Why a filter could not be parsed.
public enum FilterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text has no attribute name, e.g. `=true`.
    case missingName(String)

    public var description: String {
        switch self {
        case .missingName(let text): "filter '\(text)' has no attribute name; expected NAME=VALUE, NAME, !NAME, NAME<VALUE or NAME~MEMBER"
        }
    }
}
