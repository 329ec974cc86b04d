import CairnCore

/// A query answered by PostGIS instead of the in-memory index (`--engine postgis`), as the store reader receives it.
/// Distances are WGS84 geodesics in metres; the answer is in Cairn's order (a box: feature order; the others:
/// nearest first, ties in feature order).
public enum PushedDownQuery: Sendable, Equatable {
    /// Features inside the box or on its edge (a box across the antimeridian is two boxes).
    case box(BoundingBox)
    /// Features at most `radiusMeters` from `center`, nearest first.
    case around(center: Coordinate, radiusMeters: Double)
    /// The `count` features nearest to `center`, at most `maxDistanceMeters` away when given.
    case nearest(center: Coordinate, count: Int, maxDistanceMeters: Double?)
    /// Features whose circle (location and radius) holds the point, nearest centre first.
    case containing(Coordinate)
}
