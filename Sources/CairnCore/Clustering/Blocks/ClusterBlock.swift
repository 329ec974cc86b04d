/// A whole cell of a low zoom's block grid that a query's box covers: entries that `clusters(in:zoom:)` gives one
/// after another, so that a writer can keep their bytes joined and copy them as one piece.
/// (`ClusterIndex.forEachPart`; `ClusterIndex.forEachEntry(in:_:)` lists its entries.)
public struct ClusterBlock {
    /// The level (zoom, clamped to the index's zooms) whose grid holds the cell, `0...ClusterIndex.blockLevelLimit`.
    public let level: Int
    /// The cell's number within its level's grid, `0..<cellCount`: the same cell of the same index value always
    /// holds the same entries, in the same order.
    public let cell: Int
    /// How many cells the level's grid has.
    public let cellCount: Int
    /// The grid and the cell's positions in it.
    let grid: ClusterLevelGrid
    let positions: Range<Int>

    /// How many entries the cell holds (at least one).
    /// - Complexity: O(1).
    public var entryCount: Int { positions.count }
}
