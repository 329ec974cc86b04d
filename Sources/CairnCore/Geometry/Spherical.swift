#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Great-circle geometry on the unit sphere, in radians unless a name says degrees.
enum Spherical {
    /// π / 180.
    static let radiansPerDegree = Double.pi / 180

    /// The haversine of the central angle between two points given in degrees:
    /// hav σ = sin²(Δφ/2) + cos φ1 cos φ2 sin²(Δλ/2), in [0, 1] (rounding may exceed 1 by an ulp).
    /// Monotone in σ, so comparisons can be made on it without an inverse sine.
    @inline(__always)
    static func haversine(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let sinHalfDLat = sin((lat2 - lat1) * (radiansPerDegree / 2))
        let sinHalfDLon = sin((lon2 - lon1) * (radiansPerDegree / 2))
        return sinHalfDLat * sinHalfDLat
            + cos(lat1 * radiansPerDegree) * cos(lat2 * radiansPerDegree) * sinHalfDLon * sinHalfDLon
    }

    /// `haversine(_:_:_:_:)` from a first point whose cosine of latitude is already known (a query's).
    @inline(__always)
    static func haversine(from latitude: Double, _ longitude: Double, cosLatitude: Double,
                          to otherLatitude: Double, _ otherLongitude: Double) -> Double {
        let sinHalfDLat = sin((otherLatitude - latitude) * (radiansPerDegree / 2))
        let sinHalfDLon = sin((otherLongitude - longitude) * (radiansPerDegree / 2))
        return sinHalfDLat * sinHalfDLat + cosLatitude * cos(otherLatitude * radiansPerDegree) * sinHalfDLon * sinHalfDLon
    }

    /// Degrees of latitude within which every point at most `angle` radians from a given one lies (|Δφ| ≤ σ),
    /// widened against rounding.
    @inline(__always)
    static func latitudeReachDegrees(angle: Double) -> Double {
        angle / radiansPerDegree * (1 + 1e-9) + 1e-9
    }

    /// Degrees of longitude within which every point at most `angle` radians from the point at `latitude` lies:
    /// asin(sin σ / cos φ), the cap's tangent meridians, widened against rounding; nil when every longitude can
    /// be (the cap reaches a pole, or spans half the globe).
    static func longitudeReachDegrees(angle: Double, latitude: Double, cosLatitude: Double) -> Double? {
        let reach = latitudeReachDegrees(angle: angle)
        guard latitude - reach > -90, latitude + reach < 90, angle < .pi / 2 else { return nil }
        // The ratio is rounded by a few ulps; inflating it by 1e-12 first keeps the inverse sine conservative
        // even where it is steep (ratio near 1, caps nearly touching a pole).
        let ratio = sin(angle) / cosLatitude * (1 + 1e-12)
        guard ratio < 1 else { return nil }
        let halfWidth = asin(ratio) / radiansPerDegree * (1 + 1e-9) + 1e-9
        return halfWidth < 180 ? halfWidth : nil
    }

    /// The central angle σ = 2 asin(√hav σ), in [0, π].
    @inline(__always)
    static func centralAngle(haversine h: Double) -> Double {
        2 * asin(min(1, h).squareRoot())
    }

    /// The haversine of an angle σ in [0, π]: sin²(σ/2).
    @inline(__always)
    static func haversine(ofAngle sigma: Double) -> Double {
        let s = sin(sigma / 2)
        return s * s
    }

