extension Geohash {
    /// Geohash cells of one precision that together cover a box: the finest precision whose cover has at most
    /// `maxCells` cells.
    ///
    /// The box is closed (edges inside). When `west > east` it crosses the antimeridian and means
    /// `west...180` together with `-180...east`. Because 180 and -180 are the same meridian, a box that reaches
    /// one of them also gets the cells along the other.
    ///
    /// The cover is exactly the set of cells that points of the box encode to: every coordinate in the box has its
    /// `encode(_:precision:)` among the result (so a prefix search over stored hashes misses no point), and every
    /// returned cell holds such a point. That includes a cell whose south or west edge is the box's north or east
    /// edge, since points on that edge encode to it, and a cell at -180 for a box reaching 180 (and the reverse). The result is sorted (string order, which is Z-order),
    /// without duplicates, and depends only on the arguments.
    ///
    /// - Parameters:
    ///   - west: western edge, degrees longitude in [-180, 180].
    ///   - south: southern edge, degrees latitude in [-90, 90].
    ///   - east: eastern edge, degrees longitude in [-180, 180].
    ///   - north: northern edge, degrees latitude in [-90, 90], not below `south`.
    ///   - maxCells: the most cells to return, at least 1; it also bounds the memory used (8 bytes a cell
    ///     while sorting, then the strings).
    /// - Throws: `GeohashError.invalidCoordinate` for an edge that is NaN, infinite or out of range,
    ///   `.southAboveNorth`, or `.tooManyCells` when even precision 1 needs more than `maxCells` cells
    ///   (the whole world needs 32).
    /// - Complexity: O(n log n) for n returned cells, plus O(12) to choose the precision.
    public static func cover(west: Double, south: Double, east: Double, north: Double,
                             maxCells: Int) throws(GeohashError) -> [String] {
        do {
            _ = try Coordinate(latitude: south, longitude: west)
            _ = try Coordinate(latitude: north, longitude: east)
        } catch {
            throw .invalidCoordinate(error)
        }
        guard south <= north else { throw .southAboveNorth(south: south, north: north) }

        let box = _GeohashCoverBox(west: west, south: south, east: east, north: north)
        var best: _GeohashCoverBox.Plan?
        for precision in precisionRange {
            let plan = box.plan(precision: precision)
            guard plan.cellCount <= maxCells else { break }
            best = plan
        }
        guard let best else {
            throw .tooManyCells(needed: box.plan(precision: 1).cellCount, maxCells: maxCells)
        }
        return best.hashes()
    }
}

/// A validated box, located once on the finest grid (30 bits per axis); coarser grids shift those indices,
/// since a geohash's prefix is the cell containing it.
struct _GeohashCoverBox {
    let west, south, east, north: Double
    let southRow, northRow, westColumn, eastColumn: UInt64
    static let finestBits = 30

    init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
        let bits = Self.finestBits
        southRow = _GeohashGrid.index(of: south, lower: -90, upper: 90, bits: bits)
        northRow = _GeohashGrid.index(of: north, lower: -90, upper: 90, bits: bits)
        westColumn = _GeohashGrid.index(of: west, lower: -180, upper: 180, bits: bits)
        eastColumn = _GeohashGrid.index(of: east, lower: -180, upper: 180, bits: bits)
    }

    /// The rows and columns a cover uses at one precision.
    struct Plan {
        let precision: Int
        let rows: ClosedRange<UInt64>
        /// Disjoint, non-adjacent, ascending.
        let columns: [ClosedRange<UInt64>]

        /// Rows times columns; at most 2^60, so it fits an Int.
        var cellCount: Int {
            let columnCount = columns.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound + 1) }
            return Int(rows.upperBound - rows.lowerBound + 1) * columnCount
        }

        func hashes() -> [String] {
            var keys: [UInt64] = []
            keys.reserveCapacity(cellCount)
            for row in rows {
                for range in columns {
                    for column in range {
                        keys.append(_GeohashGrid(row: row, column: column, precision: precision).interleaved)
                    }
                }
            }
            keys.sort()
            return keys.map { _GeohashGrid.text(interleaved: $0, precision: precision) }
        }
    }

    func plan(precision: Int) -> Plan {
        let latitudeShift = UInt64(Self.finestBits - _GeohashGrid.latitudeBits(precision))
        let longitudeShift = UInt64(Self.finestBits - _GeohashGrid.longitudeBits(precision))
        let lastColumn: UInt64 = (1 << UInt64(_GeohashGrid.longitudeBits(precision))) - 1
        let westIndex = westColumn >> longitudeShift
        let eastIndex = eastColumn >> longitudeShift

        var ranges: [ClosedRange<UInt64>]
        if west <= east {
            ranges = [westIndex...eastIndex]
            // ±180 are one meridian: points there may carry either sign, and each sign has its own column.
            if east == 180 { ranges.append(0...0) }
            if west == -180 { ranges.append(lastColumn...lastColumn) }
        } else {
            ranges = [westIndex...lastColumn, 0...eastIndex]
        }
        return Plan(precision: precision,
                    rows: (southRow >> latitudeShift)...(northRow >> latitudeShift),
                    columns: Self.merged(ranges))
    }

    /// Sorts and joins overlapping or adjacent ranges.
    static func merged(_ ranges: [ClosedRange<UInt64>]) -> [ClosedRange<UInt64>] {
        var result: [ClosedRange<UInt64>] = []
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = result.last, range.lowerBound <= last.upperBound + 1 {
                result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                result.append(range)
            }
        }
        return result
    }
}
