extension ClusterHierarchy {
    /// The hierarchy after one planned point edit, laid out exactly as a rebuild lays it out: points in input
    /// order, then clusters by zoom (highest first) and by origin within a zoom, which is creation order when
    /// `minPoints` <= 2.
    ///
    /// `removedPoint` is the old input position that left (remove only; a move keeps it), `appended` whether the
    /// plan's point was appended. Old clusters keep their children (renumbered); parents and zoom ranges are derived
    /// from the children again, and the query tree is rebuilt.
    /// - Complexity: O(e) for e entries, plus the tree's O(e) build.
    init(updating old: ClusterHierarchy, plan: ClusterIncrementalEdit, points: ClusterPoints, options: ClusterOptions,
         removedPoint: Int?) {
        let n = points.count
        leafCount = n
        minZoom = old.minZoom
        leafX = points.x
        leafY = points.y
        aggregates = ClusterAggregateTable(points: points)
        let oldN = old.leafCount
        let topLevel = options.maxZoom + 1
        @inline(__always) func mapOrigin(_ o: Int) -> Int {
            if let p = removedPoint, o > p { return o - 1 }
            return o
        }
        // Cluster order: old survivors and fresh clusters merged by origin, zoom by zoom.
        var freshByZoom = [[Int]](repeating: [], count: ClusterOptions.zoomLimit + 2)
        for (k, f) in plan.fresh.enumerated() { if let z = f.zoom { freshByZoom[z].append(k) } }
        var order: [Int] = [] // node references as in the plan
        order.reserveCapacity(old.clusterCount + plan.fresh.count)
        // New position of each old cluster; -1 for those removed.
        var oldClusterNew = [Int32](repeating: 0, count: old.clusterCount)
        for e in plan.removedClusters { oldClusterNew[e - oldN] = -1 }
        var freshNew = [Int32](repeating: -1, count: plan.fresh.count)
        for (k, f) in plan.fresh.enumerated() where f.zoom == nil { freshNew[k] = Int32(mapOrigin(f.origin)) }
        for zoom in stride(from: topLevel, through: options.minZoom, by: -1) {
            let start = order.count
            var fresh = freshByZoom[zoom]
            fresh.sort { plan.fresh[$0].origin < plan.fresh[$1].origin }
            var f = 0
            for c in old.clustersAtZoom[zoom] {
                let e = oldN + c
                if oldClusterNew[c] < 0 { continue }
                let o = Int(old.origin[c])
                while f < fresh.count, plan.fresh[fresh[f]].origin < o {
                    freshNew[fresh[f]] = Int32(n + order.count)
                    order.append(-fresh[f] - 1)
                    f += 1
                }
                oldClusterNew[c] = Int32(n + order.count)
                order.append(e)
            }
            while f < fresh.count {
                freshNew[fresh[f]] = Int32(n + order.count)
                order.append(-fresh[f] - 1)
                f += 1
            }
            if order.count > start { clustersAtZoom[zoom] = start..<order.count }
        }
        @inline(__always) func newEntry(_ node: Int) -> Int {
            if node < 0 { return Int(freshNew[-node - 1]) }
            if node < oldN {
                if let p = removedPoint, node > p { return node - 1 }
                return node
            }
            return Int(oldClusterNew[node - oldN])
        }
        let total = n + order.count
        weight = [UInt32](repeating: 1, count: total)
        topZoom = [UInt8](repeating: UInt8(topLevel), count: total)
        lowZoom = [UInt8](repeating: UInt8(options.minZoom), count: total)
        parent = [UInt32](repeating: Self.noParent, count: total)
        clusterX = []
        clusterY = []
        origin = []
        clusterX.reserveCapacity(order.count)
        clusterY.reserveCapacity(order.count)
        origin.reserveCapacity(order.count)
        childStart = [0]
        childStart.reserveCapacity(order.count + 1)
        children = []
        children.reserveCapacity(old.children.count + plan.fresh.count * 4)
        let aggregating = aggregates.isActive
        for (c, node) in order.enumerated() {
            let e = n + c
            let zoom: Int
            if node < 0 {
                let f = plan.fresh[-node - 1]
                clusterX.append(f.x)
                clusterY.append(f.y)
                weight[e] = f.weight
                origin.append(UInt32(mapOrigin(f.origin)))
                zoom = f.zoom ?? topLevel
                for child in f.children { children.append(UInt32(newEntry(child))) }
            } else {
                clusterX.append(old.x(node))
                clusterY.append(old.y(node))
                weight[e] = old.weight[node]
                origin.append(UInt32(mapOrigin(Int(old.origin[node - oldN]))))
                zoom = Int(old.topZoom[node])
                // Indexed, not sliced: a slice per cluster would retain the array each time.
                let k = node - oldN
                for r in Int(old.childStart[k])..<Int(old.childStart[k + 1]) { children.append(UInt32(newEntry(Int(old.children[r])))) }
            }
            topZoom[e] = UInt8(zoom)
            for k in Int(childStart[c])..<children.count {
                let child = Int(children[k])
                parent[child] = UInt32(e)
                lowZoom[child] = UInt8(zoom + 1)
            }
            childStart.append(UInt32(children.count))
            if aggregating { aggregates.appendCluster(children: children[Int(childStart[c])..<children.count], leafCount: n) }
        }
        // An old tree with an overlay no longer holds the canonical order: sort afresh.
        tree = old.tree.isEdited ? ClusterTree(hierarchy: self)
            : ClusterTree(hierarchy: self, orderedItems: treeOrder(old: old, plan: plan, removedPoint: removedPoint, groupZoom: topLevel, newEntry: newEntry))
    }

