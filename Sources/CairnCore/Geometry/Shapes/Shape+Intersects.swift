extension Shape {
    /// Whether the shape and `box` share a point (edges inclusive): a vertex in the box, an edge or line that meets
    /// it, or, for a polygon, the box inside it. Planar in longitude and latitude, exact for the input doubles
    /// (`PlanarOrientation`); a box across the antimeridian is its longitude ranges, 180 and -180 one meridian.
    /// - Complexity: O(v) for v vertices.
    public func intersects(_ box: BoundingBox) -> Bool {
        let ranges = box.longitudeRanges
        if intersects(west: ranges.first.lowerBound, south: box.south, east: ranges.first.upperBound, north: box.north) { return true }
        return ranges.hasSecond && intersects(west: ranges.second.lower, south: box.south, east: ranges.second.upper, north: box.north)
    }

    /// `intersects(_:)` for a box that does not wrap (west ≤ east).
    /// - Complexity: O(v).
    func intersects(west: Double, south: Double, east: Double, north: Double) -> Bool {
        let met = parts.positions.withUnsafeBufferPointer { positions in
            for ring in parts.ringEnds.indices {
                let range = parts.positionRange(ofRing: ring)
                if range.count == 1 || !kind.isAreal && !kind.isLinear {
                    for position in range {
                        let x = positions[2 * position], y = positions[2 * position + 1]
                        if x >= west && x <= east && y >= south && y <= north { return true }
                    }
                    continue
                }
                for position in range.dropFirst() {
                    if PlanarSegment.meetsBox(positions[2 * position - 2], positions[2 * position - 1],
                                              positions[2 * position], positions[2 * position + 1],
                                              west: west, south: south, east: east, north: north) { return true }
                }
            }
            return false
        }
        if met { return true }
        // No edge meets the box: a polygon still holds it when it holds one corner (then it holds all of it).
        return kind.isAreal && coversPlanar(longitude: west, latitude: south)
    }

    /// Whether the two shapes share a point: an edge, line or point of one meets one of the other, or one lies
    /// inside a polygon of the other. Planar, exact, the boundary inside (as `covers`); a point shape is its
    /// positions.
    /// - Complexity: O(v · w) for their v and w vertices (edges whose boxes are apart are rejected by comparisons).
    public func intersects(_ other: Shape) -> Bool {
        if segmentsMeet(other) { return true }
        if kind.isAreal, other.anyVertex(where: { coversPlanar(longitude: $0, latitude: $1) }) { return true }
        if other.kind.isAreal, anyVertex(where: { other.coversPlanar(longitude: $0, latitude: $1) }) { return true }
        return false
    }

    /// Whether `condition(longitude, latitude)` holds for some vertex.
    /// - Complexity: O(v) calls.
    func anyVertex(where condition: (Double, Double) -> Bool) -> Bool {
        for position in 0..<vertexCount where condition(parts.positions[2 * position], parts.positions[2 * position + 1]) { return true }
        return false
    }

    /// Whether an edge of one shape meets an edge of the other (a lone point is an edge of length zero).
    /// - Complexity: O(v · w).
    private func segmentsMeet(_ other: Shape) -> Bool {
        parts.positions.withUnsafeBufferPointer { mine in
            other.parts.positions.withUnsafeBufferPointer { theirs in
                for ring in parts.ringEnds.indices {
                    let range = parts.positionRange(ofRing: ring)
                    for a in Shape.segmentStarts(range) {
                        let b = range.count == 1 ? a : a + 1
                        let (ax, ay, bx, by) = (mine[2 * a], mine[2 * a + 1], mine[2 * b], mine[2 * b + 1])
                        for otherRing in other.parts.ringEnds.indices {
                            let otherRange = other.parts.positionRange(ofRing: otherRing)
                            for c in Shape.segmentStarts(otherRange) {
                                let d = otherRange.count == 1 ? c : c + 1
                                if PlanarSegment.meet(ax, ay, bx, by, theirs[2 * c], theirs[2 * c + 1], theirs[2 * d], theirs[2 * d + 1]) {
                                    return true
                                }
                            }
                        }
                    }
                }
                return false
            }
        }
    }

    /// The first positions of a ring's edges: every position but the last, or the lone position of a point.
    /// - Complexity: O(1).
    private static func segmentStarts(_ range: Range<Int>) -> Range<Int> {
        range.count == 1 ? range : range.lowerBound..<(range.upperBound - 1)
    }
}

extension Shape {
    /// The Point shape at `coordinate` (a feature without a shape, as the shape tests see it).
    /// - Complexity: O(1).
    init(point coordinate: Coordinate) {
        var parts = ShapeParts(kind: .point)
        parts.append(longitude: coordinate.longitude, latitude: coordinate.latitude)
        parts.endRing()
        self.init(unchecked: parts)
    }
}
