/// Re-clustering after one point edit without replaying every level, for `minPoints` <= 2.
///
/// With `minPoints` <= 2 every level is in origin order and an entry's fate at a zoom has a closed form: it is
/// absorbed by the earliest (in origin order) entry that takes it (`ClusterReach.takes`) and was not absorbed itself (its *owner*),
/// else it is a centre, and a centre with members becomes a cluster. So an edit changes a level only near the
/// entries it adds or removes: those are re-decided in origin order, and a change of centre status spreads to the
/// later neighbours of the entry, zoom by zoom, until a level comes out unchanged. Neighbours are found in the old
/// query tree (entries showing at the zoom above) with the edit's additions and removals laid over it.
///
/// The outcome is a plan: the old clusters that disappear and the new clusters (their children as old entries or
/// new nodes); `ClusterHierarchy.applySpliced` (or `moveInPlace`) then rewrites the flat tables to exactly what a rebuild gives.
struct ClusterIncrementalEdit {
    /// A node created by the edit: the new position of a point, or a new cluster.
    struct Fresh {
        var x: Double
        var y: Double
        /// The extent (`ClusterRecord.extent`; a point's rounding for the point).
        var extent: ClusterExtent
        var weight: UInt32
        /// Input position in the numbering before the edit (`leafCount` for an appended point).
        var origin: Int
        /// The zoom the cluster was created at; nil for the point.
        var zoom: Int?
        /// Children: old entries (>= 0) or fresh nodes (`-(k + 1)`), centre first, then by origin.
        var children: [Int]
    }

    let h: ClusterHierarchy
    /// The input coordinates before the edit (the identity of points: identical ones are grouped).
    let coordinates: [Coordinate]
    /// The coordinate of the added point, if any.
    let addedCoordinate: Coordinate?
    let options: ClusterOptions
    var fresh: [Fresh] = []
    /// Old cluster entries that are not part of the result.
    var removedClusters: Set<Int> = []

    /// Plans the edit: `removedPoint` leaves the input (remove or move), `addedPoint` enters it at its origin
    /// (`leafCount` for an append, the point's own position for a move), both in the numbering before the edit.
    init(hierarchy: ClusterHierarchy, coordinates: [Coordinate], options: ClusterOptions, removedPoint: Int?,
         addedPoint: (coordinate: Coordinate, origin: Int)?) {
        h = hierarchy
        self.coordinates = coordinates
        addedCoordinate = addedPoint?.coordinate
        self.options = options
        var removed = Set<Int>()
        var added: [Int] = []
        if let p = removedPoint { removed.insert(p) }
        if let a = addedPoint {
            let p = ClusterPoints.position(of: a.coordinate, precision: options.precision)
            fresh.append(Fresh(x: p.x, y: p.y, extent: hierarchy.pointBounds, weight: 1, origin: a.origin, zoom: nil, children: []))
            added.append(-1)
        }
        for zoom in stride(from: options.maxZoom + 1, through: options.minZoom, by: -1) {
            if removed.isEmpty && added.isEmpty { break }
            (removed, added) = step(zoom: zoom, removed: removed, added: added)
        }
    }

    // MARK: Nodes

    @inline(__always) func x(_ node: Int) -> Double { node >= 0 ? h.x(node) : fresh[-node - 1].x }
    @inline(__always) func y(_ node: Int) -> Double { node >= 0 ? h.y(node) : fresh[-node - 1].y }
    @inline(__always) func weight(_ node: Int) -> UInt32 { node >= 0 ? h.weight(node) : fresh[-node - 1].weight }
    @inline(__always) func extent(_ node: Int) -> ClusterExtent { node >= 0 ? h.extent(node) : fresh[-node - 1].extent }
    @inline(__always) func origin(_ node: Int) -> Int { node >= 0 ? h.originKey(ofEntry: node) : fresh[-node - 1].origin }
    /// The coordinate of a point node: an old point or the added one.
    @inline(__always) func coordinate(ofPoint node: Int) -> Coordinate? { node >= 0 ? coordinates[node] : addedCoordinate }

