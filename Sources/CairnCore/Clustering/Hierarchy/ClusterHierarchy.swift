/// The built levels of a `ClusterIndex`, stored flat.
///
/// Entries `0..<leafCount` are the input points in input order; the rest are clusters, created level by level
/// from `maxZoom + 1` (groups of identical points) down to `minZoom`, each level in its origins' order. An entry is
/// shown at the zooms `lowZoom...topZoom` (an empty range for points inside a group of identical points).
struct ClusterHierarchy: Sendable {
    static let noParent = UInt32.max

    var leafCount: Int
    /// The lowest zoom built: entries never absorbed show down to it.
    let minZoom: UInt8
    /// `maxZoom + 1`: the zoom of the points and of the groups of identical points.
    let groupZoom: UInt8
    /// Web Mercator position of the points (shared with `ClusterPoints`, not copied).
    var leafPositions: [ClusterPosition]
    /// The clusters' rows (entry - leafCount), one record each.
    var clusters: [ClusterRecord] = []
    /// How far a point's exact projection may lie from its position as held (the precision's rounding).
    let pointExtent: Double
    /// `pointExtent` on both axes, as a cluster's extent is held.
    let pointBounds: ClusterExtent
    /// The highest zoom at which the entry shows (`maxZoom + 1` for points).
    var topZoom: [UInt8] = []
    /// The lowest zoom at which the entry shows (one above its parent's zoom, or `minZoom`).
    var lowZoom: [UInt8] = []
    /// The entry of the cluster that absorbed this one, or `noParent`.
    var parent: [UInt32] = []
    /// Clusters (entry - leafCount) ordered by origin within each zoom's range; empty when creation order already
    /// is (always so with `minPoints` <= 2, where every level is in origin order).
    var byOrigin: [UInt32] = []
    /// Children of every cluster, each cluster's in the order of the level above (see `childRange(ofCluster:)`).
    var children: [UInt32] = []
    /// Per zoom (0...zoomLimit + 1): the first cluster created at that zoom and one past its last.
    var clustersAtZoom: [Range<Int>] = Array(repeating: 0..<0, count: ClusterOptions.zoomLimit + 2)
    /// Aggregates per cluster.
    var aggregates: ClusterAggregateTable
    /// The query tree over all entries that show at some zoom.
    var tree = ClusterTree()
    /// Entries the build's neighbour scans visited (`ClusterLevelBuilder.neighbourVisits`, debug builds only): its
    /// work, counted.
    private(set) var buildNeighbourVisits = 0

    var clusterCount: Int { clusters.count }

    /// Points and clusters.
    var entryCount: Int { leafCount + clusters.count }

    /// Web Mercator x of entry `e`.
    @inline(__always)
    func x(_ e: Int) -> Double { e < leafCount ? leafPositions[e].x : clusters[e - leafCount].x }

    /// Web Mercator y of entry `e`.
    @inline(__always)
    func y(_ e: Int) -> Double { e < leafCount ? leafPositions[e].y : clusters[e - leafCount].y }

    /// Points held by entry `e` (1 for a point).
    @inline(__always)
    func weight(_ e: Int) -> UInt32 { e < leafCount ? 1 : clusters[e - leafCount].weight }

    /// Where the children of cluster `c` (entry - leafCount) lie in `children`.
    @inline(__always)
    func childRange(ofCluster c: Int) -> Range<Int> {
        (c == 0 ? 0 : Int(clusters[c - 1].childEnd))..<Int(clusters[c].childEnd)
    }

    var memoryBytes: Int {
        clusters.capacity * MemoryLayout<ClusterRecord>.stride + topZoom.capacity + lowZoom.capacity
            + parent.capacity * 4 + byOrigin.capacity * 4 + children.capacity * 4 + aggregates.memoryBytes + tree.memoryBytes
    }

    /// The entry of a cluster id, found by binary search among the clusters of its zoom.
    /// - Complexity: O(log c) in the number of clusters at that zoom.
    func entry(of id: ClusterID) -> Int? {
        let zoom = id.zoom
        guard zoom < clustersAtZoom.count else { return nil }
        var lo = clustersAtZoom[zoom].lowerBound, hi = clustersAtZoom[zoom].upperBound
        let target = UInt32(truncatingIfNeeded: id.origin)
        guard id.origin <= Int(UInt32.max) else { return nil }
        @inline(__always) func at(_ k: Int) -> Int { byOrigin.isEmpty ? k : Int(byOrigin[k]) }
        while lo < hi {
            let mid = (lo + hi) / 2
            if clusters[at(mid)].origin < target { lo = mid + 1 } else { hi = mid }
        }
        guard lo < clustersAtZoom[zoom].upperBound, clusters[at(lo)].origin == target else { return nil }
        return leafCount + at(lo)
    }

    /// Whether entry `e` is a group of points at one location (a cluster formed above `maxZoom`).
    @inline(__always)
    func isIdenticalGroup(_ e: Int) -> Bool { e >= leafCount && topZoom[e] == groupZoom }

    /// The origin of entry `e`: its own input position for a point, the stored origin for a cluster.
    @inline(__always)
    func originKey(ofEntry e: Int) -> Int { e < leafCount ? e : Int(clusters[e - leafCount].origin) }

