/// Why a bench could not run.
public struct BenchError: Error, CustomStringConvertible {
    /// What went wrong, as a sentence.
    public let description: String

    /// A data file problem.
    /// - Complexity: O(1).
    public static func data(_ message: String) -> BenchError { BenchError(description: message) }
    /// A peer engine's C library failed.
    /// - Complexity: O(1).
    public static func engine(_ name: String, _ message: String) -> BenchError {
        BenchError(description: "\(name): \(message)")
    }
}
