extension ClusterHierarchy {
    /// What a point edit does to the input, in the numbering before it.
    enum EditedPoint {
        /// A point appended at the end of the input (input position `leafCount`).
        case appended
        /// The point at this input position leaves; later points move up by one.
        case removed(Int)
        /// The point at this input position moves; its place in the input is kept.
        case moved(Int)
    }

    /// A planned point edit taken out of its `ClusterIncrementalEdit` (whose copy of the tables must be gone before
    /// the tables are rewritten, or they would be copied).
    struct PlannedEdit {
        var fresh: [ClusterIncrementalEdit.Fresh]
        var removedClusters: Set<Int>
        var point: EditedPoint

        /// The old entry deleted with the point, if any.
        var removedPoint: Int? {
            if case .removed(let i) = point { return i }
            return nil
        }
    }

    /// The entries an edit changes but keeps (numbered as before the edit), and whether the query tree could set
    /// them and the deleted entries aside (else it is rebuilt).
    struct DetachedEntries {
        var changed: [Int]
        var treeKept: Bool
    }

    /// First half of a spliced edit, on the tables as they are before it (positions included: call it before the
    /// points change): the entries the edit deletes leave the query tree's nodes, and those whose position or
    /// zooms change go to its overlay.
    /// - Complexity: O(c (r + log e)) for the c entries changed and r runs of the tree.
    mutating func detach(for edit: PlannedEdit) -> DetachedEntries {
        let removedPoint = edit.removedPoint
        var deleted = Array(edit.removedClusters)
        if let i = removedPoint { deleted.append(i) }
        // The lowest zoom each kept child will show from: released children show down to the lowest zoom unless adopted.
        var newLow: [Int: UInt8] = [:]
        for e in edit.removedClusters {
            for c in childRange(ofCluster: e - leafCount) { newLow[Int(children[c])] = minZoom }
        }
        for f in edit.fresh {
            guard let zoom = f.zoom else { continue }
            for node in f.children where node >= 0 { newLow[node] = UInt8(zoom + 1) }
        }
        var changed: [Int] = []
        var movedPoint: Int?
        if case .moved(let i) = edit.point {
            movedPoint = i
            changed.append(i)
        }
        for (e, low) in newLow where low != lowZoom[e] && e != movedPoint && e != removedPoint && !edit.removedClusters.contains(e) {
            changed.append(e)
        }
        var edited = ClusterTree()
        swap(&edited, &tree)
        let kept = edited.detach(changed, hierarchy: self) && edited.drop(deleted, hierarchy: self)
        swap(&edited, &tree)
        return DetachedEntries(changed: changed, treeKept: kept)
    }

