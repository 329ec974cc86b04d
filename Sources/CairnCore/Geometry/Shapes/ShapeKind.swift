/// The six geometry types Cairn keeps whole, numbered as WKB numbers them (OGC Simple Features, 2D).
public enum ShapeKind: UInt32, CaseIterable, Hashable, Sendable {
    /// One position (a feature's point location; `Feature.shape` is nil for a point, its location says it all).
    case point = 1
    /// A line of two or more positions (a trail).
    case lineString = 2
    /// An outer ring and any holes, each ring closed (first position repeated last) with four or more positions.
    case polygon = 3
    /// Several positions.
    case multiPoint = 4
    /// Several lines.
    case multiLineString = 5
    /// Several polygons (an archipelago, a country split at the antimeridian).
    case multiPolygon = 6

    /// The name GeoJSON and WKT use (`Polygon`; WKT upper-cases it).
    /// - Complexity: O(1).
    public var name: String {
        switch self {
        case .point: "Point"
        case .lineString: "LineString"
        case .polygon: "Polygon"
        case .multiPoint: "MultiPoint"
        case .multiLineString: "MultiLineString"
        case .multiPolygon: "MultiPolygon"
        }
    }

    /// The kind GeoJSON or WKT calls `name` (compared case-insensitively), or nil.
    /// - Complexity: O(1) (six names).
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let kind = ShapeKind.allCases.first(where: { $0.name.lowercased() == lowered }) else { return nil }
        self = kind
    }

    /// Whether the kind is made of polygons (its parts have area).
    /// - Complexity: O(1).
    public var isAreal: Bool { self == .polygon || self == .multiPolygon }

    /// Whether the kind is made of lines.
    /// - Complexity: O(1).
    public var isLinear: Bool { self == .lineString || self == .multiLineString }
}