    /// Fills `byOrigin` when some zoom's clusters were not created in origin order.
    private mutating func indexOrigins() {
        let sorted = clustersAtZoom.allSatisfy { range in
            range.count < 2 || zip(range.dropLast(), range.dropFirst()).allSatisfy { clusters[$0].origin < clusters[$1].origin }
        }
        guard !sorted else { return }
        var permutation = (0..<UInt32(clusters.count)).map { $0 }
        for range in clustersAtZoom where range.count > 1 {
            permutation[range].sort { clusters[Int($0)].origin < clusters[Int($1)].origin }
        }
        byOrigin = permutation
    }

    /// The id of a cluster entry.
    func id(ofEntry e: Int) -> ClusterID {
        ClusterID(zoom: Int(topZoom[e]), origin: Int(clusters[e - leafCount].origin))
    }

    /// The children entries of cluster entry `e`.
    func childEntries(of e: Int) -> ArraySlice<UInt32> {
        children[childRange(ofCluster: e - leafCount)]
    }

    /// Builds every level for the points (see `ClusterLevelBuilder`).
    /// - Complexity: O(n) once, plus O(a) expected per level for the a entries that may have a neighbour there
    ///   (points that nothing lies near are left out), whatever `minPoints`; with `minPoints` >= 3 also O(n log n)
    ///   expected per level (`ClusterLevelBuilder.build`).
    init(points: ClusterPoints, options: ClusterOptions) {
        let n = points.count
        leafCount = n
        minZoom = UInt8(options.minZoom)
        groupZoom = UInt8(options.maxZoom + 1)
        pointExtent = options.precision.roundingReach
        pointBounds = ClusterExtent(x: pointExtent, y: pointExtent)
        aggregates = ClusterAggregateTable(points: points)
        leafPositions = points.positions
        topZoom = [UInt8](repeating: groupZoom, count: n)
        lowZoom = [UInt8](repeating: UInt8(options.minZoom), count: n)
        parent = [UInt32](repeating: Self.noParent, count: n)

        var builder = ClusterLevelBuilder(options: options)
        builder.build(points, into: &self)
        buildNeighbourVisits = builder.neighbourVisits
        compact()
        indexOrigins()
        tree = ClusterTree(hierarchy: self)
    }

    /// Drops the spare capacity the appends left.
    private mutating func compact() {
        func exact<T>(_ a: [T]) -> [T] { a.withUnsafeBufferPointer { Array($0) } }
        clusters = exact(clusters)
        topZoom = exact(topZoom)
        lowZoom = exact(lowZoom)
        parent = exact(parent)
        children = exact(children)
    }

    /// How far from entry `e`'s position its points' exact projections may lie along each axis (unit-square units).
    @inline(__always)
    func extent(_ e: Int) -> ClusterExtent { e < leafCount ? pointBounds : clusters[e - leafCount].extent }

    /// The extent of a cluster at (cx, cy) over its `count` children (`child(k)`: position and extent): along each
    /// axis, the largest distance to a child (x the shorter way round) plus that child's bound, a bound by the
    /// triangle inequality. The builder and the incremental edits both make extents here, so they agree bit for bit
    /// (the builder gives a group of identical points `pointBounds` directly: its members share one position, so
    /// this gives the same).
    /// - Complexity: O(count).
    @inline(__always)
    static func extent(ofClusterAtX cx: Double, y cy: Double, count: Int,
                       child: (Int) -> (x: Double, y: Double, extent: ClusterExtent)) -> ClusterExtent {
        var reachX = 0.0, reachY = 0.0
        for k in 0..<count {
            let c = child(k)
            reachX = max(reachX, ClusterNeighbourGrid.wrappedDistance(cx, c.x) + c.extent.x)
            reachY = max(reachY, abs(cy - c.y) + c.extent.y)
        }
        return ClusterExtent(x: reachX, y: reachY)
    }

    /// Appends a cluster entry (the caller then appends its children and closes it).
    mutating func appendCluster(x cx: Double, y cy: Double, extent: ClusterExtent, weight w: UInt32, zoom: Int, origin o: Int) -> Int {
        let e = entryCount
        clusters.append(ClusterRecord(x: cx, y: cy, extent: extent, weight: w, origin: UInt32(o), childEnd: UInt32(children.count)))
        topZoom.append(UInt8(zoom))
        lowZoom.append(minZoom)
        parent.append(Self.noParent)
        if clustersAtZoom[zoom].isEmpty { clustersAtZoom[zoom] = (e - leafCount)..<(e - leafCount) }
        clustersAtZoom[zoom] = clustersAtZoom[zoom].lowerBound..<(e - leafCount + 1)
        return e
    }

    /// Records `child` as a child of cluster entry `e` formed at `zoom`.
    mutating func adopt(_ child: Int, by e: Int, zoom: Int) {
        parent[child] = UInt32(e)
        lowZoom[child] = UInt8(zoom + 1)
        children.append(UInt32(child))
    }

    /// Closes the child list of the cluster appended last.
    mutating func closeCluster() {
        clusters[clusters.count - 1].childEnd = UInt32(children.count)
    }
}

