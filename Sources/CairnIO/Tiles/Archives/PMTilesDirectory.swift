/// PMTiles 3 directories: entries serialized column by column and gzip-compressed, and the split into a root and
/// leaf directories when one directory would not fit in the archive's first 16 KiB.
///
/// Reference: the PMTiles 3 specification (protomaps/PMTiles, spec/v3/spec.md), "Directory Serialization" and
/// "Directory Hierarchy".
enum PMTilesDirectory {
    /// The most bytes the header and the compressed root directory may take together.
    static let rootLimitBytes = 16_384

    /// The entries as the spec lays them out before compression: their count; then each tile id as the step from
    /// the one before; each run length; each length; each offset as 0 when it follows the previous entry's bytes,
    /// else the offset plus 1. Every number a varint.
    /// - Complexity: O(n).
    static func serialized(_ entries: ArraySlice<PMTilesEntry>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 6 + 10)
        ProtobufWire.appendVarint(UInt64(entries.count), to: &out)
        var last: UInt64 = 0
        for e in entries {
            ProtobufWire.appendVarint(e.tileID - last, to: &out)
            last = e.tileID
        }
        for e in entries { ProtobufWire.appendVarint(UInt64(e.runLength), to: &out) }
        for e in entries { ProtobufWire.appendVarint(UInt64(e.length), to: &out) }
        var previous: PMTilesEntry?
        for e in entries {
            if let p = previous, e.offset == p.offset + UInt64(p.length) {
                ProtobufWire.appendVarint(0, to: &out)
            } else {
                ProtobufWire.appendVarint(e.offset + 1, to: &out)
            }
            previous = e
        }
        return out
    }

    /// `serialized(_:)` compressed with gzip, the archive's internal compression.
    /// - Throws: `TileArchiveError.compressionFailed` when zlib cannot start.
    /// - Complexity: O(n).
    static func compressed(_ entries: ArraySlice<PMTilesEntry>) throws(TileArchiveError) -> [UInt8] {
        let bytes = serialized(entries)
        guard let gzipped = bytes.withUnsafeBytes({ GzipWriter.compressed($0, level: 6) }) else { throw .compressionFailed }
        return gzipped
    }

    /// The root directory and the leaf directories (empty when the root holds every entry) for `entries`, sorted by
    /// tile id: the root alone when it fits beside the header in 16 KiB; else leaves of 4,096 entries, grown by
    /// half until the root of their first tile ids fits.
    /// - Throws: `TileArchiveError.compressionFailed` when zlib cannot start.
    /// - Complexity: O(n) per attempt, O(log n) attempts.
    static func build(_ entries: [PMTilesEntry], headerBytes: Int) throws(TileArchiveError) -> (root: [UInt8], leaves: [UInt8]) {
        let whole = try compressed(entries[...])
        if headerBytes + whole.count <= rootLimitBytes { return (whole, []) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var rootEntries: [PMTilesEntry] = []
            var start = 0
            while start < entries.count {
                let end = min(start + leafSize, entries.count)
                let leaf = try compressed(entries[start..<end])
                rootEntries.append(PMTilesEntry(tileID: entries[start].tileID, offset: UInt64(leaves.count),
                                                length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start = end
            }
            let root = try compressed(rootEntries[...])
            if headerBytes + root.count <= rootLimitBytes { return (root, leaves) }
            leafSize += leafSize / 2
        }
    }
}
