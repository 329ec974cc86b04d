/// Why a vector tile could not be encoded as asked.
public enum VectorTileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A layer's extent was zero: tile units would have no size.
    case invalidExtent(UInt32)
    /// A cluster tile's layer extent outside 1...2^30 (`ClusterVectorTileWriter.maxExtent`: up to 2^30, positions
    /// in the buffer stay within a geometry parameter's range).
    case extentOutOfRange(Int)
    /// Two layers of one tile had the same name (MVT 2.1, section 4.1: names are unique within a tile).
    case duplicateLayerName(String)
    /// A geometry had no points (a point geometry needs a MoveTo with a count above zero).
    case emptyGeometry
    /// A multipoint, line or ring held more points than one command integer counts (2^29 - 1).
    case tooManyPoints(Int)
    /// A coordinate, or the step from the previous one, was beyond what a geometry parameter holds: MVT 2.1 (section
    /// 4.3.2) supports parameters from -(2^31 - 1) to 2^31 - 1.
    case coordinateOutOfRange(VectorTilePoint)

    public var description: String {
        switch self {
        case .invalidExtent(let e):
            "a vector tile layer's extent must be at least 1 unit, got \(e)"
        case .extentOutOfRange(let e):
            "a vector tile's extent is a whole number of units from 1 to \(ClusterVectorTileWriter.maxExtent), got \(e)"
        case .duplicateLayerName(let name):
            "a vector tile holds one layer per name; '\(name)' was given twice"
        case .emptyGeometry:
            "a vector tile point geometry needs at least one point"
        case .tooManyPoints(let n):
            "a vector tile multipoint holds at most \(VectorTileCommand.maxCount) points, got \(n)"
        case .coordinateOutOfRange(let p):
            "tile position (\(p.x), \(p.y)) is too far from the previous one for a vector tile: steps must be within ±2147483647 units"
        }
    }
}
