extension Shape {
    /// Appends one box per part to `entries`, each for `item`: per polygon for a Polygon or MultiPolygon (its
    /// rings' positions), per line for lines, per point for points. A part's box never wraps: GeoJSON splits a part
    /// that would cross the antimeridian.
    /// - Complexity: O(v) for v vertices.
    func appendPartExtents(item: Int, to entries: inout [ShapeExtentIndex.Entry]) {
        parts.positions.withUnsafeBufferPointer { positions in
            func add(_ range: Range<Int>) {
                var (west, south, east, north) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
                for position in range {
                    let longitude = positions[2 * position], latitude = positions[2 * position + 1]
                    (west, east) = (Swift.min(west, longitude), Swift.max(east, longitude))
                    (south, north) = (Swift.min(south, latitude), Swift.max(north, latitude))
                }
                entries.append(ShapeExtentIndex.Entry(item: item, west: west, south: south, east: east, north: north))
            }
            if kind.isAreal {
                for polygon in parts.polygonEnds.indices {
                    let rings = parts.ringRange(ofPolygon: polygon)
                    add(parts.positionRange(ofRing: rings.lowerBound).lowerBound..<parts.positionRange(ofRing: rings.upperBound - 1).upperBound)
                }
            } else {
                for ring in parts.ringEnds.indices { add(parts.positionRange(ofRing: ring)) }
            }
        }
    }
}
