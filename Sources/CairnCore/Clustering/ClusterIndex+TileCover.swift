extension ClusterIndex {
    /// The tiles of `zoom` for which `tile(z:x:y:)` has entries, sorted by row and then column: each entry shown
    /// at that zoom is in the tiles whose area, widened by the cluster radius, holds it (up to four tiles, more on
    /// the world's west and east edges, where `tile` also reads across the antimeridian). A tile export writes
    /// these and no other: asking all 4^zoom tiles would cost 16.7 M queries at zoom 12, nearly all empty.
    ///
    /// Each candidate is tested with the very expressions `tile(z:x:y:)` uses to choose its entries, so the set is
    /// exact, not a cover with margins.
    /// - Complexity: O(k log k) for the k entries shown at `zoom`.
    public func occupiedTiles(zoom: Int) -> [TileAddress] {
        guard zoom >= 0, zoom <= TileAddress.maxZoom else { return [] }
        let n = 1 << zoom
        let z2 = Double(n)
        let p = options.radiusPixels / options.extent
        // The wrap-around reads of `tile`: tile 0 also reads x in [1 - p / z2, 1], the last tile x in [0, p / z2].
        let westWrap = UnitXRanges(1 - p / z2, 1), eastWrap = UnitXRanges(0, p / z2)
        var keys: [UInt64] = []
        let h = hierarchy
        /// The rows (or columns) r with (r - p) / z2 <= v <= (r + 1 + p) / z2: candidates one wider on each side
        /// than the arithmetic says, then the exact test.
        func span(_ v: Double) -> (Int, Int) {
            let scaled = v * z2
            let low = max(0, Int(max(-1, (scaled - 1 - p).rounded(.down))) - 1)
            let high = min(n - 1, Int(min(Double(n), (scaled + p).rounded(.down))) + 1)
            return (low, high)
        }
        func inside(_ v: Double, _ r: Int) -> Bool { (Double(r) - p) / z2 <= v && v <= (Double(r) + 1 + p) / z2 }
        h.tree.forEachEntry(x: UnitXRanges(0, 1), y0: -1, y1: 2, zoom: level(forZoom: zoom), hierarchy: h) { _, e in
            let px = h.x(e), py = h.y(e)
            let (rowLow, rowHigh) = span(py)
            guard rowLow <= rowHigh else { return }
            for row in rowLow...rowHigh where inside(py, row) {
                let base = UInt64(row) << 32
                let (columnLow, columnHigh) = span(px)
                if columnLow <= columnHigh {
                    for column in columnLow...columnHigh where inside(px, column) { keys.append(base | UInt64(column)) }
                }
                if westWrap.contains(px) { keys.append(base) }
                if eastWrap.contains(px) { keys.append(base | UInt64(n - 1)) }
            }
        }
        keys.sort()
        var tiles: [TileAddress] = []
        tiles.reserveCapacity(keys.count)
        var previous: UInt64?
        for key in keys where key != previous {
            previous = key
            tiles.append(TileAddress(checkedZoom: zoom, x: Int(key & 0xFFFF_FFFF), y: Int(key >> 32)))
        }
        return tiles
    }
}
