import Foundation

extension ClusterIndex {
    /// Grid clusters of the viewport, as `GridClustering.clusters(of:viewport:options:)` gives them over every
    /// input point: each point in the cell its own coordinate falls in, each cell's cluster at the mean of its
    /// points. Read from the hierarchy instead of point by point: from a level whose clusters are small beside a
    /// cell, a cluster whose extent (see `ClusterRecord.extent`) lies inside one cell is placed whole at
    /// its centroid, one wholly outside the viewport is skipped, and one that may cross a cell's or the viewport's
    /// edge is opened into its children, down to single points (a point within the rounding of an edge is placed
    /// by its exact projection). Counts and members are exact; a mean is exact but for the rounding of the
    /// positions the index holds (with `.float32` precision, under 2^-24 of the world, about 2 m).
    ///
    /// Members are listed in the order they are placed (round by round, points before clusters, each round in
    /// entry order, then the children of the clusters opened), so an edited index lists them as a rebuild does.
    ///
    /// When the options allow (`GridClusterOptions.parallel`) and the machine has two processors, a viewport
    /// expected to hold more than `parallelPointThreshold` points (the index's points times the share of the map it
    /// shows) is read in two bands of rows at once, the north half of the rows and the south half, on two threads;
    /// otherwise in one pass. Each cell sees the same entries in the same order either way, so the answer is the
    /// same bit for bit.
    /// - Complexity: O(log e + k) for the k entries read (put in entry order by a radix sort): those of the level in
    ///   view, plus the children of the clusters opened (those near cell edges), plus the grid's own cost.
    public func gridClusters(in viewport: Viewport, options gridOptions: GridClusterOptions = .standard) -> [GridCluster] {
        gridClusters(in: viewport, options: gridOptions, splitRow: nil)
    }

    /// `gridClusters(in:options:)` in one pass (`splitRow` 0, or a grid of one row), in two bands of rows split
    /// before `splitRow` (clamped to the rows, so that neither is empty), or as it chooses (nil).
    /// - Complexity: as `gridClusters(in:options:)`; two bands read the entries near the row they share twice.
    func gridClusters(in viewport: Viewport, options gridOptions: GridClusterOptions, splitRow: Int?) -> [GridCluster] {
        let layout = GridCellLayout(viewport: viewport, cellSizePixels: gridOptions.cellSizePixels)
        // Pixels per unit along the axis that magnifies most: a cluster must be small on screen in both directions.
        let scale = max(layout.scaleX, layout.scaleY)
        let level = (options.minZoom...options.maxZoom).first { zoom in
            options.unitRadius(zoom: zoom) * scale <= gridOptions.cellSizePixels / Self.gridCellsPerRadius
        } ?? options.maxZoom + 1
        let parallel = gridOptions.parallel && Self.hasTwoProcessors && Double(count) * layout.mapShare > Self.parallelPointThreshold
        guard layout.rowCount > 1, splitRow ?? (parallel ? 1 : 0) > 0 else {
            return gridBand(viewport, GridClustering(layout: layout, options: gridOptions), level: level).clusters()
        }
        let split = min(max(1, splitRow ?? layout.rowCount / 2), layout.rowCount - 1)
        // Each band's cells, or (without a merge pass, which runs across them) its clusters, made on its thread.
        func banded<T: Sendable>(_ finish: @escaping @Sendable (GridClustering) -> [T]) -> [T] {
            @Sendable func band(_ rows: Range<Int>) -> GridClustering {
                gridBand(viewport, GridClustering(layout: layout.band(rows), options: gridOptions), level: level)
            }
            let (a, b) = forkJoin({ finish(band(0..<split)) }, { finish(band(split..<layout.rowCount)) })
            return a + b
        }
        guard gridOptions.mergeOverlapping else { return banded { $0.clusters() } }
        return GridClustering.clusters(ofCells: banded { $0.cellClusters() }, layout: layout, options: gridOptions)
    }

    /// Points a viewport is expected to hold (the index's points times the share of the unit square it shows)
    /// above which `gridClusters` reads it on two threads. The hand-off and the bands' unequal work cost tens of
    /// microseconds, more than they save below a few tenths of a millisecond of work (10,000 was slower on
    /// GeoNames at zoom 4; docs/PERFORMANCE.md has the runs).
    static let parallelPointThreshold = 20_000.0

    /// Whether the machine has a second processor for `gridClusters` (asked once: on Linux the count is read from
    /// a file).
    static let hasTwoProcessors = ProcessInfo.processInfo.activeProcessorCount > 1

