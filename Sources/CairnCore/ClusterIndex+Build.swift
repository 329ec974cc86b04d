/// The built levels of a `ClusterIndex`, stored flat.
///
/// Entries `0..<leafCount` are the input points in input order; the rest are clusters, created level by level
/// from `maxZoom + 1` (groups of identical points) down to `minZoom`, each level in its origins' order. An entry is
/// shown at the zooms `lowZoom...topZoom` (an empty range for points inside a group of identical points).
struct ClusterHierarchy: Sendable {
    static let noParent = UInt32.max

    let leafCount: Int
    /// The lowest zoom built: entries never absorbed show down to it.
    let minZoom: UInt8
    /// Web Mercator position of the points (shared with `ClusterPoints`, not copied).
    let leafX: [Double]
    let leafY: [Double]
    /// Web Mercator position of the clusters (weighted centroids, x wrapped into [0, 1)).
    var clusterX: [Double] = []
    var clusterY: [Double] = []
    /// Points held.
    var weight: [UInt32] = []
    /// The highest zoom at which the entry shows (`maxZoom + 1` for points).
    var topZoom: [UInt8] = []
    /// The lowest zoom at which the entry shows (one above its parent's zoom, or `minZoom`).
    var lowZoom: [UInt8] = []
    /// The entry of the cluster that absorbed this one, or `noParent`.
    var parent: [UInt32] = []
    /// Per cluster (entry - leafCount): its origin, the input position of the point it grew from (the origin
    /// entry's own origin, down to a point).
    var origin: [UInt32] = []
    /// Clusters (entry - leafCount) ordered by origin within each zoom's range; empty when creation order already
    /// is (always so with `minPoints` <= 2, where every level is in origin order).
    var byOrigin: [UInt32] = []
    /// Per cluster: where its children start in `children` (one more than there are clusters).
    var childStart: [UInt32] = [0]
    /// Children of every cluster, each cluster's in the order of the level above.
    var children: [UInt32] = []
    /// Per zoom (0...zoomLimit + 1): the first cluster created at that zoom and one past its last.
    var clustersAtZoom: [Range<Int>] = Array(repeating: 0..<0, count: ClusterOptions.zoomLimit + 2)
    /// Aggregates per cluster.
    var aggregates: ClusterAggregateTable
    /// The query tree over all entries that show at some zoom.
    var tree = ClusterTree()

    var clusterCount: Int { clusterX.count }

    /// Points and clusters.
    var entryCount: Int { leafCount + clusterX.count }

    /// Web Mercator x of entry `e`.
    @inline(__always)
    func x(_ e: Int) -> Double { e < leafCount ? leafX[e] : clusterX[e - leafCount] }

    /// Web Mercator y of entry `e`.
    @inline(__always)
    func y(_ e: Int) -> Double { e < leafCount ? leafY[e] : clusterY[e - leafCount] }

