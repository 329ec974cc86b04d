#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CairnCore

/// A plain longitude/latitude rectangle with `west <= east`: what the peers' indexes (SQLite R*Tree, GEOS
/// STRtree) can be asked for. A region across the antimeridian becomes two of them.
struct BenchRect: Hashable, Sendable {
    var west: Double
    var south: Double
    var east: Double
    var north: Double

    /// Whether the point is inside or on the edge.
    /// - Complexity: O(1).
    @inline(__always)
    func contains(longitude: Double, latitude: Double) -> Bool {
        longitude >= west && longitude <= east && latitude >= south && latitude <= north
    }

    /// The rectangles covering `box` exactly, with longitudes 180 and -180 identified (as `BoundingBox`
    /// defines): a box touching one side of the antimeridian also gets the single meridian on the other.
    /// - Complexity: O(1).
    static func covering(_ box: BoundingBox) -> BenchRects {
        covering(west: box.west, south: box.south, east: box.east, north: box.north)
    }

    /// The rectangles covering the region from `west` eastwards to `east` (wrapping when west > east; a
    /// west below -180 or an east above 180 also wraps), latitudes `south...north`.
    /// - Complexity: O(1).
    static func covering(west: Double, south: Double, east: Double, north: Double) -> BenchRects {
        var west = west, east = east
        if east - west >= 360 { return BenchRects(BenchRect(west: -180, south: south, east: 180, north: north)) }
        if west < -180 { west += 360 }
        if east > 180 { east -= 360 }
        if west > east {
            return BenchRects(BenchRect(west: west, south: south, east: 180, north: north),
                              BenchRect(west: -180, south: south, east: east, north: north))
        }
        let main = BenchRect(west: west, south: south, east: east, north: north)
        if west == -180, east < 180 { return BenchRects(main, BenchRect(west: 180, south: south, east: 180, north: north)) }
        if east == 180, west > -180 { return BenchRects(main, BenchRect(west: -180, south: south, east: -180, north: north)) }
        return BenchRects(main)
    }

    /// Rectangles that contain every point within `radiusMeters` of `center` under `model` (a conservative
    /// bound, never too small): the peers' filter before the exact distance.
    ///
    /// On an ellipsoid the squared line element is M² dφ² + p² dλ², with M the meridional radius of
    /// curvature (smallest at the equator, a(1 − e²)) and p the radius of the parallel (smallest at the
    /// highest latitude reached). So a path of length r changes latitude by at most r / M_min and
    /// longitude by at most r / p(φ_max); a circle reaching a pole covers every longitude.
    /// - Complexity: O(1).
    static func covering(circleAround center: Coordinate, radiusMeters: Double, model: DistanceModel) -> BenchRects {
        let (a, e2): (Double, Double) = switch model {
        case .wgs84: (6_378_137.0, (1 / 298.257223563) * (2 - 1 / 298.257223563))
        case .sphere: (DistanceModel.sphereRadiusMeters, 0)
        }
        let degreesPerRadian = 180 / Double.pi
        // Relative and absolute margins against rounding in this bound and in the distance itself.
        let radius = radiusMeters * (1 + 1e-9) + 1e-6
        let latitudeDelta = radius / (a * (1 - e2)) * degreesPerRadian
        let south = center.latitude - latitudeDelta, north = center.latitude + latitudeDelta
        if south <= -90 || north >= 90 {
            return BenchRects(BenchRect(west: -180, south: max(south, -90), east: 180, north: min(north, 90)))
        }
        let highest = max(abs(south), abs(north)) / degreesPerRadian
        let parallelRadius = a * cos(highest) / (1 - e2 * sin(highest) * sin(highest)).squareRoot()
        let longitudeDelta = radius / parallelRadius * degreesPerRadian
        if longitudeDelta >= 180 {
            return BenchRects(BenchRect(west: -180, south: south, east: 180, north: north))
        }
        return covering(west: center.longitude - longitudeDelta, south: south,
                        east: center.longitude + longitudeDelta, north: north)
    }
}