    /// The cluster an old entry of the level above `zoom` went into at `zoom`, if any.
    @inline(__always) func oldCluster(_ e: Int, zoom: Int) -> Int? {
        let p = h.parent[e]
        guard p != ClusterHierarchy.noParent, Int(h.topZoom[Int(p)]) == zoom else { return nil }
        return Int(p)
    }

    /// The old owner (centre) of an old entry of the level above `zoom`.
    @inline(__always) func oldOwner(_ e: Int, zoom: Int) -> Int {
        guard let p = oldCluster(e, zoom: zoom) else { return e }
        return Int(h.childEntries(of: p).first ?? UInt32(e))
    }

    // MARK: One zoom

    /// Re-decides the level at `zoom` given the entries that left (`removed`) and joined (`added`) the level above;
    /// returns the same for the level at `zoom`.
    private mutating func step(zoom: Int, removed: Set<Int>, added: [Int]) -> (Set<Int>, [Int]) {
        let grouping = zoom == Int(h.groupZoom)
        let addedSet = Set(added)
        let test = ClusterReach(options: options, zoom: zoom)
        let r = options.unitRadius(zoom: zoom)
        // Either entry may take the other: the candidates lie within the radius plus the rounding of one of them.
        let reach = r + options.precision.roundingReach
        let reach2 = reach * reach

        /// Entries of the new level above that `node` may take or be taken by (points at its coordinate when
        /// grouping), other than itself. Kept per node for the step: the level above does not change within it, and
        /// most nodes are asked for twice (when re-decided, then as a centre gathering its members).
        var known: [Int: [Int]] = [:]
        func neighbours(of node: Int) -> [Int] {
            if let result = known[node] { return result }
            let result = nearby(node)
            known[node] = result
            return result
        }
        func nearby(_ node: Int) -> [Int] {
            var result: [Int] = []
            let px = x(node), py = y(node)
            if grouping {
                guard let here = coordinate(ofPoint: node) else { return [] }
                func same(_ e: Int) -> Bool { coordinate(ofPoint: e).map { ClusterPoints.sameLocation($0, here) } ?? false }
                h.tree.search(x: UnitXRanges(px, px), y0: py, y1: py, zoom: zoom, hierarchy: h) { e in
                    if e < h.leafCount {
                        if e != node, !removed.contains(e), same(e) { result.append(e) }
                    } else {
                        for c in h.childEntries(of: e) where Int(c) != node && !removed.contains(Int(c)) && same(Int(c)) {
                            result.append(Int(c))
                        }
                    }
                }
                for a in added where a != node && same(a) { result.append(a) }
            } else {
                h.tree.search(x: UnitXRanges(arcFrom: px - reach, to: px + reach), y0: py - reach, y1: py + reach, zoom: zoom + 1, hierarchy: h) { e in
                    if e != node, !removed.contains(e),
                       ClusterNeighbourGrid.distanceSquared(px, py, h.x(e), h.y(e)) <= reach2 { result.append(e) }
                }
                for a in added where a != node && ClusterNeighbourGrid.distanceSquared(px, py, x(a), y(a)) <= reach2 {
                    result.append(a)
                }
            }
            return result
        }
        /// Whether entry `c` takes entry `j` when it is a centre before it (see `ClusterPrecision`).
        func takes(_ c: Int, _ j: Int) -> Bool {
            grouping || test.takes(x(c), y(c), x(j), y(j))
        }

        // Re-decide, in origin order, every entry whose neighbourhood changed; spread status changes forward.
        var owner: [Int: Int] = [:]
        var queued = Set<Int>()
        var queue: [(origin: Int, node: Int)] = [] // descending by origin; the next is last
        func push(_ node: Int) {
            guard queued.insert(node).inserted else { return }
            let o = origin(node)
            var lo = 0, hi = queue.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if queue[mid].origin > o { lo = mid + 1 } else { hi = mid }
            }
            queue.insert((o, node), at: lo)
        }
        for a in added {
            push(a)
            for j in neighbours(of: a) { push(j) }
        }
        for e in removed {
            for j in neighbours(of: e) { push(j) }
        }
        func wasInLevel(_ node: Int) -> Bool { node >= 0 && !addedSet.contains(node) }
        func newOwner(_ node: Int) -> Int { owner[node] ?? oldOwner(node, zoom: zoom) }
        var affected = Set<Int>()
        for e in removed { affected.insert(oldOwner(e, zoom: zoom)) }
        while let (o, j) = queue.popLast() {
            let near = neighbours(of: j)
            var best = j, bestOrigin = o
            for c in near {
                let oc = origin(c)
                if oc < bestOrigin, newOwner(c) == c, takes(c, j) { best = c; bestOrigin = oc }
            }
            owner[j] = best
            affected.insert(best)
            if wasInLevel(j) {
                let before = oldOwner(j, zoom: zoom)
                affected.insert(before)
                if (before == j) != (best == j) {
                    for c in near where origin(c) > o { push(c) }
                }
            }
        }

