import CairnCore

/// Where a tile export writes: tiles one at a time, then the metadata and the file put in place at once.
///
/// A writer writes under a temporary name beside its path and renames the finished file over the path in
/// `commit(metadata:)`, so a failed or stopped export leaves no half-written archive (and the file that was at the
/// path, if any, as it was); `discard()` removes the temporary file.
public protocol TileArchiveWriter: AnyObject {
    /// Adds one tile: its address and its vector tile bytes, gzip-compressed (as both formats expect tiles of
    /// `format pbf` to be). Tiles come in ascending PMTiles tile id: zoom by zoom, and along the Hilbert curve within
    /// a zoom (`TileAddress.pmtilesTileID`).
    /// - Throws: `TileArchiveError` for a tile out of order, an empty tile or a failed write.
    func append(_ tile: TileAddress, gzippedBytes: [UInt8]) throws(TileArchiveError)

    /// Writes the metadata, finishes the file and renames it over the path.
    /// - Throws: `TileArchiveError.noTiles` when no tile was added, `.file` when a write or the rename fails; the
    ///   temporary file is removed then.
    func commit(metadata: TileArchiveMetadata) throws(TileArchiveError)

    /// Removes the temporary file; the path is left as it was.
    func discard()
}

/// Opens the writer for `path`'s format (`.mbtiles` or `.pmtiles`).
/// - Throws: `TileArchiveError.unknownExtension` for another name, `.file` when the temporary file cannot be made.
/// - Complexity: O(1).
public func openTileArchive(path: String) throws(TileArchiveError) -> any TileArchiveWriter {
    switch try TileArchiveFormat(path: path) {
    case .mbtiles: return try MBTilesWriter(path: path)
    case .pmtiles: return try PMTilesWriter(path: path)
    }
}
