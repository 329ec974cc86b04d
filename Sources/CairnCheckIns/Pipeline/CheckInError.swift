/// Why a check-in run could not go on: an input that cannot be opened or read, a header without the columns
/// it needs, an output that cannot be written. Its description is the whole message, naming the file.
///
/// Rows that are wrong are not errors: they get a verdict (`malformed_row` and the others), and bad reference
/// rows are skipped and counted.
public struct CheckInError: Error, CustomStringConvertible, Sendable {
    /// The message, starting with the file it is about.
    public let description: String

    /// An error with this message.
    /// - Complexity: O(1).
    public init(_ message: String) { description = message }

    /// `body`'s result; an error it throws that is not a `CheckInError` becomes one with the same message.
    /// - Complexity: that of `body`.
    static func wrapping<T>(_ body: () throws -> T) throws(CheckInError) -> T {
        do {
            return try body()
        } catch let error as CheckInError {
            throw error
        } catch {
            throw CheckInError("\(error)")
        }
    }

    /// A header without columns an input needs: `FILE: the header lacks A, B; expected columns like … (got …)`.
    /// - Complexity: O(h) in the header's length.
    static func missingColumns(file: String, missing: [String], expected: String, header: [String]) -> CheckInError {
        CheckInError("\(file): the header lacks \(missing.joined(separator: ", ")); expected columns like \(expected) (got \(header.joined(separator: ",")))")
    }
}
