/// Why a geohash operation was refused.
public enum GeohashError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The requested precision (number of characters) is outside `Geohash.precisionRange` (1...12).
    case precisionOutOfRange(Int)
    /// The geohash text is empty.
    case empty
    /// The geohash text has more characters than `Geohash.maxPrecision` (12).
    case tooLong(length: Int)
    /// A character is not in the geohash alphabet (`0`-`9`, `b`-`z` without `i`, `l`, `o`; either case).
    /// `position` counts characters from 1.
    case invalidCharacter(Character, position: Int)
    /// A box corner is not a valid coordinate (NaN, infinite or out of range).
    case invalidCoordinate(CoordinateError)
    /// A box's south edge lies north of its north edge.
    case southAboveNorth(south: Double, north: Double)
    /// Even the coarsest precision needs more cells than allowed to cover the box.
    case tooManyCells(needed: Int, maxCells: Int)

    public var description: String {
        switch self {
        case .precisionOutOfRange(let precision):
            return "geohash precision must be in \(Geohash.precisionRange.lowerBound)...\(Geohash.precisionRange.upperBound), got \(precision)"
        case .empty:
            return "geohash is empty"
        case .tooLong(let length):
            return "geohash has \(length) characters; at most \(Geohash.maxPrecision) are supported"
        case .invalidCharacter(let character, let position):
            return "invalid geohash character \(String(reflecting: String(character))) at position \(position) "
                + "(valid: 0-9 and b-z except i, l, o)"
        case .invalidCoordinate(let error):
            return "invalid box: \(error)"
        case .southAboveNorth(let south, let north):
            return "invalid box: south \(formatNumber(south)) is north of north \(formatNumber(north))"
        case .tooManyCells(let needed, let maxCells):
            return "covering the box needs at least \(needed) cells (at precision 1), but maxCells is \(maxCells)"
        }
    }
}