    var memoryBytes: Int {
        clusterX.capacity * 8 + clusterY.capacity * 8 + weight.capacity * 4 + topZoom.capacity + lowZoom.capacity
            + parent.capacity * 4 + origin.capacity * 4 + byOrigin.capacity * 4 + childStart.capacity * 4 + children.capacity * 4
            + aggregates.memoryBytes + tree.memoryBytes
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
            if origin[at(mid)] < target { lo = mid + 1 } else { hi = mid }
        }
        guard lo < clustersAtZoom[zoom].upperBound, origin[at(lo)] == target else { return nil }
        return leafCount + at(lo)
    }

    /// The origin of entry `e`: its own input position for a point, the stored origin for a cluster.
    @inline(__always)
    func originKey(ofEntry e: Int) -> Int { e < leafCount ? e : Int(origin[e - leafCount]) }

    /// Fills `byOrigin` when some zoom's clusters were not created in origin order.
    private mutating func indexOrigins() {
        let sorted = clustersAtZoom.allSatisfy { range in
            range.count < 2 || zip(range.dropLast(), range.dropFirst()).allSatisfy { origin[$0] < origin[$1] }
        }
        guard !sorted else { return }
        var permutation = (0..<UInt32(origin.count)).map { $0 }
        for range in clustersAtZoom where range.count > 1 {
            permutation[range].sort { origin[Int($0)] < origin[Int($1)] }
        }
        byOrigin = permutation
    }

    /// The id of a cluster entry.
    func id(ofEntry e: Int) -> ClusterID {
        ClusterID(zoom: Int(topZoom[e]), origin: Int(origin[e - leafCount]))
    }

    /// The children entries of cluster entry `e`.
    func childEntries(of e: Int) -> ArraySlice<UInt32> {
        let c = e - leafCount
        return children[Int(childStart[c])..<Int(childStart[c + 1])]
    }

    /// Builds every level for the points.
    /// - Complexity: O(n) expected per level for n points; levels shrink as clusters form.
    init(points: ClusterPoints, options: ClusterOptions) {
        let n = points.count
        leafCount = n
        minZoom = UInt8(options.minZoom)
        aggregates = ClusterAggregateTable(points: points)
        let topLevel = options.maxZoom + 1
        leafX = points.x
        leafY = points.y
        weight = [UInt32](repeating: 1, count: n)
        topZoom = [UInt8](repeating: UInt8(topLevel), count: n)
        lowZoom = [UInt8](repeating: UInt8(options.minZoom), count: n)
        parent = [UInt32](repeating: Self.noParent, count: n)

        var level = ClusterLevel(leaves: points)
        var grid = ClusterNeighbourGrid(level: level, radius: options.unitRadius(zoom: options.maxZoom))
        var builder = ClusterLevelBuilder(options: options)
        if let grouped = builder.groupIdentical(level, grid: grid, into: &self) {
            level = grouped
            grid = ClusterNeighbourGrid(level: level, radius: options.unitRadius(zoom: options.maxZoom))
        }
        var slotMap: [Int32] = []
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            if zoom != options.maxZoom {
                grid = ClusterNeighbourGrid.derived(from: grid, level: level, radius: options.unitRadius(zoom: zoom), slotMap: slotMap)
            }
            (level, slotMap) = builder.cluster(level, grid: grid, zoom: zoom, into: &self)
        }
        compact()
        indexOrigins()
        tree = ClusterTree(hierarchy: self)
    }

    /// Drops the spare capacity the appends left.
    private mutating func compact() {
        func exact<T>(_ a: [T]) -> [T] { a.withUnsafeBufferPointer { Array($0) } }
        clusterX = exact(clusterX)
        clusterY = exact(clusterY)
        weight = exact(weight)
        topZoom = exact(topZoom)
        lowZoom = exact(lowZoom)
        parent = exact(parent)
        origin = exact(origin)
        childStart = exact(childStart)
        children = exact(children)
    }

    /// Appends a cluster entry (the caller then appends its children and closes it).
    mutating func appendCluster(x cx: Double, y cy: Double, weight w: UInt32, zoom: Int, origin o: Int) -> Int {
        let e = entryCount
        clusterX.append(cx)
        clusterY.append(cy)
        weight.append(w)
        topZoom.append(UInt8(zoom))
        lowZoom.append(minZoom)
        parent.append(Self.noParent)
        origin.append(UInt32(o))
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
        childStart.append(UInt32(children.count))
    }
}

/// One transient level while building: entries in visiting order with copies of their positions and weights.
struct ClusterLevel {
    var entry: [UInt32] = []
    var x: [Double] = []
    var y: [Double] = []
    var weight: [UInt32] = []

    init() {}

    init(leaves points: ClusterPoints) {
        entry = (0..<UInt32(points.count)).map { $0 }
        x = points.x
        y = points.y
        weight = [UInt32](repeating: 1, count: points.count)
    }

    var count: Int { entry.count }

    mutating func reserve(_ n: Int) {
        entry.reserveCapacity(n)
        x.reserveCapacity(n)
        y.reserveCapacity(n)
        weight.reserveCapacity(n)
    }

    mutating func append(entry e: UInt32, x px: Double, y py: Double, weight w: UInt32) {
        entry.append(e)
        x.append(px)
        y.append(py)
        weight.append(w)
    }
}

/// The greedy pass that turns one level into the next, with its scratch buffers.
struct ClusterLevelBuilder {
    let options: ClusterOptions
    private var found: [(slot: Int, position: Int)] = []

    init(options: ClusterOptions) {
        self.options = options
    }

    /// The x of `other` shifted by a whole turn when that brings it nearer to `x` (across the antimeridian).
    @inline(__always)
    static func unwrap(_ other: Double, near x: Double) -> Double {
        let d = other - x
        return d > 0.5 ? other - 1 : (d < -0.5 ? other + 1 : other)
    }

