extension Geohash {
    /// The cells of the same precision around `hash`, keyed by direction.
    ///
    /// East and west wrap across the antimeridian (the neighbour east of a cell ending at 180 starts at -180).
    /// The top row touches the north pole and has no cell to its north, so `.north`, `.northEast` and
    /// `.northWest` are absent there; likewise `.south`, `.southEast` and `.southWest` in the bottom row.
    /// Every other cell has all eight. Upper-case input is accepted; results are lower case.
    /// - Throws: the same errors as `decode(_:)`.
    /// - Complexity: O(hash length).
    public static func neighbors(_ hash: String) throws(GeohashError) -> [GeohashDirection: String] {
        let grid = try _GeohashGrid(hash: hash)
        var result: [GeohashDirection: String] = [:]
        result.reserveCapacity(GeohashDirection.allCases.count)
        for direction in GeohashDirection.allCases {
            if let neighbor = grid.neighbor(direction) { result[direction] = neighbor.hash }
        }
        return result
    }
}

extension _GeohashGrid {
    /// The adjacent cell in `direction`, wrapping east-west; nil beyond a pole.
    func neighbor(_ direction: GeohashDirection) -> _GeohashGrid? {
        var newRow = row
        switch direction.rowStep {
        case 1:
            guard row + 1 < rowCount else { return nil }
            newRow = row + 1
        case -1:
            guard row > 0 else { return nil }
            newRow = row - 1
        default:
            break
        }
        // columnCount is a power of two, so masking wraps both ways (0 - 1 wraps to all ones).
        let newColumn = (column &+ UInt64(bitPattern: Int64(direction.columnStep))) & (columnCount - 1)
        return _GeohashGrid(row: newRow, column: newColumn, precision: precision)
    }
}