        // Outputs of the centres whose cluster may have changed.
        var nextRemoved = Set<Int>()
        var nextAdded: [Int] = []
        for c in affected {
            var before: Int?
            if wasInLevel(c), oldOwner(c, zoom: zoom) == c { before = oldCluster(c, zoom: zoom) ?? c }
            var after: Int?
            if !removed.contains(c), newOwner(c) == c {
                var members = neighbours(of: c).filter { origin($0) > origin(c) && newOwner($0) == c }
                if members.isEmpty {
                    after = c
                } else {
                    members.sort { origin($0) < origin($1) }
                    if let b = before, b != c, c >= 0, Array(h.childEntries(of: b)) == [UInt32(c)] + members.map({ UInt32(truncatingIfNeeded: $0) }),
                       members.allSatisfy({ $0 >= 0 }) {
                        after = b
                    } else {
                        after = makeCluster(centre: c, members: members, zoom: zoom, test: grouping ? nil : test)
                    }
                }
            }
            if before == after { continue }
            if let b = before {
                nextRemoved.insert(b)
                if b != c { removedClusters.insert(b) }
            }
            if let a = after { nextAdded.append(a) }
        }
        return (nextRemoved, nextAdded)
    }

    /// A new cluster of a centre and its members (by origin), placed as the builder places it: at their weighted
    /// centroid (`test` unwraps x across the antimeridian), or, for a group of identical points (no `test`), at
    /// the centre's position.
    private mutating func makeCluster(centre c: Int, members: [Int], zoom: Int, test: ClusterReach?) -> Int {
        let xi = x(c), yi = y(c)
        let wi = UInt64(weight(c))
        var total = wi
        for m in members { total += UInt64(weight(m)) }
        var cx = xi, cy = yi
        if let test {
            var wx = xi * Double(wi), wy = yi * Double(wi)
            for m in members {
                let wj = Double(weight(m))
                wx += test.unwrap(x(m), near: xi) * wj
                wy += y(m) * wj
            }
            cx = wx / Double(total)
            if cx < 0 { cx += 1 } else if cx >= 1 { cx -= 1 }
            cy = wy / Double(total)
        }
        let children = [c] + members
        let extent = ClusterHierarchy.extent(ofClusterAtX: cx, y: cy, count: children.count) { k in
            (x(children[k]), y(children[k]), self.extent(children[k]))
        }
        fresh.append(Fresh(x: cx, y: cy, extent: extent, weight: UInt32(truncatingIfNeeded: total),
                           origin: origin(c), zoom: zoom, children: children))
        return -fresh.count
    }
}
