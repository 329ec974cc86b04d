/// Geohash: a coordinate as a short base-32 string naming a latitude/longitude cell
/// (Gustavo Niemeyer, geohash.org, 2008).
///
/// A geohash of `p` characters carries `5p` bits that alternate between longitude and latitude, longitude first:
/// each bit halves the current interval (`-180...180` or `-90...90`) and says whether the value lies in the upper
/// half. Longitude gets `ceil(5p/2)` bits and latitude `floor(5p/2)`. Strings sort like the cells' Z-order, and a
/// hash's prefixes name the cells that contain it.
///
/// Conventions:
/// - Cells are half-open: a point on a boundary between two cells belongs to the cell to its north or east.
///   The top row includes latitude 90 and the last column includes longitude 180, so every valid coordinate,
///   the edges included, has exactly one cell at each precision. Longitude -180 falls in the first column.
/// - Precision is 1...12 characters: 60 bits, so every cell edge and centre is an exact `Double`.
/// - Input may be upper or lower case; output is always lower case (the alphabet `0123456789bcdefghjkmnpqrstuvwxyz`).
public enum Geohash {
    /// The most characters a geohash may have here (60 bits: 30 for each axis).
    public static let maxPrecision = 12
    /// The accepted precisions, in characters.
    public static let precisionRange: ClosedRange<Int> = 1...maxPrecision

    /// The geohash of `coordinate` with `precision` characters.
    ///
    /// Exact at cell boundaries: each bit compares with the interval's midpoint, which is an exact `Double`, and a
    /// value equal to the midpoint goes to the upper half. Latitude 90 and longitude 180 land in the last row and column.
    /// - Throws: `GeohashError.precisionOutOfRange` unless `precision` is in 1...12.
    /// - Complexity: O(precision).
    public static func encode(_ coordinate: Coordinate, precision: Int) throws(GeohashError) -> String {
        guard precisionRange.contains(precision) else { throw .precisionOutOfRange(precision) }
        return _GeohashGrid(coordinate, precision: precision).hash
    }

    /// The cell named by `hash`: its south, west, north and east edges and its centre.
    ///
    /// Upper case is accepted (`EZS42` is `ezs42`); the returned cell's `hash` is lower case.
    /// - Throws: `GeohashError.empty`, `.tooLong` (more than 12 characters) or `.invalidCharacter` naming the
    ///   character and its position (from 1).
    /// - Complexity: O(hash length).
    public static func decode(_ hash: String) throws(GeohashError) -> GeohashCell {
        try _GeohashGrid(hash: hash).cell
    }
}
