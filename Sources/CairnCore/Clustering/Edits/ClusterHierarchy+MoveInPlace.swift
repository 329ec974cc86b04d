extension ClusterHierarchy {
    /// How a planned move maps onto the current tables when it keeps their layout: per fresh node of the plan, the
    /// entry it takes over (the moved point itself, or the removed cluster of the same zoom and origin); nil when
    /// the layout changes.
    ///
    /// The layout is kept when every cluster the plan removes comes back as a fresh cluster of the same zoom and
    /// origin with as many children: every entry then keeps its number and its place in the child lists. Groups of
    /// identical points and aggregates are left to the spliced path (`applySpliced`).
    /// - Complexity: O(f log c) for f fresh nodes.
    func inPlacePairing(_ plan: ClusterIncrementalEdit, movedPoint point: Int) -> [Int]? {
        guard !aggregates.isActive, byOrigin.isEmpty else { return nil }
        var pairing = [Int](repeating: -1, count: plan.fresh.count)
        var pairedClusters = Set<Int>()
        for (k, f) in plan.fresh.enumerated() {
            guard let zoom = f.zoom else {
                guard f.origin == point else { return nil }
                pairing[k] = point
                continue
            }
            guard zoom != Int(groupZoom), let e = entry(of: ClusterID(zoom: zoom, origin: f.origin)),
                  plan.removedClusters.contains(e), childEntries(of: e).count == f.children.count,
                  pairedClusters.insert(e).inserted else { return nil }
            pairing[k] = e
        }
        guard pairedClusters.count == plan.removedClusters.count, pairing.contains(point) else { return nil }
        return pairing
    }

    /// First half of an in-place move, on the tables as they are before it (call it before the point moves): the
    /// entries taken over, and the children whose lowest zoom changes, go to the query tree's overlay while the
    /// tree still finds them where it put them.
    /// - Complexity: O(c (r + log e)) for the c entries changed and r runs of the tree.
    mutating func detachInPlace(fresh: [ClusterIncrementalEdit.Fresh], removedClusters: Set<Int>, pairing: [Int]) -> DetachedEntries {
        // The lowest zoom each child will show from: released children show down to the lowest zoom unless adopted.
        var newLow: [Int: UInt8] = [:]
        for e in removedClusters {
            for c in childRange(ofCluster: e - leafCount) { newLow[Int(children[c])] = minZoom }
        }
        for f in fresh {
            guard let zoom = f.zoom else { continue }
            for node in f.children { newLow[node < 0 ? pairing[-node - 1] : node] = UInt8(zoom + 1) }
        }
        var changed = pairing
        for (child, low) in newLow where low != lowZoom[child] && !pairing.contains(child) { changed.append(child) }
        var edited = ClusterTree()
        swap(&edited, &tree)
        let kept = edited.detach(changed, hierarchy: self)
        swap(&edited, &tree)
        return DetachedEntries(changed: changed, treeKept: kept)
    }

    /// Second half of a planned move whose pairing keeps the layout (see `inPlacePairing`): the clusters taken over
    /// get their new positions, weights and children, those children their parent and zoom range; nothing else is
    /// rewritten. The query tree keeps its nodes: the entries `detachInPlace` set aside get their new positions and
    /// zooms in its overlay, and it is rebuilt only when the overlay is full. `points` already holds the moved point.
    /// - Complexity: O(c) for the c entries changed, plus an O(e) rebuild of the tree once in about
    ///   `ClusterTree.overlayLimit / c` moves.
    mutating func moveInPlace(fresh: [ClusterIncrementalEdit.Fresh], removedClusters: Set<Int>, pairing: [Int],
                              detached: DetachedEntries, points: ClusterPoints) {
        leafPositions = points.positions
        // Children of the clusters taken over are released first, then adopted again by their new parents.
        for e in removedClusters {
            for c in childRange(ofCluster: e - leafCount) {
                let child = Int(children[c])
                parent[child] = Self.noParent
                lowZoom[child] = minZoom
            }
        }
        for (k, f) in fresh.enumerated() {
            guard let zoom = f.zoom else { continue }
            let e = pairing[k]
            clusters[e - leafCount].x = f.x
            clusters[e - leafCount].y = f.y
            clusters[e - leafCount].extent = f.extent
            clusters[e - leafCount].weight = f.weight
            var c = childRange(ofCluster: e - leafCount).lowerBound
            for node in f.children {
                let child = node < 0 ? pairing[-node - 1] : node
                children[c] = UInt32(child)
                c += 1
                parent[child] = UInt32(e)
                lowZoom[child] = UInt8(zoom + 1)
            }
        }
        guard detached.treeKept else {
            tree = ClusterTree(hierarchy: self)
            return
        }
        var edited = ClusterTree()
        swap(&edited, &tree)
        edited.refresh(detached.changed, hierarchy: self)
        tree = edited.overlayIsFull ? ClusterTree(hierarchy: self) : edited
    }
}
