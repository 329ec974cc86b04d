extension Shape {
    /// The point that stands for the shape where a query or a check-in needs one point (`Feature.location`).
    ///
    /// - Polygon, MultiPolygon: the area-weighted centroid (planar shoelace on longitude/latitude degrees) of the
    ///   outer ring with the largest area (the first of equals); for a degenerate ring, the mean of its vertices.
    ///   Longitudes are unwrapped edge by edge (each edge the short way round) relative to the ring's first vertex
    ///   before averaging, and the result is wrapped back into [-180, 180], so a ring crossing the antimeridian is
    ///   centred on it, not near longitude 0. The point may fall outside a concave polygon. (The rule GeoJSON
    ///   import has always used, kept so that stored locations do not move.)
    /// - LineString, MultiLineString: the middle vertex of the first line (a point on the line).
    /// - Point, MultiPoint: the first point.
    /// - Complexity: O(n) in the number of positions.
    public var representativePoint: Coordinate {
        switch kind {
        case .point, .multiPoint:
            return vertex(0)
        case .lineString, .multiLineString:
            return vertex(parts.positionRange(ofRing: 0).count / 2)
        case .polygon, .multiPolygon:
            var best: (point: Coordinate, area: Double)?
            for polygon in parts.polygonEnds.indices {
                let candidate = ringCentroid(parts.positionRange(ofRing: parts.ringRange(ofPolygon: polygon).lowerBound))
                if best == nil || candidate.area > (best?.area ?? 0) { best = candidate }
            }
            return best?.point ?? vertex(0)
        }
    }

    /// The area-weighted centroid of the ring at `positions`, with its absolute planar area in square degrees.
    ///
    /// Each longitude is unwrapped from the previous one as the shoelace reaches it (the same sums in the same
    /// order as unwrapping the whole ring first), so no array is allocated; a degenerate ring unwraps again.
    /// - Complexity: O(k) for the ring's k positions.
    private func ringCentroid(_ positions: Range<Int>) -> (point: Coordinate, area: Double) {
        parts.positions.withUnsafeBufferPointer { coordinates in
            let first = positions.lowerBound, count = positions.count
            let x0 = coordinates[2 * first], y0 = coordinates[2 * first + 1]
            // Shoelace over every edge, wrapping from the last position to the first (a zero-length edge when the
            // ring is closed, the missing closing edge when it is not), relative to the first vertex; `xa` is the
            // unwrapped longitude of position `index` (0 for the first).
            var twiceArea = 0.0, sumX = 0.0, sumY = 0.0
            var xa = 0.0
            for index in 0..<count {
                let next = index + 1 == count ? 0 : index + 1
                let xb = next == 0
                    ? 0 : xa + Self.wrapped(coordinates[2 * (first + next)] - coordinates[2 * (first + index)])
                let ya = coordinates[2 * (first + index) + 1] - y0
                let yb = coordinates[2 * (first + next) + 1] - y0
                let cross = xa * yb - xb * ya
                twiceArea += cross
                sumX += (xa + xb) * cross
                sumY += (ya + yb) * cross
                xa = xb
            }
            if abs(twiceArea) > 1e-18 {
                let latitude = y0 + sumY / (3 * twiceArea)
                return (Coordinate(uncheckedLatitude: min(90, max(-90, latitude)),
                                   longitude: Self.wrapped(x0 + sumX / (3 * twiceArea))), abs(twiceArea) / 2)
            }
            var latitudeSum = 0.0, longitudeOffset = 0.0, unwrapped = 0.0
            for index in 0..<(count - 1) {
                if index > 0 {
                    unwrapped = unwrapped + Self.wrapped(coordinates[2 * (first + index)] - coordinates[2 * (first + index - 1)])
                }
                latitudeSum += coordinates[2 * (first + index) + 1]
                longitudeOffset += unwrapped
            }
            let divisor = Double(count - 1)
            return (Coordinate(uncheckedLatitude: latitudeSum / divisor, longitude: Self.wrapped(x0 + longitudeOffset / divisor)),
                    abs(twiceArea) / 2)
        }
    }

    /// An angle in degrees brought into [-180, 180]: a longitude difference the short way round, or an unwrapped
    /// longitude (any number of turns away) back on the map.
    static func wrapped(_ degrees: Double) -> Double {
        if degrees >= -180, degrees <= 180 { return degrees }
        let turned = degrees.truncatingRemainder(dividingBy: 360)
        return turned > 180 ? turned - 360 : (turned < -180 ? turned + 360 : turned)
    }
}