    /// The old tree's order with the entries gone dropped, renumbered, and the entries new to the tree (new
    /// clusters, the edited point, points freed from a group of identical points) put in their places, which is
    /// the order a rebuild's sort gives (by creation zoom, Morton key, entry).
    /// - Complexity: O(e + a log e) for a entries added.
    private func treeOrder(old: ClusterHierarchy, plan: ClusterIncrementalEdit, removedPoint: Int?, groupZoom: Int,
                           newEntry: (Int) -> Int) -> [UInt32] {
        @inline(__always) func shows(_ e: Int) -> Bool { lowZoom[e] <= topZoom[e] }
        // The edited point's old entry leaves the tree (a moved point comes back among the additions).
        // (An appended point's origin is `old.leafCount`, no old point.)
        let editedPoint = removedPoint ?? plan.fresh.first(where: { $0.zoom == nil && $0.origin < old.leafCount })?.origin
        var kept: [UInt32] = []
        let oldItems = old.tree.canonicalItems()
        kept.reserveCapacity(oldItems.count + plan.fresh.count)
        for item in oldItems {
            let e = Int(item)
            if e == editedPoint { continue }
            let ne = newEntry(e) // -1 for a removed cluster
            if ne >= 0, shows(ne) { kept.append(UInt32(ne)) }
        }
        var added: [Int] = []
        for k in plan.fresh.indices { added.append(newEntry(-k - 1)) }
        for e in plan.removedClusters where Int(old.topZoom[e]) == groupZoom {
            for child in old.childEntries(of: e) where Int(child) != editedPoint { added.append(newEntry(Int(child))) }
        }
        return treeOrder(kept: kept, adding: added.filter(shows))
    }

    /// Whether entry `a` comes before entry `b` in the query tree's order (creation zoom, Morton key, entry).
    @inline(__always)
    func precedesInTree(_ a: Int, _ b: Int) -> Bool {
        if topZoom[a] != topZoom[b] { return topZoom[a] < topZoom[b] }
        let ka = ClusterTree.key(x: x(a), y: y(a)), kb = ClusterTree.key(x: x(b), y: y(b))
        return ka != kb ? ka < kb : a < b
    }

    /// `kept` (in tree order) with the entries `added` put in their places.
    /// - Complexity: O(e + a log e) for a entries added.
    func treeOrder(kept: [UInt32], adding added: [Int]) -> [UInt32] {
        let added = added.sorted(by: precedesInTree)
        var result: [UInt32] = []
        result.reserveCapacity(kept.count + added.count)
        var from = 0
        for a in added {
            var lo = from, hi = kept.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if precedesInTree(Int(kept[mid]), a) { lo = mid + 1 } else { hi = mid }
            }
            result.append(contentsOf: kept[from..<lo])
            result.append(UInt32(a))
            from = lo
        }
        result.append(contentsOf: kept[from...])
        return result
    }
}
