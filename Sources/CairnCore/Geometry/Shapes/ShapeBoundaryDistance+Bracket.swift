#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ShapeBoundaryDistance {
    /// Bounds on the answer of `meters(from:to:)` (its own answer, not only the exact minimum), found without
    /// Karney's inverse: a caller that needs only a verdict ("within the accuracy?") or the answer's printed
    /// millimetre decides most points with them and calls `meters(from:to:)` for the rest.
    ///
    /// Why they hold. Let d* be the exact distance to the boundary. `meters(from:to:)` answers with Karney's
    /// distance to a point of the boundary (a vertex, or a point computed on an edge, within 1e-9 m of it), so its
    /// answer is at least d* less 15 nm and that 1e-9 m; and every edge or piece it drops has a lower bound at least
    /// its answer less `toleranceMeters`, so its answer is at most d* + `toleranceMeters` (plus its bounds'
    /// nanometre rounding). `bracket(from:to:)` bounds d* itself, [ℓ, u], with `EdgeChordBounds`, and widens that
    /// by those amounts and by `DistanceBounds.absoluteMarginMeters` (1 µm) each side: [ℓ − 1 µm,
    /// u + `toleranceMeters` + 1 µm]. And `meters(from:to:)` measures the seed vertex first (`seedEdges`), so its
    /// answer is also at most `seedMeters(from:)`, Karney's distance to that vertex, bit for bit the same call.
    struct Bracket {
        /// At most the answer, metres.
        let lowerMeters: Double
        /// At least the answer, metres.
        let upperMeters: Double
        /// The vertex `meters(from:to:)` measures first, degrees.
        let seedLatitude: Double
        let seedLongitude: Double

        /// Karney's distance from `point` to the seed vertex, metres: at least the answer, and equal to it when
        /// that vertex is the nearest point. The call `meters(from:to:)` makes, with the same arguments.
        /// - Complexity: O(1), one geodesic.
        func seedMeters(from point: Coordinate) -> Double {
            Geodesic.inverseMeters(point.latitude, point.longitude, seedLatitude, seedLongitude)
        }
    }

    /// The distance up to which `bracket(from:to:)` answers, metres: the chord's excess over the geodesic
    /// (`GeodesicChord`) is 0.13 mm at 5 km, beyond which the bracket is too wide to pin a millimetre.
    static let bracketReachMeters = 5_000.0

    /// Bounds on `meters(from: point, to: shape)` (see `Bracket`), or nil when they do not apply: a shape of
    /// points, the nearest vertex farther than `bracketReachMeters`, or an edge whose chord is not provably convex
    /// (see `EdgeChordBounds`).
    ///
    /// Method: the seed vertex's chord gives a first upper bound u; every point nearer than u lies in a window
    /// (u's latitude reach and, away from the poles and ±180, the tangent meridians of its cap, as
    /// `addCoveringAreas` bounds an accuracy), so an edge whose box misses the window is farther than u and is
    /// left out with four comparisons. The other edges' planar lower bounds are computed, and those below u are
    /// taken in increasing order of it (the nearest edge first, so that u falls to about the distance at once and
    /// prunes the rest) and bounded by `EdgeChordBounds.chordBounds` (a few Newton steps on the squared chord, then
    /// its convexity), which lowers u (the chord's upper bound at the point found) and gives that edge's lower
    /// bound; ℓ is the smallest of those, and at most u (an edge left had a bound at least u).
    /// - Complexity: O(v + c · k) for v vertices, c edges meeting the window and k edges bounded (one or two for
    ///   most points), with no trigonometry per vertex; a few points evaluated per edge bounded.
    static func bracket(from point: Coordinate, to shape: Shape) -> Bracket? {
        guard shape.kind.isAreal || shape.kind.isLinear else { return nil }
        let parts = shape.parts
        let bounds = EdgeChordBounds(point: point)
        let (seededBefore, seededAfter) = seedEdges(point, parts, cosLatitude: bounds.cosLatitude)
        let seed = seededBefore >= 0 ? seededBefore + 1 : seededAfter
        guard seed >= 0 else { return nil }
        let seedLongitude = parts.positions[2 * seed], seedLatitude = parts.positions[2 * seed + 1]
        let seedChord = GeodesicChord.chordMeters(bounds.axisDistanceMeters, bounds.heightMeters, point.longitude,
                                                  seedLatitude, seedLongitude,
                                                  cosLatitude: cos(seedLatitude * Spherical.radiansPerDegree))
        guard seedChord <= bracketReachMeters else { return nil }
        var upper = GeodesicChord.upperBoundMeters(chord: seedChord)
        // The band of latitudes a point nearer than the first upper bound can have; its cosine scales the planar
        // bound (points of an edge outside it are farther than any upper bound found later).
        let reachAngle = DistanceBounds(.wgs84).outerAngle(radiusMeters: upper)
        let bandDegrees = Spherical.latitudeReachDegrees(angle: reachAngle)
        let bandCosine = max(0, cos(min(90, abs(point.latitude) + bandDegrees) * Spherical.radiansPerDegree))
        // The window: that band, and the cap's tangent meridians when they lie within ±180 (else every longitude).
        let south = point.latitude - bandDegrees, north = point.latitude + bandDegrees
        var west = -Double.infinity, east = Double.infinity
        if let halfWidth = Spherical.longitudeReachDegrees(angle: reachAngle, latitude: point.latitude,
                                                          cosLatitude: bounds.cosLatitude),
           point.longitude - halfWidth > -180, point.longitude + halfWidth < 180 {
            (west, east) = (point.longitude - halfWidth, point.longitude + halfWidth)
        }
        // The edges meeting the window whose planar bound is below the upper bound, in position order; then those
        // in increasing order of it while it is below the upper bound: the nearest edge comes first, so the upper
        // bound is about the distance after one or two edges and prunes the rest.
        let positionCount = parts.positionCount
        return parts.positions.withUnsafeBufferPointer { positions in
            withUnsafeTemporaryAllocation(of: (bound: Double, start: Int).self, capacity: positionCount) { candidates -> Bracket? in
                var candidateCount = 0
                for ring in parts.ringEnds.indices {
                    let range = parts.positionRange(ofRing: ring)
                    guard range.count > 1 else { continue }
                    var lon0 = positions[2 &* range.lowerBound], lat0 = positions[2 &* range.lowerBound &+ 1]
                    for start in range.lowerBound..<(range.upperBound &- 1) {
                        let lon1 = positions[2 &* start &+ 2], lat1 = positions[2 &* start &+ 3]
                        defer { (lon0, lat0) = (lon1, lat1) }
                        if Swift.max(lat0, lat1) < south || Swift.min(lat0, lat1) > north
                            || Swift.max(lon0, lon1) < west || Swift.min(lon0, lon1) > east { continue }
                        var (bound, factor) = bounds.planarLowerBoundMeters(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1,
                                                                            bandCosine: bandCosine)
                        if factor == 0 {
                            // An edge reaching more than a radian away: the central angle to its box, as `nearest` prunes.
                            let haversine = Spherical.minimumHaversine(
                                latitude: point.latitude, longitude: point.longitude, cosLatitude: bounds.cosLatitude,
                                minLongitude: Swift.min(lon0, lon1), minLatitude: Swift.min(lat0, lat1),
                                maxLongitude: Swift.max(lon0, lon1), maxLatitude: Swift.max(lat0, lat1))
                            bound = DistanceBounds(.wgs84).lowerBoundMeters(haversine: haversine)
                        }
                        // Not below the first upper bound (or NaN): never taken, as upper bounds only fall.
                        guard bound < upper else { continue }
                        candidates[candidateCount] = (bound, start)
                        candidateCount &+= 1
                    }
                }
                var lowestChord = Double.infinity
                while true {
                    var nearest = -1, nearestBound = upper
                    for candidate in 0..<candidateCount where candidates[candidate].bound < nearestBound {
                        nearest = candidate
                        nearestBound = candidates[candidate].bound
                    }
                    guard nearest >= 0 else { break }
                    candidates[nearest].bound = .infinity
                    let start = candidates[nearest].start
                    let lon0 = positions[2 &* start], lat0 = positions[2 &* start &+ 1]
                    let lon1 = positions[2 &* start &+ 2], lat1 = positions[2 &* start &+ 3]
                    let guess = bounds.planar(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1, bandCosine: bandCosine).guess
                    guard let chord = bounds.chordBounds(lon0: lon0, lat0: lat0, lon1: lon1, lat1: lat1, guess: guess) else { return nil }
                    lowestChord = Swift.min(lowestChord, chord.lowerMeters)
                    if chord.upperMeters <= bracketReachMeters {
                        upper = Swift.min(upper, GeodesicChord.upperBoundMeters(chord: chord.upperMeters))
                    }
                }
                // Every edge left has a bound at least the upper bound: ℓ is the least of the edges bounded, at most u.
                let lower = Swift.min(GeodesicChord.lowerBoundMeters(chord: lowestChord), upper)
                return Bracket(lowerMeters: Swift.max(0, lower - DistanceBounds.absoluteMarginMeters),
                               upperMeters: upper + toleranceMeters + DistanceBounds.absoluteMarginMeters,
                               seedLatitude: seedLatitude, seedLongitude: seedLongitude)
            }
        }
    }
}
