#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A circle query's pre-computed tests: a latitude/longitude bracket that holds every point of the circle,
/// and haversine thresholds that decide most candidates without the exact distance; under `.wgs84`, the chord
/// bound (`GeodesicChord`) decides almost all of the rest.
struct CircleTest {
    let latitude: Double
    let longitude: Double
    let cosLatitude: Double
    let radiusMeters: Double
    let model: DistanceModel
    /// Candidates with hav σ at most this are inside without an exact check (-1: none are).
    let acceptHaversine: Double
    /// Candidates with hav σ above this are outside (2: none are rejected by the bound).
    let rejectHaversine: Double
    /// Twice the inner angle in degrees: no node spanning more latitude than this can be wholly inside.
    let innerDiameterDegrees: Double
    /// Latitude bracket, degrees.
    let south: Double
    let north: Double
    /// Longitude bracket.
    let longitudes: LongitudeRanges

    init(latitude: Double, longitude: Double, radiusMeters: Double, model: DistanceModel) {
        self.latitude = latitude
        self.longitude = longitude
        self.cosLatitude = cos(latitude * Spherical.radiansPerDegree)
        self.radiusMeters = radiusMeters
        self.model = model
        // Global bounds give the band every relevant path stays in; the band's own radii give tighter bounds.
        let globalOuterDegrees = Spherical.latitudeReachDegrees(angle: DistanceBounds(model).outerAngle(radiusMeters: radiusMeters))
        let bounds = DistanceBounds(model, south: latitude - globalOuterDegrees, north: latitude + globalOuterDegrees)
        let inner = bounds.innerAngle(radiusMeters: radiusMeters)
        let outer = bounds.outerAngle(radiusMeters: radiusMeters)
        acceptHaversine = inner < 0 ? -1 : (inner >= .pi ? 2 : Spherical.haversine(ofAngle: inner) - DistanceBounds.haversineMargin)
        rejectHaversine = outer >= .pi ? 2 : Spherical.haversine(ofAngle: outer) + DistanceBounds.haversineMargin
        innerDiameterDegrees = inner <= 0 ? -1 : 2 * inner / Spherical.radiansPerDegree

        // Bracket: |Δφ| ≤ σ for any two points, so latitudes are within `outer` of the centre's; if that reaches
        // a pole every longitude is possible, otherwise |Δλ| ≤ asin(sin σ / cos φ0) (the cap's tangent meridians).
        let outerDegrees = Spherical.latitudeReachDegrees(angle: outer)
        south = max(-90, latitude - outerDegrees)
        north = min(90, latitude + outerDegrees)
        if let halfWidth = Spherical.longitudeReachDegrees(angle: outer, latitude: latitude, cosLatitude: cosLatitude) {
            longitudes = LongitudeRanges(west: Spherical.normalizedLongitude(longitude - halfWidth),
                                         east: Spherical.normalizedLongitude(longitude + halfWidth))
        } else {
            longitudes = .all
        }
    }

    /// The haversine of σ from the centre to a point, using the centre's cached cosine.
    @inline(__always)
    func haversine(_ lat: Double, _ lon: Double) -> Double {
        Spherical.haversine(from: latitude, longitude, cosLatitude: cosLatitude, to: lat, lon)
    }

    /// Whether every point of a node's rectangle is surely within the radius (the containment shortcut).
    ///
    /// When the rectangle spans less than 180° of longitude and both its edge meridians are within 90° of the
    /// centre's, its farthest point from the centre is a corner: along a parallel the distance grows with
    /// |Δλ|, which here peaks at an edge; along an edge meridian cos σ(φ) = R cos(φ − φ*) with |φ*| ≤ 90°
    /// (as cos Δλ ≥ 0), which has no interior minimum on a latitude interval. So four corners inside the
    /// inner bound prove the whole rectangle inside. A cheap necessary test on the latitude span comes first.
    @inline(__always)
    func containsWhole(_ node: PointIndex.Frame) -> Bool {
        guard node.maxLatitude - node.minLatitude <= innerDiameterDegrees,
              node.maxLongitude - node.minLongitude < 180,
              Spherical.angularGapDegrees(node.minLongitude, longitude) <= 90,
              Spherical.angularGapDegrees(node.maxLongitude, longitude) <= 90 else { return false }
        return haversine(node.minLatitude, node.minLongitude) <= acceptHaversine
            && haversine(node.maxLatitude, node.minLongitude) <= acceptHaversine
            && haversine(node.minLatitude, node.maxLongitude) <= acceptHaversine
            && haversine(node.maxLatitude, node.maxLongitude) <= acceptHaversine
    }

    /// Whether a point is within the radius, exactly under the model; counts the exact checks made.
    @inline(__always)
    func contains(_ lat: Double, _ lon: Double, exactChecks: inout Int) -> Bool {
        let h = haversine(lat, lon)
        if h <= acceptHaversine { return true }
        if h > rejectHaversine { return false }
        if let within = chordDecision(lat, lon, haversine: h) { return within }
        exactChecks += 1
        return measure(model, latitude, longitude, lat, lon) <= radiusMeters
    }

    /// Whether the chord bound proves the point (whose hav σ from the centre is `h`) within the radius (true) or
    /// beyond it (false); nil when it cannot (the radius falls inside the bound, or the model is not `.wgs84`,
    /// or σ > π/2).
    @inline(__always)
    func chordDecision(_ lat: Double, _ lon: Double, haversine h: Double) -> Bool? {
        guard model == .wgs84, h <= GeodesicChord.maximumHaversine else { return nil }
        // The centre's chord coordinates are computed here, not per query: few points ever get this far.
        let (axisDistance, height) = GeodesicChord.meridianPlaneMeters(latitude: latitude, cosLatitude: cosLatitude)
        let meters = GeodesicChord.chordMeters(axisDistance, height, longitude, lat, lon,
                                               cosLatitude: cos(lat * Spherical.radiansPerDegree))
        if GeodesicChord.upperBoundMeters(chord: meters) <= radiusMeters { return true }
        if GeodesicChord.lowerBoundMeters(chord: meters) > radiusMeters { return false }
        return nil
    }
}
