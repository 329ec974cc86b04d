import CairnCore

/// One operation's seeded queries.
public enum BenchQueries: Sendable {
    /// Box queries.
    case boxes([BoundingBox])
    /// Query points: circle centres, nearest origins or containment points.
    case centers([Coordinate])
}
