extension VectorTileGeometry {
    /// Lines (a LineString or MultiLineString) in tile units: per part, MoveTo(1) to its first vertex, then
    /// LineTo(n - 1) to the rest. A vertex equal to the one before is dropped (MVT 2.1 forbids a LineTo of (0, 0)),
    /// and a part left with fewer than two vertices is dropped.
    /// - Throws: `VectorTileError.emptyGeometry` when no part is left (the caller leaves the feature out),
    ///   `.tooManyPoints` for a part above 2^29 vertices, `.coordinateOutOfRange` for a step beyond ±(2^31 - 1).
    /// - Complexity: O(n) in the vertices.
    public static func lineString(_ parts: [[VectorTilePoint]]) throws(VectorTileError) -> VectorTileGeometry {
        var commands: [UInt32] = []
        var cursor = VectorTilePoint(x: 0, y: 0)
        for part in parts {
            let line = deduplicated(part, asRing: false)
            guard line.count >= 2 else { continue }
            guard line.count - 1 <= VectorTileCommand.maxCount else { throw .tooManyPoints(line.count) }
            try append(.moveTo, line[0..<1], cursor: &cursor, to: &commands)
            try append(.lineTo, line[1...], cursor: &cursor, to: &commands)
        }
        guard !commands.isEmpty else { throw .emptyGeometry }
        return VectorTileGeometry(type: .lineString, commands: commands)
    }

    /// Polygons (a Polygon or MultiPolygon) in tile units, each an exterior ring then its holes: per ring, MoveTo(1)
    /// to the first vertex, LineTo(n - 1) over the others, then ClosePath. A ring may repeat its first vertex last
    /// (GeoJSON does) or not; the repeat is left out, since ClosePath draws that edge. Vertices equal to the one
    /// before are dropped. An exterior ring is written with a positive surveyor's-formula area in tile coordinates
    /// (y down: clockwise on screen, MVT 2.1 section 4.3.4.4), a hole with a negative one: a ring the other way
    /// round is reversed, not refused (input seldom keeps RFC 7946's winding). A ring whose area is zero in tile
    /// units is dropped, and an exterior dropped takes its holes with it.
    /// - Throws: `VectorTileError.emptyGeometry` when no ring is left, `.tooManyPoints` for a ring above 2^29
    ///   vertices, `.coordinateOutOfRange` for a step beyond ±(2^31 - 1).
    /// - Complexity: O(n) in the vertices.
    public static func polygon(_ polygons: [[[VectorTilePoint]]]) throws(VectorTileError) -> VectorTileGeometry {
        var commands: [UInt32] = []
        var cursor = VectorTilePoint(x: 0, y: 0)
        for rings in polygons {
            for (n, ring) in rings.enumerated() {
                var vertices = deduplicated(ring, asRing: true)
                let area = vertices.count >= 3 ? doubledArea(vertices) : 0
                if area == 0 {
                    if n == 0 { break } // the exterior is gone: so are its holes
                    continue
                }
                // Exterior rings positive, holes negative.
                if (n == 0) != (area > 0) { vertices.reverse() }
                guard vertices.count - 1 <= VectorTileCommand.maxCount else { throw .tooManyPoints(vertices.count) }
                try append(.moveTo, vertices[0..<1], cursor: &cursor, to: &commands)
                try append(.lineTo, vertices[1...], cursor: &cursor, to: &commands)
                commands.append(VectorTileCommand.closePath.integer(count: 1))
            }
        }
        guard !commands.isEmpty else { throw .emptyGeometry }
        return VectorTileGeometry(type: .polygon, commands: commands)
    }

    /// `points` without a vertex equal to the one before it; as a ring, also without a last vertex equal to the
    /// first (the closing repeat).
    static func deduplicated(_ points: [VectorTilePoint], asRing: Bool) -> [VectorTilePoint] {
        var out: [VectorTilePoint] = []
        out.reserveCapacity(points.count)
        for p in points where out.last != p { out.append(p) }
        if asRing { while out.count > 1, out.last == out.first { out.removeLast() } }
        return out
    }

    /// Twice a ring's signed area by the surveyor's formula in tile coordinates (positive: clockwise with y down),
    /// in 64-bit integers, which hold it exactly for coordinates within ±2^30.
    static func doubledArea(_ ring: [VectorTilePoint]) -> Int {
        var sum = 0
        var previous = ring[ring.count - 1]
        for p in ring {
            sum &+= previous.x &* p.y &- p.x &* previous.y
            previous = p
        }
        return sum
    }
}
