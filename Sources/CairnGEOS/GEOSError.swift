/// A failure GEOS reported, with GEOS's own message (from the context's message handler, since the C API's
/// return values only say that something failed).
public struct GEOSError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed: `GEOSSTRtree_create_r`.
    public let function: String
    /// GEOS's message: `ParseException: Expected number but encountered end of stream`.
    public let message: String

    /// An error of `function` with `message`.
    /// - Complexity: O(1).
    public init(function: String, message: String) {
        self.function = function
        self.message = message
    }

    /// `GEOSSTRtree_create_r: <GEOS's message>`.
    /// - Complexity: O(message length).
    public var description: String { "\(function): \(message)" }
}
