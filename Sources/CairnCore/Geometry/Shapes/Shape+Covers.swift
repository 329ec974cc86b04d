extension Shape {
    /// Whether the shape covers `coordinate`: a polygon (or any polygon of a MultiPolygon) holds it inside or on
    /// its boundary (a hole's edge included). Lines, points and MultiPoints cover nothing (they have no area).
    ///
    /// Semantics (the oracle is shapely's `covers` on the same longitude/latitude pairs):
    /// - a polygon's edges are straight lines in the plane of longitude and latitude (planar, as GEOS, shapely and
    ///   PostGIS `geometry` see them), not great circles;
    /// - on the boundary is inside, decided exactly for the input doubles (`PlanarOrientation`);
    /// - a polygon crossing the antimeridian is written split at ±180 (GeoJSON's rule), each part ordinary; 180 and
    ///   -180 are one meridian, so a point at either is tested at both;
    /// - a polygon around a pole is a ring that touches ±90 (Natural Earth's Antarctica runs along -90 from -180 to
    ///   180); a point at a pole, whatever its longitude, is covered when a vertex of a polygon lies at that pole
    ///   (the pole is then on its boundary; in the plane no polygon holds a latitude of ±90 in its interior).
    ///
    /// Method: the crossing number (a ray towards +longitude, half-open in latitude, so a vertex on the ray counts
    /// once) over every ring of each polygon, holes included: an odd count is inside. An edge is tested with the
    /// exact orientation only when its longitudes straddle the point's; a zero orientation on an edge that spans
    /// the point's latitude puts the point on the boundary.
    /// - Complexity: O(v) for the shape's v vertices.
    public func covers(_ coordinate: Coordinate) -> Bool {
        guard kind.isAreal else { return false }
        let latitude = coordinate.latitude, longitude = coordinate.longitude
        if Swift.abs(latitude) == 90 { return hasVertex(atLatitude: latitude) }
        if Swift.abs(longitude) == 180 {
            return coversPlanar(longitude: 180, latitude: latitude) || coversPlanar(longitude: -180, latitude: latitude)
        }
        return coversPlanar(longitude: longitude, latitude: latitude)
    }

    /// Whether some vertex lies at latitude `latitude` exactly.
    /// - Complexity: O(v).
    private func hasVertex(atLatitude latitude: Double) -> Bool {
        parts.positions.withUnsafeBufferPointer { positions in
            for position in stride(from: 1, to: positions.count, by: 2) where positions[position] == latitude { return true }
            return false
        }
    }

    /// The planar test of `covers` at (x, y) = (`longitude`, `latitude`).
    /// - Complexity: O(v).
    func coversPlanar(longitude x: Double, latitude y: Double) -> Bool {
        parts.positions.withUnsafeBufferPointer { positions in
            for polygon in parts.polygonEnds.indices {
                var inside = false
                for ring in parts.ringRange(ofPolygon: polygon) {
                    switch ShapeRing.crossing(positions, parts.positionRange(ofRing: ring), x: x, y: y) {
                    case .boundary: return true
                    case .odd: inside.toggle()
                    case .even: break
                    }
                }
                if inside { return true }
            }
            return false
        }
    }
}
