#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ShapeBoundaryDistance {
    /// The branch and bound along one edge straight in lon/lat (see `ShapeBoundaryDistance`'s notes for the
    /// bounds and their proofs).
    struct EdgeSearch {
        /// The point measured from, degrees.
        let latitude: Double
        let longitude: Double
        /// The edge's ends, degrees.
        let start: Coordinate
        let end: Coordinate
        /// The edge's change in latitude and longitude per unit of t, radians.
        let latitudeRadians: Double
        let longitudeRadians: Double

        /// |dM/dφ| ≤ 3 a e² / (2 (1 − e²)^(3/2)) ≈ 0.01014 a, rounded up: metres per radian.
        static let meridianRadiusSlopeMeters = 0.0102 * WGS84.equatorialRadiusMeters
        /// The curvature that the meridian radius's slope adds: 0.385 |dM/dφ| / M_min², rounded up, per metre.
        static let slopeCurvature = 0.004 / WGS84.equatorialRadiusMeters

        init(point: Coordinate, from start: Coordinate, to end: Coordinate) {
            latitude = point.latitude
            longitude = point.longitude
            self.start = start
            self.end = end
            latitudeRadians = (end.latitude - start.latitude) * Spherical.radiansPerDegree
            longitudeRadians = (end.longitude - start.longitude) * Spherical.radiansPerDegree
        }

        /// The edge's point at parameter t (its ends exactly at 0 and 1).
        @inline(__always)
        func position(_ t: Double) -> Coordinate {
            if t <= 0 { return start }
            if t >= 1 { return end }
            return Coordinate(uncheckedLatitude: start.latitude + t * (end.latitude - start.latitude),
                              longitude: start.longitude + t * (end.longitude - start.longitude))
        }

        /// The geodesic distance to `position(t)`, metres.
        @inline(__always)
        func meters(_ position: Coordinate) -> Double {
            Geodesic.inverseMeters(latitude, longitude, position.latitude, position.longitude)
        }

        /// Searches the edge, lowering `best` where a nearer point is found; returns the distances to its ends
        /// (nil for a point on the edge, which is not measured). `startMeters` and `endMeters`, when given, are
        /// `meters(start)` and `meters(end)` already measured by the caller, not measured again.
        /// - Complexity: see `ShapeBoundaryDistance.meters(from:to:)`.
        func run(best: inout Nearest, startMeters knownStart: Double? = nil, endMeters knownEnd: Double? = nil)
            -> (start: Double, end: Double)? {
            if let onEdge = exactlyOnEdge() {
                best = Nearest(meters: 0, point: onEdge)
                return nil
            }
            let startMeters = knownStart ?? meters(start), endMeters = knownEnd ?? meters(end)
            if startMeters < best.meters { best = Nearest(meters: startMeters, point: start) }
            if endMeters < best.meters { best = Nearest(meters: endMeters, point: end) }
            var stack: [(ta: Double, tb: Double, fa: Double, fb: Double)] = [(0, 1, startMeters, endMeters)]
            while let interval = stack.popLast() {
                let (ta, tb, fa, fb) = interval
                guard lowerBoundMeters(ta, tb, fa, fb) < best.meters - ShapeBoundaryDistance.toleranceMeters else { continue }
                let tm = 0.5 * (ta + tb)
                // The doubles between the ends are exhausted: both ends are already measured.
                guard tm > ta, tm < tb else { continue }
                let middle = position(tm)
                let fm = meters(middle)
                if fm < best.meters { best = Nearest(meters: fm, point: middle) }
                // The half with the nearer end is pushed last, so it is searched first.
                if min(fa, fm) < min(fm, fb) {
                    stack.append((tm, tb, fm, fb))
                    stack.append((ta, tm, fa, fm))
                } else {
                    stack.append((ta, tm, fa, fm))
                    stack.append((tm, tb, fm, fb))
                }
            }
            return (startMeters, endMeters)
        }

        /// The point itself when it lies on the edge in lon/lat (cross product 0, within the edge's box).
        func exactlyOnEdge() -> Coordinate? {
            let dLon = end.longitude - start.longitude, dLat = end.latitude - start.latitude
            let cross = dLon * (latitude - start.latitude) - dLat * (longitude - start.longitude)
            guard cross == 0,
                  longitude >= min(start.longitude, end.longitude), longitude <= max(start.longitude, end.longitude),
                  latitude >= min(start.latitude, end.latitude), latitude <= max(start.latitude, end.latitude)
            else { return nil }
            return Coordinate(uncheckedLatitude: latitude, longitude: longitude)
        }

        /// A lower bound on the distance to every point of the edge with t in [ta, tb], whose ends are fa and fb
        /// metres away: the larger of the Lipschitz and the quadratic bound (see the type's notes).
        func lowerBoundMeters(_ ta: Double, _ tb: Double, _ fa: Double, _ fb: Double) -> Double {
            let latitudeA = start.latitude + ta * (end.latitude - start.latitude)
            let latitudeB = start.latitude + tb * (end.latitude - start.latitude)
            let farthest = min(90, max(abs(latitudeA), abs(latitudeB)))
            let nearest = latitudeA * latitudeB <= 0 ? 0 : min(90, min(abs(latitudeA), abs(latitudeB)))
            let meridianRadius = WGS84.meridianRadiusMeters(latitude: farthest)
            let parallelRadius = WGS84.primeVerticalRadiusMeters(latitude: nearest)
                * max(0, cos(nearest * Spherical.radiansPerDegree))
            let northSpeed = meridianRadius * abs(latitudeRadians), eastSpeed = parallelRadius * abs(longitudeRadians)
            let speed = (northSpeed * northSpeed + eastSpeed * eastSpeed).squareRoot()
            let width = tb - ta
            // Every point of the piece is one point (an edge along a pole's line): its distance is known.
            guard speed > 0 else { return min(fa, fb) }
            let arc = width * speed
            let lipschitz = 0.5 * (fa + fb - arc)
            // The quadratic bound needs the piece away from the point (the distance's Hessian grows as 1/r) and
            // short of the cut locus (where the distance is not smooth).
            let reach = 0.5 * (fa + fb + arc)
            guard lipschitz > 0, reach < ShapeBoundaryDistance.quadraticReachMeters else { return lipschitz }
            let curvature = geodesicCurvatureBound(farthestLatitude: farthest) + 1 / lipschitz
            let speedSlope = abs(latitudeRadians)
                * (Self.meridianRadiusSlopeMeters * abs(latitudeRadians) + meridianRadius * abs(longitudeRadians))
            let k = curvature * speed * speed + speedSlope
            // An edge touching a pole along a parallel has no finite curvature bound: Lipschitz alone.
            guard k.isFinite else { return lipschitz }
            // f ≥ fa + (fb − fa) s / w − k s (w − s) / 2 for s = t − ta in [0, w]; its minimum:
            let s = 0.5 * width - (fb - fa) / (k * width)
            let quadratic = s > 0 && s < width ? fa + (fb - fa) * s / width - 0.5 * k * s * (width - s) : min(fa, fb)
            return max(lipschitz, quadratic)
        }

        /// A bound on the geodesic curvature of the edge (a lon/lat straight line) where |φ| ≤ `farthestLatitude`,
        /// per metre: min(1.089 tan φ / a, 2 |Δλ| / (a (1 − e²) |Δφ|)) + the meridian radius's slope term.
        func geodesicCurvatureBound(farthestLatitude: Double) -> Double {
            let a = WGS84.equatorialRadiusMeters
            let byLatitude = farthestLatitude >= 90
                ? Double.infinity : 1.089 * tan(farthestLatitude * Spherical.radiansPerDegree) / a
            let byDirection = latitudeRadians == 0
                ? Double.infinity : 2 * abs(longitudeRadians) / (WGS84.minimumCurvatureRadiusMeters * abs(latitudeRadians))
            return min(byLatitude, byDirection) + Self.slopeCurvature
        }
    }
}