    /// The sphere model's distance in metres (haversine formula, mean radius).
    ///
    /// For points more than a quarter of the way round (hav σ > 1/2), the inverse sine of a haversine near 1
    /// would lose half the digits (about 0.2 m near antipodes); there the formula is applied to the first point
    /// and the second's antipode instead, σ = π − σ', which is well conditioned. Same formula, same sphere.
    @inline(__always)
    static func haversineMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let h = haversine(lat1, lon1, lat2, lon2)
        if h <= 0.5 { return DistanceModel.sphereRadiusMeters * centralAngle(haversine: h) }
        let complement = haversine(lat1, lon1, -lat2, lon2 + 180)
        return DistanceModel.sphereRadiusMeters * (Double.pi - centralAngle(haversine: complement))
    }

    /// The destination on the sphere model: (latitude, longitude) in degrees, longitude in [-180, 180].
    static func direct(_ lat1: Double, _ lon1: Double, bearingDegrees: Double, meters: Double) -> (Double, Double) {
        let phi1 = lat1 * radiansPerDegree
        let theta = bearingDegrees * radiansPerDegree
        let delta = meters / DistanceModel.sphereRadiusMeters
        let sinPhi2 = (sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)).clamped(to: -1...1)
        let phi2 = asin(sinPhi2)
        let dLambda = atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sinPhi2)
        return (phi2 / radiansPerDegree, normalizedLongitude(lon1 + dLambda / radiansPerDegree))
    }

    /// A longitude in degrees brought into [-180, 180].
    @inline(__always)
    static func normalizedLongitude(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return degrees }
        if degrees >= -180, degrees <= 180 { return degrees }
        let r = remainder(degrees, 360)
        return r == -180 && degrees > 0 ? 180 : r
    }
}

extension Spherical {
    /// The haversine of the smallest central angle from a point to a latitude/longitude rectangle that does not wrap
    /// (`minLongitude <= maxLongitude`), both in degrees. `cosLatitude` is the point's cached cos φ0.
    ///
    /// If the point's meridian crosses the rectangle, the answer is the latitude gap. Otherwise the nearest
    /// point is on the edge meridian nearer in longitude (for a fixed latitude, distance grows with |Δλ|, so
    /// no point of a parallel edge beats that edge's corner). On that meridian cos σ(φ) = sin φ0 sin φ +
    /// cos φ0 cos Δλ cos φ = R cos(φ − φ*), with φ* = atan2(sin φ0, cos φ0 cos Δλ): the nearest point is φ* when
    /// it lies on the edge, otherwise one of the edge's ends.
    static func minimumHaversine(
        latitude: Double, longitude: Double, cosLatitude: Double,
        minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double
    ) -> Double {
        let insideLongitudes = (longitude >= minLongitude && longitude <= maxLongitude)
            || (longitude == 180 && minLongitude == -180) || (longitude == -180 && maxLongitude == 180)
        if insideLongitudes {
            if latitude < minLatitude { return haversine(ofAngle: (minLatitude - latitude) * radiansPerDegree) }
            if latitude > maxLatitude { return haversine(ofAngle: (latitude - maxLatitude) * radiansPerDegree) }
            return 0
        }
        let toWest = angularGapDegrees(longitude, minLongitude)
        let toEast = angularGapDegrees(longitude, maxLongitude)
        let gap = min(toWest, toEast) * radiansPerDegree
        let footLatitude = atan2(sin(latitude * radiansPerDegree), cosLatitude * cos(gap)) / radiansPerDegree
        func hav(_ edgeLatitude: Double) -> Double {
            let sinHalfDLat = sin((edgeLatitude - latitude) * (radiansPerDegree / 2))
            let sinHalfDLon = sin(gap / 2)
            return sinHalfDLat * sinHalfDLat + cosLatitude * cos(edgeLatitude * radiansPerDegree) * sinHalfDLon * sinHalfDLon
        }
        let h: Double
        if footLatitude >= minLatitude, footLatitude <= maxLatitude {
            h = hav(footLatitude)
        } else {
            h = min(hav(minLatitude), hav(maxLatitude))
        }
        return h
    }

    /// |a − b| in degrees, the short way round: in [0, 180].
    @inline(__always)
    static func angularGapDegrees(_ a: Double, _ b: Double) -> Double {
        let d = abs(a - b)
        return d > 180 ? 360 - d : d
    }
}
