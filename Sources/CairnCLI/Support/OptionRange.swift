import ArgumentParser

/// Range checks for numeric command-line options. Every message names the option, the value given and what is
/// allowed: `--zoom must be 0 to 24, got -1`.
///
/// Numeric options are declared with `parsing: .unconditional`, so `-5` reaches these checks as a value instead
/// of being read as a flag (which made ArgumentParser report a missing value).
enum OptionRange {
    /// Throws a `ValidationError` unless `value` lies in `range` (NaN never does).
    /// - Complexity: O(1).
    static func check<T: Comparable>(_ option: String, _ value: T, in range: ClosedRange<T>) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(range.lowerBound) to \(range.upperBound), got \(value)")
        }
    }

    /// Throws a `ValidationError` unless `value >= lowerBound` (NaN never is).
    /// - Complexity: O(1).
    static func check<T: Comparable>(_ option: String, _ value: T, atLeast lowerBound: T) throws {
        guard value >= lowerBound else { throw ValidationError("\(option) must be at least \(lowerBound), got \(value)") }
    }

    /// Throws a `ValidationError` unless `value` is finite and at least `lowerBound` (`inf` is no size).
    /// - Complexity: O(1).
    static func check(_ option: String, _ value: Double, atLeast lowerBound: Double) throws {
        guard value.isFinite, value >= lowerBound else {
            throw ValidationError("\(option) must be a finite number of at least \(lowerBound), got \(value)")
        }
    }

    /// Throws a `ValidationError` unless `value` is finite and greater than zero.
    /// - Complexity: O(1).
    static func checkPositive(_ option: String, _ value: Double) throws {
        guard value.isFinite, value > 0 else { throw ValidationError("\(option) must be a number greater than 0, got \(value)") }
    }

    /// Parses a whole number in 0...UInt64.max: the `transform` of seed and id options, whose type cannot hold `-5`.
    /// - Complexity: O(n) in the text's length.
    static func unsigned(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else { throw Refusal(description: "expected a whole number from 0 to \(UInt64.max)") }
        return value
    }

    /// Why a value could not be parsed; ArgumentParser prints it after "The value '-5' is invalid for '--seed <seed>':".
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }
}
