/// The tiles one thread of a tile export encoded in a batch, handed back to the thread that writes them: each
/// written once by its thread before `concurrentPerform` returns, then read by the caller.
final class TileEncodingBatch: @unchecked Sendable {
    /// Position in the batch and gzip-compressed bytes, or the error that stopped the tile.
    var tiles: [(position: Int, bytes: Result<[UInt8], TileArchiveError>)] = []
}
