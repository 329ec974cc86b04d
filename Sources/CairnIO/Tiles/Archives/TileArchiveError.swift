import CairnCore

/// Why a tile archive (MBTiles or PMTiles) could not be written.
public enum TileArchiveError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The output's name ends in neither `.mbtiles` nor `.pmtiles`: the format is told by the name.
    case unknownExtension(path: String)
    /// Tiles must come in ascending PMTiles tile id (zoom by zoom, Hilbert order within one): a caller's error.
    case tilesOutOfOrder(previous: TileAddress, next: TileAddress)
    /// An archive was committed without a tile (PMTiles forbids an empty directory; an export of nothing is a
    /// mistake to report, not a file to write).
    case noTiles(path: String)
    /// A tile had no bytes: empty tiles are not written (PMTiles forbids entries of length 0).
    case emptyTile(TileAddress)
    /// A tile could not be encoded as a vector tile.
    case encoding(TileAddress, VectorTileError)
    /// zlib could not start a stream (out of memory).
    case compressionFailed
    /// A file operation failed: the file, what was done and the system's or SQLite's message.
    case file(path: String, operation: String, message: String)

    public var description: String {
        switch self {
        case .unknownExtension(let path):
            "cannot tell the tile archive format of '\(path)': give a name ending in .mbtiles (SQLite, MBTiles 1.3) or .pmtiles (PMTiles 3)"
        case .tilesOutOfOrder(let previous, let next):
            "tile \(next.zoom)/\(next.x)/\(next.y) came after \(previous.zoom)/\(previous.x)/\(previous.y): an archive takes tiles in ascending PMTiles tile id"
        case .noTiles(let path):
            "\(path): no tile to write: an archive holds at least one"
        case .emptyTile(let tile):
            "tile \(tile.zoom)/\(tile.x)/\(tile.y) has no bytes: empty tiles are left out of an archive"
        case .encoding(let tile, let error):
            "tile \(tile.zoom)/\(tile.x)/\(tile.y): \(error)"
        case .compressionFailed:
            "zlib could not start a gzip stream (out of memory)"
        case .file(let path, let operation, let message):
            "\(path): \(operation) failed: \(message)"
        }
    }
}