    /// Groups points at identical projected coordinates into clusters at `maxZoom + 1`; nil when there are none.
    mutating func groupIdentical(_ level: ClusterLevel, grid: ClusterNeighbourGrid, into h: inout ClusterHierarchy) -> ClusterLevel? {
        let n = level.count
        // For each slot, the first slot at the same position (itself when it is the first).
        var first = [Int32](repeating: -1, count: n)
        var any = false
        for i in 0..<n where first[i] < 0 {
            first[i] = Int32(i)
            guard grid.hasNeighbour[i] else { continue }
            let xi = level.x[i], yi = level.y[i]
            grid.forEachNeighbour(of: i) { j, _ in
                if j > i, first[j] < 0, level.x[j] == xi, level.y[j] == yi {
                    first[j] = Int32(i)
                    any = true
                }
            }
        }
        guard any else { return nil }
        var members: [Int: [Int]] = [:]
        for i in 0..<n where first[i] != Int32(i) { members[Int(first[i]), default: []].append(i) }
        let zoom = options.maxZoom + 1
        var next = ClusterLevel()
        next.reserve(n)
        for i in 0..<n {
            if first[i] != Int32(i) { continue }
            guard let rest = members[i] else {
                next.append(entry: level.entry[i], x: level.x[i], y: level.y[i], weight: level.weight[i])
                continue
            }
            let w = UInt32(rest.count + 1)
            let e = h.appendCluster(x: level.x[i], y: level.y[i], weight: w, zoom: zoom, origin: Int(level.entry[i]))
            h.adopt(Int(level.entry[i]), by: e, zoom: zoom)
            for j in rest { h.adopt(Int(level.entry[j]), by: e, zoom: zoom) }
            h.closeCluster()
            h.aggregates.appendCluster(children: h.childEntries(of: e), leafCount: h.leafCount)
            next.append(entry: UInt32(e), x: level.x[i], y: level.y[i], weight: w)
        }
        return next
    }

    /// One greedy pass: the level for `zoom` from the level above it.
    ///
    /// Entries are visited in level order; whether an entry is taken is kept by its position in the grid's cell
    /// order, so neighbour scans read memory in order.
    /// Also returns, for each slot of `level`, its slot in the new level when it is carried unchanged, else -1.
    mutating func cluster(_ level: ClusterLevel, grid: ClusterNeighbourGrid, zoom: Int, into h: inout ClusterHierarchy) -> (ClusterLevel, [Int32]) {
        let n = level.count
        var slotMap = [Int32](repeating: -1, count: n)
        let minPoints = UInt64(options.minPoints)
        let aggregating = h.aggregates.isActive
        var taken = [Bool](repeating: false, count: n)
        var found = self.found
        defer { self.found = found }
        var next = ClusterLevel()
        next.reserve(n)
        for i in 0..<n {
            // An entry without neighbours is never taken by another and takes none.
            if !grid.hasNeighbour[i] {
                slotMap[i] = Int32(next.count)
                next.append(entry: level.entry[i], x: level.x[i], y: level.y[i], weight: level.weight[i])
                continue
            }
            let p = Int(grid.position[i])
            if taken[p] { continue }
            taken[p] = true
            let xi = level.x[i], yi = level.y[i]
            found.removeAll(keepingCapacity: true)
            grid.forEachNeighbour(of: i) { j, q in
                if !taken[q] { found.append((j, q)) }
            }
            if found.isEmpty {
                slotMap[i] = Int32(next.count)
                next.append(entry: level.entry[i], x: xi, y: yi, weight: level.weight[i])
                continue
            }
            if found.count > 1 { found.sort { $0.slot < $1.slot } }
            let wi = UInt64(level.weight[i])
            var total = wi
            for f in found {
                total += UInt64(grid.sw[f.position])
                taken[f.position] = true
            }
            if total >= minPoints {
                var wx = xi * Double(wi), wy = yi * Double(wi)
                for f in found {
                    let wj = Double(grid.sw[f.position])
                    wx += Self.unwrap(grid.sx[f.position], near: xi) * wj
                    wy += grid.sy[f.position] * wj
                }
                var cx = wx / Double(total)
                if cx < 0 { cx += 1 } else if cx >= 1 { cx -= 1 }
                let cy = wy / Double(total)
                let w = UInt32(truncatingIfNeeded: total)
                let e = h.appendCluster(x: cx, y: cy, weight: w, zoom: zoom, origin: h.originKey(ofEntry: Int(level.entry[i])))
                h.adopt(Int(level.entry[i]), by: e, zoom: zoom)
                for f in found { h.adopt(Int(grid.sentry[f.position]), by: e, zoom: zoom) }
                h.closeCluster()
                if aggregating { h.aggregates.appendCluster(children: h.childEntries(of: e), leafCount: h.leafCount) }
                next.append(entry: UInt32(e), x: cx, y: cy, weight: w)
            } else {
                slotMap[i] = Int32(next.count)
                next.append(entry: level.entry[i], x: xi, y: yi, weight: level.weight[i])
                for f in found {
                    slotMap[f.slot] = Int32(next.count)
                    next.append(entry: grid.sentry[f.position], x: grid.sx[f.position], y: grid.sy[f.position], weight: grid.sw[f.position])
                }
            }
        }
        return (next, slotMap)
    }
}
