/// What a tile export wrote.
public struct TileExportSummary: Sendable, Equatable {
    /// Tiles written (empty tiles are not), per zoom from the lowest.
    public var tilesPerZoom: [Int]
    /// The tiles' gzip-compressed bytes in all, before an archive stores identical tiles once.
    public var tileBytes: Int

    /// The tiles written over all zooms.
    /// - Complexity: O(z) for z zooms.
    public var tiles: Int { tilesPerZoom.reduce(0, +) }
}