    /// `empty` (a grid over the viewport's rows, or a band of them) filled from the hierarchy's `level` down.
    /// - Complexity: see `gridClusters(in:options:)`.
    private func gridBand(_ viewport: Viewport, _ empty: GridClustering, level: Int) -> GridClustering {
        let h = hierarchy
        var grid = empty
        // Every entry of the level whose points may fall in the band: its position within the level's largest
        // extent of the band, widened a little more for the rounding of the band's edges.
        let reach = largestExtent(atLevel: level), band = grid.layout.bandY
        let y0 = band.lowerBound - reach * (1 + 1e-9) - 1e-12, y1 = band.upperBound + reach * (1 + 1e-9) + 1e-12
        var found: [UInt32] = []
        h.tree.search(x: UnitXRanges(viewport.box, widenedBy: reach), y0: y0, y1: y1, zoom: level, hierarchy: h) { e in
            found.append(UInt32(e))
        }
        // Breadth first from the level's entries in entry order, not the tree's (which edits change): the sums, and
        // so the means, come out bit for bit as a rebuild's. Points and clusters go in lists of their own, read in
        // loops that ask for each row a few dozen entries ahead, so that the scattered loads overlap.
        let sorted = Self.sortedEntries(found)
        var (points, clusters) = Self.split(count: sorted.count, leafCount: h.leafCount) { emit in sorted.forEach(emit) }
        while !points.isEmpty || !clusters.isEmpty {
            // Each round's rows are gathered first, in loops without branches: a branch on a freshly loaded row
            // makes the loads after it wait.
            _ = grid.place(GridPointEntries(entries: points, positions: Self.positions(of: points, in: h),
                                            coordinates: self.points.coordinates, reach: h.pointExtent)) // all placed
            let opened = grid.place(GridClusterEntries(entries: clusters, records: Self.records(of: clusters, in: h),
                                                       zooms: h.topZoom))
            (points, clusters) = Self.children(of: opened.map { Int(clusters[$0]) - h.leafCount }, in: h)
        }
        return grid
    }

    /// The held positions of points `entries`, gathered in one pass.
    /// - Complexity: O(k) for k entries.
    private static func positions(of entries: [UInt32], in h: ClusterHierarchy) -> [ClusterPosition] {
        h.leafPositions.withUnsafeBufferPointer { table in gather(entries, offset: 0, from: table) }
    }

    /// The records of clusters `entries`, gathered in one pass (one cache line each).
    /// - Complexity: O(k) for k entries.
    private static func records(of entries: [UInt32], in h: ClusterHierarchy) -> [ClusterRecord] {
        h.clusters.withUnsafeBufferPointer { table in
            h.topZoom.withUnsafeBufferPointer { zooms in
                // The zoom of a cluster placed whole is read for its id soon after.
                gather(entries, offset: h.leafCount, from: table) { e in zooms.prefetch(e) }
            }
        }
    }

    /// `table[e - offset]` for each entry e, in one array, each row asked for `prefetchDistance` entries ahead: the
    /// rows lie at scattered places in tables of up to millions, and a load from memory takes about as long as a few
    /// dozen rows' work. `visit` sees each entry as its row is read.
    /// - Complexity: O(k) for k entries.
    @inline(__always)
    private static func gather<Row>(_ entries: [UInt32], offset: Int, from table: UnsafeBufferPointer<Row>,
                                    _ visit: (Int) -> Void = { _ in }) -> [Row] {
        .init(unsafeUninitializedCapacity: entries.count) { buffer, initialized in
            for (k, e) in entries.lazy.map(Int.init).enumerated() {
                if k + prefetchDistance < entries.count { table.prefetch(Int(entries[k + prefetchDistance]) - offset) }
                visit(e)
                buffer.initializeElement(at: k, to: table[e - offset])
            }
            initialized = entries.count
        }
    }

    /// The children of clusters `opened` (entry - leafCount), in order, as points and as clusters.
    /// - Complexity: O(c) for c children.
    private static func children(of opened: [Int], in h: ClusterHierarchy) -> (points: [UInt32], clusters: [UInt32]) {
        let lists = opened.map { h.childRange(ofCluster: $0) }
        return h.children.withUnsafeBufferPointer { children in
            split(count: lists.reduce(0) { $0 + $1.count }, leafCount: h.leafCount) { emit in
                for (k, list) in lists.enumerated() {
                    if k + prefetchDistance < lists.count { children.prefetch(lists[k + prefetchDistance].lowerBound) }
                    for i in list { emit(children[i]) }
                }
            }
        }
    }

    /// The `count` entries that `entries` emits, as points and as clusters, each in the order emitted. Each entry
    /// is written to both lists and counted in one, without a branch: a branch on each freshly loaded entry made
    /// every load wait for the one before.
    /// - Complexity: O(k) for k entries.
    @inline(__always)
    private static func split(count: Int, leafCount n: Int, _ entries: ((UInt32) -> Void) -> Void) -> (points: [UInt32], clusters: [UInt32]) {
        let leafCount = UInt32(n)
        var clusters: [UInt32] = []
        let points = [UInt32](unsafeUninitializedCapacity: count) { points, pointCount in
            clusters = [UInt32](unsafeUninitializedCapacity: count) { clusters, clusterCount in
                // After k entries p + c = k < count: both writes stay in the buffers.
                var p = 0, c = 0
                entries { e in
                    points[p] = e
                    clusters[c] = e
                    let isPoint = e < leafCount ? 1 : 0
                    p += isPoint
                    c += 1 - isPoint
                }
                (pointCount, clusterCount) = (p, c)
            }
        }
        return (points, clusters)
    }

