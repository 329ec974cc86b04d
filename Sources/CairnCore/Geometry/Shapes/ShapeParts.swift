/// A geometry as read, before any check: its kind and its positions in one flat array, with where each ring or
/// line ends and where each polygon ends. Readers (GeoJSON, WKT, WKB) fill one; `Shape(checking:)` checks it.
///
/// Why one flat array: every vertex of a geometry sits in `positions`, so a step that must see all of them (a
/// coordinate transform, the 1e-9 clamp) is one loop over one array, and WKB and GEOS take the same layout.
///
/// Layout, per kind (`ringEnds` counts positions, `polygonEnds` counts rings, both cumulative):
/// - point: one position, `ringEnds == [1]`, no polygons;
/// - multiPoint: one "ring" of one position per point;
/// - lineString: one ring (the line); multiLineString: one per line;
/// - polygon: one entry per ring (the outer ring first, then its holes), `polygonEnds == [ringCount]`;
/// - multiPolygon: every polygon's rings in order, `polygonEnds` where each polygon's rings end.
public struct ShapeParts: Hashable, Sendable {
    /// The geometry type.
    public var kind: ShapeKind
    /// Longitude, latitude pairs in degrees (GeoJSON's order), every vertex of every part, in order.
    public var positions: [Double]
    /// Where each ring, line or point ends, as a count of positions from the start.
    public var ringEnds: [Int]
    /// Where each polygon ends, as a count of rings from the start (empty for kinds without polygons).
    public var polygonEnds: [Int]

    /// An empty geometry of `kind`, to be filled with `append(longitude:latitude:)`, `endRing()`, `endPolygon()`.
    /// - Complexity: O(1).
    public init(kind: ShapeKind) {
        self.kind = kind
        positions = []
        ringEnds = []
        polygonEnds = []
    }

    /// The number of positions.
    /// - Complexity: O(1).
    public var positionCount: Int { positions.count / 2 }

    /// Appends a position to the ring or line being read.
    /// - Complexity: amortised O(1).
    public mutating func append(longitude: Double, latitude: Double) {
        positions.append(longitude)
        positions.append(latitude)
    }

    /// Ends the ring, line or point being read.
    /// - Complexity: amortised O(1).
    public mutating func endRing() { ringEnds.append(positionCount) }

    /// Ends the polygon being read (its rings are those ended since the previous polygon).
    /// - Complexity: amortised O(1).
    public mutating func endPolygon() { polygonEnds.append(ringEnds.count) }

    /// The positions of ring `ring` (an index into `ringEnds`), as a range of position numbers.
    /// - Complexity: O(1).
    public func positionRange(ofRing ring: Int) -> Range<Int> {
        (ring == 0 ? 0 : ringEnds[ring - 1])..<ringEnds[ring]
    }

    /// The rings of polygon `polygon` (an index into `polygonEnds`), as a range of ring numbers.
    /// - Complexity: O(1).
    public func ringRange(ofPolygon polygon: Int) -> Range<Int> {
        (polygon == 0 ? 0 : polygonEnds[polygon - 1])..<polygonEnds[polygon]
    }
}
