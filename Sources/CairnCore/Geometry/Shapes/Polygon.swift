/// A polygon of a `Shape`: an outer ring and its holes, each ring closed (its first position repeated last).
public struct Polygon: Hashable, Sendable {
    /// The outer boundary.
    public let exterior: [Coordinate]
    /// The holes, each a ring inside `exterior`.
    public let holes: [[Coordinate]]

    /// A polygon with `exterior` and `holes` (checked coordinates; a `Shape` checks the counts).
    /// - Complexity: O(1).
    public init(exterior: [Coordinate], holes: [[Coordinate]] = []) {
        self.exterior = exterior
        self.holes = holes
    }
}
