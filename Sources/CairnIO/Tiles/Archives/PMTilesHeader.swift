/// The 127-byte header of a PMTiles 3 archive: where each section is, the counts, the compressions, the tile type,
/// the zooms, the bounds and the centre. Integers little-endian; positions as degrees × 10,000,000.
///
/// Reference: the PMTiles 3 specification (protomaps/PMTiles, spec/v3/spec.md), "Header Design".
struct PMTilesHeader {
    /// The header's size in bytes.
    static let byteCount = 127
    /// Compression enum value for gzip (0 unknown, 1 none, 2 gzip, 3 brotli, 4 zstd).
    static let gzip: UInt8 = 2
    /// Tile type enum value for Mapbox Vector Tiles.
    static let mvt: UInt8 = 1

    var rootOffset: UInt64, rootLength: UInt64
    var metadataOffset: UInt64, metadataLength: UInt64
    var leavesOffset: UInt64, leavesLength: UInt64
    var dataOffset: UInt64, dataLength: UInt64
    /// Tiles addressed (the sum of run lengths), tile entries, and distinct tile contents.
    var addressedTiles: UInt64, tileEntries: UInt64, tileContents: UInt64
    var minZoom: UInt8, maxZoom: UInt8
    var west: Double, south: Double, east: Double, north: Double
    var centerZoom: UInt8, centerLongitude: Double, centerLatitude: Double

    /// The 127 bytes: clustered (tile data in tile id order), gzip for directories, metadata and tiles, MVT tiles.
    /// - Complexity: O(1).
    func encoded() -> [UInt8] {
        var out: [UInt8] = Array("PMTiles".utf8)
        out.append(3)
        for value in [rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength,
                      dataOffset, dataLength, addressedTiles, tileEntries, tileContents] {
            withUnsafeBytes(of: value.littleEndian) { out += $0 }
        }
        out += [1, Self.gzip, Self.gzip, Self.mvt, minZoom, maxZoom]
        for degrees in [west, south, east, north] { Self.appendE7(degrees, to: &out) }
        out.append(centerZoom)
        Self.appendE7(centerLongitude, to: &out)
        Self.appendE7(centerLatitude, to: &out)
        return out
    }

    /// Degrees as a signed 32-bit count of 10^-7 degrees (within ±1,800,000,000 for valid coordinates).
    private static func appendE7(_ degrees: Double, to out: inout [UInt8]) {
        let scaled = degrees.isFinite ? Int32(clamping: Int64((max(-360, min(360, degrees)) * 10_000_000).rounded())) : 0
        withUnsafeBytes(of: scaled.littleEndian) { out += $0 }
    }
}
