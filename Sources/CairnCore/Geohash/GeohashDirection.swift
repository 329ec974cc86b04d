/// The eight directions of a cell's neighbours.
public enum GeohashDirection: String, CaseIterable, Hashable, Sendable {
    case north = "n", northEast = "ne", east = "e", southEast = "se"
    case south = "s", southWest = "sw", west = "w", northWest = "nw"

    /// Rows to move: +1 north, -1 south, 0 otherwise.
    var rowStep: Int {
        switch self {
        case .north, .northEast, .northWest: 1
        case .south, .southEast, .southWest: -1
        case .east, .west: 0
        }
    }

    /// Columns to move: +1 east, -1 west, 0 otherwise.
    var columnStep: Int {
        switch self {
        case .east, .northEast, .southEast: 1
        case .west, .northWest, .southWest: -1
        case .north, .south: 0
        }
    }
}
