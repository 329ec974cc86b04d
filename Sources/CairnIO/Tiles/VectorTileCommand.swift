/// The drawing commands of an MVT 2.1 geometry (section 4.3.1); the raw value is the command id.
///
/// A command integer packs the id in its low three bits and a repeat count in the other 29; MoveTo and LineTo are
/// followed by `count` pairs of zig-zag deltas from the cursor, ClosePath by nothing.
public enum VectorTileCommand: UInt32, Sendable, CaseIterable {
    /// Starts a point, a line, or a ring at the cursor plus (dx, dy); moves the cursor there.
    case moveTo = 1
    /// Draws a segment from the cursor to the cursor plus (dx, dy); moves the cursor there.
    case lineTo = 2
    /// Closes the current ring back to its first vertex (count 1, no parameters); the cursor stays.
    case closePath = 7

    /// The largest repeat count a command integer holds: 2^29 - 1.
    public static let maxCount = (1 << 29) - 1

    /// The command integer for this command repeated `count` times: `id | count << 3`.
    /// - Precondition: `count` in 0...`maxCount` (callers check it and throw; see `VectorTileGeometry`).
    /// - Complexity: O(1).
    public func integer(count: Int) -> UInt32 {
        rawValue | UInt32(truncatingIfNeeded: count) << 3
    }

    /// How many parameter integers follow each repetition: 2 (dx, dy) for MoveTo and LineTo, 0 for ClosePath.
    /// - Complexity: O(1).
    public var parameterCount: Int { self == .closePath ? 0 : 2 }
}
