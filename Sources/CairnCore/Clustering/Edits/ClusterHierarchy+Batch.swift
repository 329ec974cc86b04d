extension ClusterHierarchy {
    /// A lowest zoom above every zoom: within a batch, the entry shows at none (deleted, or a number reserved for a
    /// point not appended yet).
    static let hiddenZoom = UInt8.max

    /// Opens a batch of edits (`ClusterEditBatch`): makes room for `reserved` appended points after the points, the
    /// one renumbering of the clusters before the batch's (their entries move up by `reserved`).
    /// - Complexity: O(e) for e entries (one splice: memory moves and a renumbering pass per table of entry
    ///   numbers), none when nothing is reserved.
    mutating func beginBatch(reserving reserved: Int) {
        guard reserved > 0 else { return }
        let splice = ClusterSplice(oldCount: entryCount, changes: [.init(position: leafCount, inserted: reserved, deleted: 0)])
        splice.apply(to: &topZoom, filler: groupZoom)
        splice.apply(to: &lowZoom, filler: Self.hiddenZoom)
        splice.apply(to: &parent, filler: Self.noParent)
        splice.renumber(&parent)
        splice.renumber(&children)
        tree.renumber(splice)
        leafCount += reserved
        leafPositions.append(contentsOf: repeatElement(ClusterPosition(x: 0, y: 0), count: reserved))
    }

    /// Applies one planned edit within a batch, in its numbering (`point` is the number of the point the edit
    /// appends, removes or moves; `position` its new position, if any): nothing is renumbered and no row moves.
    /// Deleted entries stay, hidden (`hiddenZoom`), their clusters listed in `deletedClusters`; new clusters are
    /// appended with their child lists; released and adopted children get their parents and zooms as in
    /// `applySpliced`. The query tree takes the changes in its overlay, rebuilt when that is full.
    /// - Complexity: O(c v) for the c entries changed and v in the tree's overlay (`ClusterTree.refresh`), plus an
    ///   O(e) rebuild of the tree when the overlay is full.
    mutating func applyInBatch(_ edit: PlannedEdit, point: Int, position: ClusterPosition?, detached: DetachedEntries,
                               deletedClusters: inout [Int]) {
        let removedPoint = edit.removedPoint
        if let position {
            leafPositions[point] = position
            if case .appended = edit.point { lowZoom[point] = minZoom }
        }
        if let p = removedPoint {
            lowZoom[p] = Self.hiddenZoom
            parent[p] = Self.noParent
        }
        // Children of the deleted clusters are released, then adopted by the new clusters that take them.
        for e in edit.removedClusters {
            for k in childRange(ofCluster: e - leafCount) {
                let child = Int(children[k])
                if child != removedPoint, !edit.removedClusters.contains(child) {
                    parent[child] = Self.noParent
                    lowZoom[child] = minZoom
                }
            }
        }
        for e in edit.removedClusters {
            lowZoom[e] = Self.hiddenZoom
            parent[e] = Self.noParent
            deletedClusters.append(e)
        }
        // New clusters as new rows, in the plan's order (a cluster's fresh children come before it).
        var freshEntry = [Int](repeating: point, count: edit.fresh.count)
        var added: [Int] = []
        for (k, f) in edit.fresh.enumerated() {
            guard let zoom = f.zoom else { continue }
            let e = entryCount
            freshEntry[k] = e
            for child in f.children { children.append(UInt32(child < 0 ? freshEntry[-child - 1] : child)) }
            clusters.append(ClusterRecord(x: f.x, y: f.y, extent: f.extent, weight: f.weight, origin: UInt32(f.origin),
                                          childEnd: UInt32(children.count)))
            topZoom.append(UInt8(zoom))
            lowZoom.append(minZoom)
            parent.append(Self.noParent)
            for child in f.children {
                let c = child < 0 ? freshEntry[-child - 1] : child
                parent[c] = UInt32(e)
                lowZoom[c] = UInt8(zoom + 1)
            }
            added.append(e)
        }
        guard detached.treeKept else {
            tree = ClusterTree(hierarchy: self)
            return
        }
        if case .appended = edit.point { added.append(point) }
        var edited = ClusterTree()
        swap(&edited, &tree)
        edited.refresh(detached.changed, hierarchy: self)
        edited.attach(added, hierarchy: self)
        tree = edited.overlayIsFull ? ClusterTree(hierarchy: self) : edited
    }

    /// Closes a batch (`points` already the points after it): every table is renumbered once to exactly what a
    /// rebuild gives. Entries keep their order: the live points in input order, then the live clusters by zoom
    /// (highest first) and origin, the batch's new clusters (sorted) merged among the old ones (in that order
    /// already: numbers order origins as input positions do). The query tree is renumbered alike and rebuilt when
    /// its overlay is full (or empty: see below).
    /// - Complexity: O(e + b log b) for e entries and b new clusters, plus the aggregates' O(e) recomputation when
    ///   they are kept and the tree's O(e) rebuild when its overlay is full.
    mutating func finishBatch(_ batch: ClusterEditBatch, points: ClusterPoints) {
        let oldLeafCount = leafCount, rows = clusterCount
        var deletedRow = [Bool](repeating: false, count: rows)
        for e in batch.deletedClusters { deletedRow[e - oldLeafCount] = true }
        // Rows in their new order.
        @inline(__always) func precedes(_ a: Int, _ b: Int) -> Bool {
            let za = topZoom[oldLeafCount + a], zb = topZoom[oldLeafCount + b]
            return za != zb ? za > zb : clusters[a].origin < clusters[b].origin
        }
        let newRows = (batch.clusterRowsAtStart..<rows).filter { !deletedRow[$0] }.sorted(by: precedes)
        var order: [Int] = []
        order.reserveCapacity(rows)
        var next = 0
        for r in 0..<batch.clusterRowsAtStart where !deletedRow[r] {
            while next < newRows.count, precedes(newRows[next], r) {
                order.append(newRows[next])
                next += 1
            }
            order.append(r)
        }
        order.append(contentsOf: newRows[next...])

        // New entry numbers: live points (in runs between the removed ones), then the clusters in order. A deleted
        // entry maps to 0, a number (never `ClusterTree.padding`) for the tree's stale slots.
        var map = [UInt32](repeating: 0, count: entryCount)
        var n = 0
        var pointRuns: [Range<Int>] = []
        var start = 0
        for end in batch.removed + [batch.startCount + batch.appended.count] {
            if start < end {
                pointRuns.append(start..<end)
                for s in start..<end { map[s] = UInt32(n + s - start) }
                n += end - start
            }
            start = end + 1
        }
        precondition(n == points.count, "a batch's points and hierarchy disagree")
        for (k, r) in order.enumerated() { map[oldLeafCount + r] = UInt32(n + k) }

        var newTop: [UInt8] = [], newLow: [UInt8] = [], newParent: [UInt32] = []
        let newTotal = n + order.count
        newTop.reserveCapacity(newTotal)
        newLow.reserveCapacity(newTotal)
        newParent.reserveCapacity(newTotal)
        for run in pointRuns {
            newTop.append(contentsOf: topZoom[run])
            newLow.append(contentsOf: lowZoom[run])
            newParent.append(contentsOf: parent[run])
        }
        var newClusters: [ClusterRecord] = []
        var newChildren: [UInt32] = []
        newClusters.reserveCapacity(order.count)
        newChildren.reserveCapacity(children.count)
        var counts = [Int](repeating: 0, count: clustersAtZoom.count)
        for r in order {
            let e = oldLeafCount + r
            newTop.append(topZoom[e])
            newLow.append(lowZoom[e])
            newParent.append(parent[e])
            counts[Int(topZoom[e])] += 1
            var record = clusters[r]
            record.origin = map[Int(record.origin)]
            for k in childRange(ofCluster: r) { newChildren.append(map[Int(children[k])]) }
            record.childEnd = UInt32(newChildren.count)
            newClusters.append(record)
        }
        map.withUnsafeBufferPointer { map in
            newParent.withUnsafeMutableBufferPointer { p in
                for i in p.indices where p[i] != Self.noParent { p[i] = map[Int(p[i])] }
            }
        }
        topZoom = newTop
        lowZoom = newLow
        parent = newParent
        clusters = newClusters
        children = newChildren
        var first = 0
        for z in clustersAtZoom.indices.reversed() {
            clustersAtZoom[z] = counts[z] > 0 ? first..<(first + counts[z]) : 0..<0
            first += counts[z]
        }
        leafCount = n
        leafPositions = points.positions

        aggregates = ClusterAggregateTable(points: points)
        if aggregates.isActive {
            for c in 0..<clusterCount {
                aggregates.appendCluster(children: children[childRange(ofCluster: c)], leafCount: n)
            }
        }

        // A tree with no overlay was built during the batch, its ties in Morton order by the batch's numbers, which
        // put the new clusters last: rebuilt, it breaks them as a rebuild does.
        var edited = ClusterTree()
        swap(&edited, &tree)
        edited.renumber(entries: map)
        tree = edited.overlayIsFull || !edited.isEdited ? ClusterTree(hierarchy: self) : edited
    }
}
