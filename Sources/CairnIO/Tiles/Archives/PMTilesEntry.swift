/// One entry of a PMTiles 3 directory: a run of tiles with the same bytes, or (run length 0) a leaf directory.
struct PMTilesEntry: Equatable {
    /// The first tile id of the run (of the leaf directory, for a leaf).
    var tileID: UInt64
    /// Where the bytes start: in the tile data section, or in the leaf directories section for a leaf.
    var offset: UInt64
    /// How many bytes.
    var length: UInt32
    /// How many consecutive tile ids have these bytes; 0 for a leaf directory.
    var runLength: UInt32
}
