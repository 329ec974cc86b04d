/// How far a tile export has come, reported after each batch of tiles.
public struct TileExportProgress: Sendable {
    /// The zoom being written.
    public let zoom: Int
    /// Tiles of this zoom written so far.
    public let tilesDoneInZoom: Int
    /// Tiles of this zoom in all (every one holds something).
    public let tilesInZoom: Int
    /// Tiles written over all zooms so far.
    public let tilesWritten: Int
    /// Their gzip-compressed bytes.
    public let tileBytes: Int
}
