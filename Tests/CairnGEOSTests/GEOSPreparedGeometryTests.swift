import CairnCore
import Testing
@testable import CairnGEOS

/// Prepared geometries and point queries of the STRtree: covers holds the boundary, a hole's edge included.
@Suite struct GEOSPreparedGeometryTests {
    /// A 10° square at the origin with a 2° hole in its middle, as WKB.
    static func squareWithHole() throws -> [UInt8] {
        var parts = ShapeParts(kind: .polygon)
        for (x, y) in [(0.0, 0.0), (10, 0), (10, 10), (0, 10), (0, 0)] { parts.append(longitude: x, latitude: y) }
        parts.endRing()
        for (x, y) in [(4.0, 4.0), (4, 6), (6, 6), (6, 4), (4, 4)] { parts.append(longitude: x, latitude: y) }
        parts.endRing()
        parts.endPolygon()
        return try Shape(checking: parts).wkb
    }

    @Test("Covers: inside and on the boundary yes, in the hole and outside no")
    func coversHoldsTheBoundary() throws {
        let context = try GEOSContext()
        let polygon = try GEOSPreparedGeometry(context: context, wkb: Self.squareWithHole())
        let cases: [(Double, Double, Bool)] = [
            (1, 1, true), (0, 5, true), (10, 10, true), (4, 5, true), (5, 6, true), // inside, edges, a vertex, hole edges
            (5, 5, false), (10.5, 5, false), (-1e-12, 5, false),                     // the hole, outside, just outside
        ]
        for (x, y, expected) in cases {
            #expect(try polygon.covers(GEOSPoint(context: context, x: x, y: y)) == expected, "(\(x), \(y))")
        }
    }

    @Test("A point query of the tree finds the envelopes that hold the point")
    func pointQueryFindsEnvelopes() throws {
        let context = try GEOSContext()
        let tree = try GEOSSTRtree(context: context)
        let polygon = try GEOSPreparedGeometry(context: context, wkb: Self.squareWithHole())
        try tree.insert(polygon, item: 7)
        try tree.insert(Envelope(minX: 20, minY: 20, maxX: 30, maxY: 30), item: 3)
        try tree.build()
        var items: [Int] = []
        try tree.query(GEOSPoint(context: context, x: 5, y: 5), into: &items)
        #expect(items == [7]) // the envelope holds the hole too: the prepared test decides
        items.removeAll()
        try tree.query(GEOSPoint(context: context, x: 10, y: 10), into: &items)
        #expect(items == [7])
        items.removeAll()
        try tree.query(GEOSPoint(context: context, x: 15, y: 15), into: &items)
        #expect(items.isEmpty)
    }

    @Test("Bytes that are not WKB are a GEOSError with GEOS's message")
    func badWKBIsAnError() throws {
        let context = try GEOSContext()
        #expect(throws: GEOSError.self) { try GEOSPreparedGeometry(context: context, wkb: [1, 2, 3]) }
    }
}
