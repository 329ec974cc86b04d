/// The file formats a tile export writes, told by the output's name.
public enum TileArchiveFormat: String, Sendable, CaseIterable {
    /// MBTiles 1.3: an SQLite database, tiles in a `tiles` table with TMS rows (counted from the south).
    case mbtiles
    /// PMTiles 3: one file of a header, Hilbert-ordered directories and tile data, read with HTTP range requests.
    case pmtiles

    /// The format a path's extension names (`.mbtiles` or `.pmtiles`, any case).
    /// - Throws: `TileArchiveError.unknownExtension` for any other name.
    /// - Complexity: O(n) in the path's length.
    public init(path: String) throws(TileArchiveError) {
        let lowered = path.lowercased()
        for format in Self.allCases where lowered.hasSuffix("." + format.rawValue) {
            self = format
            return
        }
        throw .unknownExtension(path: path)
    }
}
