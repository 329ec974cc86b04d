/// A line through two or more positions, in order: one line of a `Shape` (a trail).
public struct LineString: Hashable, Sendable {
    /// The positions, first to last.
    public let vertices: [Coordinate]

    /// A line through `vertices` (checked coordinates; a `Shape` checks the count).
    /// - Complexity: O(1).
    public init(vertices: [Coordinate]) { self.vertices = vertices }
}