    /// Second half of a spliced edit (`points` already edited): the tables are rewritten in place to exactly what a
    /// rebuild gives. Entries keep their order: points in input order, then clusters by zoom (highest first) and
    /// origin; the edit deletes and inserts a few, so the rest move by segments (`ClusterSplice`) and the entry
    /// numbers stored in the tables and the query tree are renumbered in linear passes. The entries new or
    /// changed go to the tree's overlay; the tree is rebuilt only when the overlay is full.
    /// - Complexity: O(e) for e entries (memory moves and one renumbering pass per table of entry numbers), plus
    ///   the aggregates' O(e) recomputation when they are kept, plus an O(e) rebuild of the tree once in about
    ///   `ClusterTree.overlayLimit / c` edits that change c entries.
    mutating func applySpliced(_ edit: PlannedEdit, detached: DetachedEntries, points: ClusterPoints, options: ClusterOptions) {
        let oldN = leafCount, n = points.count
        let oldC = clusterCount
        let removedPoint = edit.removedPoint

        // Where each zoom's clusters start (zooms descend).
        var zoomStart = [Int](repeating: 0, count: clustersAtZoom.count)
        var total = 0
        for z in clustersAtZoom.indices.reversed() {
            zoomStart[z] = total
            total += clustersAtZoom[z].count
        }
        // A fresh cluster goes before the first old cluster of its zoom with a larger origin (origins are distinct
        // within a zoom: an old cluster of the same origin is among those removed).
        var insertions: [(anchor: Int, zoom: Int, origin: Int, fresh: Int)] = []
        var zoomDelta = [Int](repeating: 0, count: clustersAtZoom.count)
        for (k, f) in edit.fresh.enumerated() {
            guard let zoom = f.zoom else { continue }
            var lo = zoomStart[zoom], hi = lo + clustersAtZoom[zoom].count
            let target = UInt32(f.origin)
            while lo < hi {
                let mid = (lo + hi) / 2
                if clusters[mid].origin < target { lo = mid + 1 } else { hi = mid }
            }
            insertions.append((lo, zoom, f.origin, k))
            zoomDelta[zoom] += 1
        }
        insertions.sort { ($0.anchor, -$0.zoom, $0.origin) < ($1.anchor, -$1.zoom, $1.origin) }
        let removed = edit.removedClusters.map { $0 - oldN }.sorted()
        for c in removed { zoomDelta[Int(topZoom[oldN + c])] -= 1 }

        // The changes to the cluster rows and to the children lists, in row order.
        var changes: [ClusterSplice.Change] = []
        var childChanges: [ClusterSplice.Change] = []
        var insertionChange: [Int] = []
        var a = 0, r = 0
        while a < insertions.count || r < removed.count {
            if a < insertions.count, r == removed.count || insertions[a].anchor <= removed[r] {
                let anchor = insertions[a].anchor
                insertionChange.append(changes.count)
                changes.append(.init(position: anchor, inserted: 1, deleted: 0))
                childChanges.append(.init(position: anchor < oldC ? childRange(ofCluster: anchor).lowerBound : children.count,
                                          inserted: edit.fresh[insertions[a].fresh].children.count, deleted: 0))
                a += 1
            } else {
                let c = removed[r]
                changes.append(.init(position: c, inserted: 0, deleted: 1))
                let range = childRange(ofCluster: c)
                childChanges.append(.init(position: range.lowerBound, inserted: 0, deleted: range.count))
                r += 1
            }
        }
        var entryChanges: [ClusterSplice.Change] = []
        entryChanges.reserveCapacity(changes.count + 1)
        var pointEntry: Int?
        switch edit.point {
        case .appended:
            entryChanges.append(.init(position: oldN, inserted: 1, deleted: 0))
            pointEntry = oldN
        case .removed(let i):
            entryChanges.append(.init(position: i, inserted: 0, deleted: 1))
        case .moved(let i):
            pointEntry = i
        }
        for c in changes { entryChanges.append(.init(position: oldN + c.position, inserted: c.inserted, deleted: c.deleted)) }
        let clusterSplice = ClusterSplice(oldCount: oldC, changes: changes)
        let childSplice = ClusterSplice(oldCount: children.count, changes: childChanges)
        let entrySplice = ClusterSplice(oldCount: oldN + oldC, changes: entryChanges)

        // New entries of the fresh nodes.
        var freshEntry = [Int](repeating: -1, count: edit.fresh.count)
        var insertedCluster: [Int] = [] // new cluster row of each insertion, ascending
        insertedCluster.reserveCapacity(insertions.count)
        for (j, ins) in insertions.enumerated() {
            let c = clusterSplice.insertedAt[insertionChange[j]]
            insertedCluster.append(c)
            freshEntry[ins.fresh] = n + c
        }
        if let p = pointEntry {
            for (k, f) in edit.fresh.enumerated() where f.zoom == nil { freshEntry[k] = p }
        }
        @inline(__always) func newEntry(_ node: Int) -> Int { node < 0 ? freshEntry[-node - 1] : entrySplice.newRow(node) }

        // Kept children of the removed clusters, numbered after the edit (read before the lists move).
        var released: [Int] = []
        for e in edit.removedClusters {
            for k in childRange(ofCluster: e - oldN) {
                let child = Int(children[k])
                if child != removedPoint, !edit.removedClusters.contains(child) { released.append(entrySplice.newRow(child)) }
            }
        }

        // Rows move; stored entry numbers are renumbered.
        entrySplice.apply(to: &topZoom, filler: groupZoom)
        entrySplice.apply(to: &lowZoom, filler: minZoom)
        entrySplice.apply(to: &parent, filler: Self.noParent)
        entrySplice.renumber(&parent)
        clusterSplice.apply(to: &clusters, filler: .empty)
        if let i = removedPoint {
            let limit = UInt32(i)
            clusters.withUnsafeMutableBufferPointer { p in
                for k in p.indices where p[k].origin > limit { p[k].origin -= 1 }
            }
        }
        childSplice.apply(to: &children, filler: 0)
        entrySplice.renumber(&children)
        // Child list ends: kept lists end where their last child went; inserted ones follow the list before them.
        let firstChange = changes.first?.position ?? clusterSplice.newCount
        let fresh = edit.fresh
        clusters.withUnsafeMutableBufferPointer { p in
            var next = 0
            for c in firstChange..<clusterSplice.newCount {
                if next < insertedCluster.count, insertedCluster[next] == c {
                    p[c].childEnd = (c == 0 ? 0 : p[c - 1].childEnd) + UInt32(fresh[insertions[next].fresh].children.count)
                    next += 1
                } else {
                    p[c].childEnd = UInt32(childSplice.newRow(Int(p[c].childEnd) - 1) + 1)
                }
            }
        }
        leafCount = n
        leafPositions = points.positions

        // The fresh clusters' rows, then the children released and adopted.
        for (j, ins) in insertions.enumerated() {
            let f = fresh[ins.fresh]
            let c = insertedCluster[j]
            let origin = UInt32(removedPoint.map { f.origin > $0 ? f.origin - 1 : f.origin } ?? f.origin)
            clusters[c] = ClusterRecord(x: f.x, y: f.y, extent: f.extent, weight: f.weight, origin: origin, childEnd: clusters[c].childEnd)
            topZoom[n + c] = UInt8(ins.zoom)
            var k = childRange(ofCluster: c).lowerBound
            for child in f.children {
                children[k] = UInt32(newEntry(child))
                k += 1
            }
        }
        for e in released {
            parent[e] = Self.noParent
            lowZoom[e] = minZoom
        }
        for (j, ins) in insertions.enumerated() {
            let e = n + insertedCluster[j]
            for child in fresh[ins.fresh].children {
                let ce = newEntry(child)
                parent[ce] = UInt32(e)
                lowZoom[ce] = UInt8(ins.zoom + 1)
            }
        }
        var start = 0
        for z in clustersAtZoom.indices.reversed() {
            let count = clustersAtZoom[z].count + zoomDelta[z]
            clustersAtZoom[z] = count > 0 ? start..<(start + count) : 0..<0
            start += count
        }

        aggregates = ClusterAggregateTable(points: points)
        if aggregates.isActive {
            for c in 0..<clusterCount {
                aggregates.appendCluster(children: children[childRange(ofCluster: c)], leafCount: n)
            }
        }

        guard detached.treeKept else {
            tree = ClusterTree(hierarchy: self)
            return
        }
        var edited = ClusterTree()
        swap(&edited, &tree)
        edited.renumber(entrySplice)
        edited.refresh(detached.changed.map { entrySplice.newRow($0) }, hierarchy: self)
        var added = insertedCluster.map { n + $0 }
        if case .appended = edit.point { added.append(oldN) }
        edited.attach(added, hierarchy: self)
        tree = edited.overlayIsFull ? ClusterTree(hierarchy: self) : edited
    }
}
