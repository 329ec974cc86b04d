import CairnCore

extension TileAddress {
    /// The tile's PMTiles 3 tile id: the tiles of all lower zooms ((4^zoom - 1) / 3), plus the tile's position on
    /// the Hilbert curve that fills its zoom's square. Ids grow zoom by zoom, and tiles near each other on the map
    /// are near each other in the file.
    ///
    /// Reference: the PMTiles 3 specification (protomaps/PMTiles, spec/v3/spec.md), "Entries"; the curve as in
    /// Hilbert's construction (xy to d, rotating each quadrant).
    /// - Complexity: O(zoom).
    public var pmtilesTileID: UInt64 {
        let n = UInt64(1) << UInt64(zoom)
        let before = (n * n - 1) / 3
        var x = UInt64(x), y = UInt64(y)
        var d: UInt64 = 0
        var s = n >> 1
        while s > 0 {
            let rx: UInt64 = x & s == 0 ? 0 : 1
            let ry: UInt64 = y & s == 0 ? 0 : 1
            d += s * s * ((3 * rx) ^ ry)
            // Rotate the quadrant so that the curve's pieces join: flip it for the lower right, then swap the axes.
            if ry == 0 {
                if rx == 1 {
                    x = n - 1 - x
                    y = n - 1 - y
                }
                swap(&x, &y)
            }
            s >>= 1
        }
        return before + d
    }
}