    /// How many rows ahead a gather asks for a row (16 to 32 measured best for the zoom-4 grid on the million).
    static let prefetchDistance = 32

    /// How many cluster radii of the level read fit across a grid cell, at least: most of its clusters then lie
    /// inside one cell, and few are opened.
    static let gridCellsPerRadius = 4.0

    /// An upper bound on the extent (along either axis) of the entries shown at `level`: a point's is the rounding
    /// s; a cluster formed at zoom z reaches its children within 2·(r(z) + s) of its centroid, and theirs (formed at
    /// z + 1 or above) beyond them, so at most 4·r(z) + (2·(maxZoom − z + 1) + 1)·s. Storage rounds each level's
    /// bound up by a factor of at most 1 + ε (ε = 2^-7, `ClusterExtent.roundingFactor`), which compounds down the
    /// levels to at most (1 + ε)/(1 − ε) of that sum (under 1.016), widened a little more for the sums' own rounding.
    func largestExtent(atLevel level: Int) -> Double {
        let s = options.precision.roundingReach
        guard level <= options.maxZoom else { return s * (1 + 1e-6) + 1e-15 }
        let compounded = ClusterExtent.roundingFactor / (2 - ClusterExtent.roundingFactor) * (1 + 1e-6)
        return (4 * options.unitRadius(zoom: level) + Double(2 * (options.maxZoom - level + 1) + 1) * s) * compounded + 1e-15
    }

    /// Entry numbers in ascending order, by 11-bit counting passes, as many as the largest entry has digits (up to
    /// three; a comparison sort cost a quarter of a grid query's instructions).
    /// - Complexity: O(k + 2^11) per pass for k entries.
    static func sortedEntries(_ entries: [UInt32]) -> [UInt32] {
        guard entries.count > 64 else { return entries.sorted() }
        var source = entries, target = [UInt32](repeating: 0, count: entries.count)
        var counts = [Int](repeating: 0, count: 2049)
        // Only the digits the largest entry has (two passes below 2^22 entries).
        let bits = UInt32(32 - (entries.max() ?? 0).leadingZeroBitCount)
        for shift in stride(from: UInt32(0), to: bits, by: 11) {
            // In buffers: the array accesses' checks cost as much as the sort itself.
            let moved = counts.withUnsafeMutableBufferPointer { counts in
                source.withUnsafeBufferPointer { source in
                    target.withUnsafeMutableBufferPointer { target in
                        counts.update(repeating: 0)
                        for e in source { counts[Int((e >> shift) & 0x7FF) + 1] += 1 }
                        if counts[1] == source.count { return false } // every digit 0 here: already in order
                        for i in 1..<counts.count { counts[i] += counts[i - 1] }
                        for e in source {
                            let d = Int((e >> shift) & 0x7FF)
                            target[counts[d]] = e
                            counts[d] += 1
                        }
                        return true
                    }
                }
            }
            if moved { swap(&source, &target) }
        }
        return source
    }
}

/// The points of one round of `ClusterIndex.gridClusters`: placed by their held positions, or by their exact
/// projections when those are within the rounding of an edge.
private struct GridPointEntries: GridEntrySource {
    /// The points (input positions).
    let entries: [UInt32]
    /// The held position of each entry.
    let positions: [ClusterPosition]
    /// Every input coordinate, for the exact rule.
    let coordinates: [Coordinate]
    /// How far a held position may lie from the exact projection.
    let reach: Double

    var count: Int { entries.count }

    @inline(__always)
    func entry(_ k: Int) -> (x: Double, y: Double, reachX: Double, reachY: Double, weight: Int) {
        (positions[k].x, positions[k].y, reach, reach, 1)
    }

    @inline(__always)
    func member(_ k: Int) -> ClusterNode.Content { .point(Int(entries[k])) }

    @inline(__always)
    func exactCoordinate(_ k: Int) -> Coordinate? { coordinates[Int(entries[k])] }
}

/// The clusters of one round of `ClusterIndex.gridClusters`: placed by their records; those that may fall in
/// several cells are opened.
private struct GridClusterEntries: GridEntrySource {
    /// The clusters (entries).
    let entries: [UInt32]
    /// The record of each entry.
    let records: [ClusterRecord]
    /// Every entry's zoom (`ClusterHierarchy.topZoom`), for the ids of clusters placed whole.
    let zooms: [UInt8]

    var count: Int { entries.count }

    @inline(__always)
    func entry(_ k: Int) -> (x: Double, y: Double, reachX: Double, reachY: Double, weight: Int) {
        (records[k].x, records[k].y, records[k].extent.x, records[k].extent.y, Int(records[k].weight))
    }

    @inline(__always)
    func member(_ k: Int) -> ClusterNode.Content {
        .cluster(ClusterID(zoom: Int(zooms[Int(entries[k])]), origin: Int(records[k].origin)))
    }

    @inline(__always)
    func exactCoordinate(_ k: Int) -> Coordinate? { nil }
}
