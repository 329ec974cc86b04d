/// Why a geometry was refused: its structure, one of its positions (with where it sits), or its WKB bytes.
public enum ShapeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A geometry with no positions (`POLYGON EMPTY`, `[]`), which locates nothing.
    case empty(kind: ShapeKind)
    /// A part with too few positions: a line needs 2, a ring 4 (closed), a point 1.
    case tooFewPositions(kind: ShapeKind, path: String, count: Int, needed: Int)
    /// The parts do not fit the kind (a Point with two positions, ring ends out of order).
    case malformedParts(kind: ShapeKind, detail: String)
    /// A position outside the valid ranges; `path` is its place in GeoJSON's nesting (`[0][3]`).
    case invalidPosition(path: String, error: CoordinateError)
    /// WKB bytes that do not hold one 2D geometry of the six kinds.
    case invalidWKB(String)

    public var description: String { message(at: "") }

    /// The message with `root` (a field such as `geometry.coordinates`) before the part's path: `root[0][3]: …`.
    /// - Complexity: O(1).
    public func message(at root: String) -> String {
        func located(_ path: String, _ text: String) -> String {
            let place = root + path
            return place.isEmpty ? text : "\(place): \(text)"
        }
        switch self {
        case .empty(let kind): return located("", "an empty \(kind.name) locates nothing")
        case .tooFewPositions(let kind, let path, let count, let needed):
            return located(path, "a \(Self.partName(kind)) needs at least \(needed) positions, got \(count)")
        case .malformedParts(let kind, let detail): return located("", "a \(kind.name): \(detail)")
        case .invalidPosition(let path, let error): return located(path, error.description)
        case .invalidWKB(let detail): return located("", "WKB: \(detail)")
        }
    }

    /// What one part of a geometry of `kind` is called in messages.
    private static func partName(_ kind: ShapeKind) -> String {
        switch kind {
        case .point, .multiPoint: "point"
        case .lineString, .multiLineString: "line"
        case .polygon, .multiPolygon: "linear ring"
        }
    }
}
