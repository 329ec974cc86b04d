/// The greedy passes that build the levels of a `ClusterHierarchy`.
struct ClusterLevelBuilder {
    /// A centre with the entries it takes, summed up: its cluster's position (when it reaches `minPoints`) and weight,
    /// its members (a range of sorted positions) and where its children (centre first) start.
    private struct Group {
        var x: Double
        var y: Double
        var extent: ClusterExtent
        var weight: UInt64
        var members: Range<Int32>
        var children: Int32
    }

    let options: ClusterOptions
    /// Entries visited by the neighbour scans of every level so far: a deterministic measure of the build's work,
    /// for tests. Counted in debug builds only (release builds leave it 0): the count would cost about 1 % of a
    /// build's instructions.
    private(set) var neighbourVisits = 0

    /// Same-cell pairs per entry (half the mean same-cell neighbours) above which a level's owners are decided by
    /// its centres' scans alone (`claimOwners`): there an entry's own scan costs more than the centres' near it.
    static let crowdedCellPairsPerEntry = 8

    init(options: ClusterOptions) {
        self.options = options
    }

    /// Builds every level, from the groups of identical points at `maxZoom + 1` down to `minZoom`, appending the
    /// clusters to `h`. Only entries that may have a neighbour are visited; the others are carried implicitly.
    /// - Complexity: O(a) expected per level for the a entries that may have a neighbour, plus O(n) once, whatever
    ///   `minPoints`; with `minPoints` >= 3 also O(n log n) expected per level for the neighbour order
    ///   (`neighbourRanks`). Nothing per level when `minPoints` exceeds the point count.
    mutating func build(_ points: ClusterPoints, into h: inout ClusterHierarchy) {
        let activation = ClusterActivation(positions: points.positions, options: options)
        let groups = Self.identicalGroups(activation.maybeIdentical, coordinates: points.coordinates)
        // Groups of identical points, in their first member's place at the top level.
        var groupOf: [Int: (entry: Int, weight: UInt32)] = [:]
        var grouped = Set<Int>()
        for members in groups {
            let i = members[0]
            let w = UInt32(members.count)
            // Its children share its position.
            let zoom = Int(h.groupZoom)
            let e = h.appendCluster(x: points.positions[i].x, y: points.positions[i].y, extent: h.pointBounds, weight: w, zoom: zoom, origin: i)
            for m in members { h.adopt(m, by: e, zoom: zoom) }
            h.closeCluster()
            h.aggregates.appendCluster(children: h.childEntries(of: e), leafCount: h.leafCount)
            groupOf[i] = (e, w)
            grouped.formUnion(members.dropFirst())
        }
        // No group can outweigh all the points: no level would create a cluster, and the levels are not kept.
        guard points.count >= options.minPoints else { return }
        var level = ClusterLevel()
        let top = activation.joining(atZoom: options.maxZoom)
        // With minPoints >= 3, the points not yet in the level (carried implicitly) take part in its neighbour order.
        let ordersPassedEntries = options.minPoints >= 3
        var carried = [Bool](repeating: ordersPassedEntries, count: ordersPassedEntries ? points.count : 0)
        level.items.reserveCapacity(top.count)
        for point in top {
            let i = Int(point)
            if grouped.contains(i) { continue }
            let (e, w) = groupOf[i] ?? (i, 1)
            level.items.append(.init(x: points.positions[i].x, y: points.positions[i].y, key: UInt64(point) << 32, entry: UInt32(e), weight: w))
        }
        for zoom in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
            let joining = activation.joining(atZoom: zoom)
            if zoom != options.maxZoom {
                level = level.merged(joining: joining, positions: points.positions)
            }
            var ranks: [UInt32]?
            if ordersPassedEntries {
                for i in joining { carried[Int(i)] = false }
                ranks = neighbourRanks(level, carried: carried, points: points)
            }
            level = cluster(level, zoom: zoom, ranks: ranks, into: &h)
        }
    }

    /// The rank of each item of `level` in supercluster's neighbour order over the whole level: its items and the
    /// points carried implicitly, merged in level order (see `ClusterKDOrder`).
    /// - Complexity: O(n log n) expected for the n points and clusters of the level.
    private func neighbourRanks(_ level: ClusterLevel, carried: [Bool], points: ClusterPoints) -> [UInt32] {
        var positions: [Double] = [], itemAt: [Int] = []
        positions.reserveCapacity(2 * points.count)
        itemAt.reserveCapacity(level.count)
        var i = 0
        func takeItems(below key: UInt64) {
            while i < level.count, level.items[i].key < key {
                itemAt.append(positions.count / 2)
                positions.append(options.precision.rounded(level.items[i].x))
                positions.append(options.precision.rounded(level.items[i].y))
                i += 1
            }
        }
        for p in carried.indices where carried[p] {
            takeItems(below: UInt64(p) << 32)
            positions.append(points.positions[p].x)
            positions.append(points.positions[p].y)
        }
        takeItems(below: .max)
        let rank = ClusterKDOrder.ranks(positions: &positions)
        return itemAt.map { rank[$0] }
    }

    /// Points at the same location (`ClusterPoints.sameLocation`) among `candidates` (ascending), as groups of at
    /// least two, each ascending, ordered by first member.
    static func identicalGroups(_ candidates: [Int], coordinates: [Coordinate]) -> [[Int]] {
        guard candidates.count > 1 else { return [] }
        let sorted = candidates.sorted { a, b in
            let ka = ClusterPoints.locationKey(coordinates[a]), kb = ClusterPoints.locationKey(coordinates[b])
            if ka != kb { return ka < kb }
            return a < b
        }
        var groups: [[Int]] = []
        var runStart = 0
        for k in 1...sorted.count {
            if k < sorted.count, ClusterPoints.sameLocation(coordinates[sorted[k]], coordinates[sorted[runStart]]) { continue }
            if k - runStart > 1 { groups.append(Array(sorted[runStart..<k])) }
            runStart = k
        }
        groups.sort { $0[0] < $1[0] }
        return groups
    }

    /// One greedy pass: the entries of the level for `zoom` that may have a neighbour, from those of the level
    /// above it.
    ///
    /// The greedy pass visits entries in level order; an entry not yet taken takes its untaken neighbours (those it
    /// reaches, `ClusterReach.takes`: a one-way test with float32 positions). So an entry is a centre exactly when no
    /// earlier centre takes it, and a taken entry belongs to the earliest centre that takes it. Both are decided in
    /// cell order, where neighbour scans read memory in order: an entry is decided once its earlier neighbours that
    /// matter are, in a few sweeps (chains of undecided earlier neighbours are short). Clusters are then created in
    /// level order, as the greedy pass creates them.
    ///
    /// With `ranks` (one per item), the entries a group below `minPoints` gathered follow it in rank order, as
    /// supercluster passes them on; without, in level order.
    mutating func cluster(_ level: ClusterLevel, zoom: Int, ranks: [UInt32]? = nil, into h: inout ClusterHierarchy) -> ClusterLevel {
        let grid = ClusterNeighbourGrid(level: level, radius: options.unitRadius(zoom: zoom), slack: options.precision.roundingReach)
        // Unchecked reads of the grid's copies: positions come from the grid.
        return grid.points.withUnsafeBufferPointer { points in group(level, grid: grid, points: points, zoom: zoom, ranks: ranks, into: &h) }
    }

    /// The rest of `cluster(_:zoom:ranks:into:)` once the level is on its grid: owners decided, groups summed, clusters
    /// created.
    private mutating func group(
        _ level: ClusterLevel, grid: ClusterNeighbourGrid, points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>, zoom: Int,
        ranks: [UInt32]?, into h: inout ClusterHierarchy
    ) -> ClusterLevel {
        let m = level.count
        // Per sorted position: -1 while undecided, itself for a centre, else the position of its centre.
        let test = ClusterReach(options: options, zoom: zoom)
        let owner = Self.owners(grid, test: test, visits: &neighbourVisits)
        // Members per centre (sorted positions), by centre position.
        var memberStart = [Int32](repeating: 0, count: m + 1)
        for p in 0..<m where owner[p] != Int32(p) { memberStart[Int(owner[p]) + 1] += 1 }
        for p in 0..<m { memberStart[p + 1] += memberStart[p] }
        var members = [Int32](repeating: 0, count: Int(memberStart[m]))
        var fill = memberStart
        for p in 0..<m {
            let o = Int(owner[p])
            if o != p {
                members[Int(fill[o])] = Int32(p)
                fill[o] += 1
            }
        }
        // Each group (a centre with members) summed up in cell order, where its members lie near; per slot: -1 for
        // a member, -2 for a centre alone, else its group.
        let minPoints = UInt64(options.minPoints)
        var tag = [Int32](repeating: -1, count: m)
        var groups: [Group] = []
        groups.reserveCapacity(m - members.count)
        var children: [UInt32] = []
        children.reserveCapacity(2 * members.count)
        for p in 0..<m where owner[p] == Int32(p) {
            let centre = points[p]
            let lo = Int(memberStart[p]), hi = Int(memberStart[p + 1])
            if lo == hi {
                tag[Int(centre.slot)] = -2
                continue
            }
            // Members in level order: runs are short (insertion sort) unless groups stay below minPoints in crowded
            // levels, where a centre may take thousands.
            if hi - lo > Self.insertionSortLimit {
                members[lo..<hi].sort { points[Int($0)].slot < points[Int($1)].slot }
            } else {
                for k in (lo + 1)..<hi {
                    let q = members[k]
                    let s = points[Int(q)].slot
                    var j = k
                    while j > lo, points[Int(members[j - 1])].slot > s {
                        members[j] = members[j - 1]
                        j -= 1
                    }
                    members[j] = q
                }
            }
            let wi = UInt64(centre.weight)
            var total = wi
            for k in lo..<hi { total += UInt64(points[Int(members[k])].weight) }
            var cx = centre.x, cy = centre.y
            var extent = ClusterExtent.zero
            if total >= minPoints {
                var wx = centre.x * Double(wi), wy = centre.y * Double(wi)
                for k in lo..<hi {
                    let f = points[Int(members[k])]
                    let wj = Double(f.weight)
                    wx += test.unwrap(f.x, near: centre.x) * wj
                    wy += f.y * wj
                }
                cx = wx / Double(total)
                if cx < 0 { cx += 1 } else if cx >= 1 { cx -= 1 }
                cy = wy / Double(total)
                // The centre, then its members.
                extent = ClusterHierarchy.extent(ofClusterAtX: cx, y: cy, count: hi - lo + 1) { k in
                    let f = k == 0 ? centre : points[Int(members[lo + k - 1])]
                    return (f.x, f.y, h.extent(Int(f.entry)))
                }
            }
            tag[Int(centre.slot)] = Int32(groups.count)
            groups.append(Group(x: cx, y: cy, extent: extent, weight: total, members: Int32(lo)..<Int32(hi), children: Int32(children.count)))
            children.append(centre.entry)
            for k in lo..<hi { children.append(points[Int(members[k])].entry) }
        }
        // Clusters created in level order, as the greedy pass creates them.
        let aggregating = h.aggregates.isActive
        var next = ClusterLevel()
        next.items.reserveCapacity(m)
        var moved = false
        for i in 0..<m {
            let t = Int(tag[i])
            if t == -1 { continue }
            let item = level.items[i]
            if t == -2 {
                next.items.append(item)
                continue
            }
            let g = groups[t]
            if g.weight >= minPoints {
                let w = UInt32(truncatingIfNeeded: g.weight)
                let e = h.appendCluster(x: g.x, y: g.y, extent: g.extent, weight: w, zoom: zoom, origin: h.originKey(ofEntry: Int(item.entry)))
                for k in Int(g.children)...(Int(g.children) + Int(g.members.upperBound - g.members.lowerBound)) { h.adopt(Int(children[k]), by: e, zoom: zoom) }
                h.closeCluster()
                if aggregating { h.aggregates.appendCluster(children: h.childEntries(of: e), leafCount: h.leafCount) }
                next.items.append(.init(x: g.x, y: g.y, key: item.key, entry: UInt32(e), weight: w))
            } else {
                // Below minPoints: the entry stays, and the entries it gathered follow it, under its anchor.
                next.items.append(item)
                var passed = members[Int(g.members.lowerBound)..<Int(g.members.upperBound)]
                if let ranks { passed.sort { ranks[Int(points[Int($0)].slot)] < ranks[Int(points[Int($1)].slot)] } }
                for q in passed {
                    let f = points[Int(q)]
                    next.items.append(.init(x: f.x, y: f.y, key: item.key, entry: f.entry, weight: f.weight))
                }
                moved = true
            }
        }
        if moved { next.renumberRanks() }
        return next
    }

    /// Members of a group above which they are put in level order by a sort rather than by insertion.
    static let insertionSortLimit = 32

    /// Per sorted position of `grid`: itself for a centre, else the position of the earliest centre (by slot)
    /// that takes it (`ClusterReach.takes`). Adds the entries the scans visited to `visits`; `byCentres` forces
    /// the way owners are found (tests compare both), else crowded cells choose `claimOwners`.
    /// - Complexity: O(m) expected for m entries on a level of bounded crowding; on a crowded one O(m) plus the
    ///   entries in the blocks of its centres (centres are about a radius apart, so few blocks hold an entry).
    static func owners(_ grid: ClusterNeighbourGrid, test: ClusterReach, visits: inout Int, byCentres: Bool? = nil) -> [Int32] {
        var owner = [Int32](repeating: -1, count: grid.count)
        // Unchecked reads and writes: every position the grid hands out is in 0..<count.
        grid.points.withUnsafeBufferPointer { points in
            owner.withUnsafeMutableBufferPointer { owner in
                if byCentres ?? (grid.sameCellPairs > crowdedCellPairsPerEntry * grid.count) {
                    visits += claimOwners(grid, points: points, test: test, owner: owner)
                } else {
                    visits += decideOwners(grid, points: points, test: test, owner: owner)
                }
            }
        }
        return owner
    }

    /// Fills `owner` (all -1 on entry) for `owners(_:test:visits:)` by the greedy pass itself, in slot order: an
    /// entry still undecided at its turn is a centre, and takes the undecided entries it reaches. Only centres scan,
    /// so crowded cells are read a few times, not once per entry; but in slot order, not cell order. Returns the
    /// entries visited (debug builds; else 0).
    private static func claimOwners(
        _ grid: ClusterNeighbourGrid, points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>, test: ClusterReach,
        owner: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        let m = grid.count
        var positionOfSlot = [Int32](repeating: 0, count: m)
        var visits = 0
        positionOfSlot.withUnsafeMutableBufferPointer { positionOfSlot in
            for p in 0..<m { positionOfSlot[Int(points[p].slot)] = Int32(p) }
            for c in positionOfSlot {
                let centre = Int(c)
                // Every earlier entry is decided: an undecided one is a centre (owners are only set here).
                guard owner[centre] < 0 else { continue }
                owner[centre] = c
                let cx = points[centre].x, cy = points[centre].y
                _ = grid.forEachInBlock(around: centre) { q in
                    #if DEBUG
                    visits += 1
                    #endif
                    if owner[q] < 0, test.takes(cx, cy, points[q].x, points[q].y) { owner[q] = c }
                    return false
                }
            }
        }
        return visits
    }

    /// Fills `owner` (all -1 on entry) for `owners(_:test:visits:)` in cell order, where every entry scans its
    /// block (reading memory in order) until its earlier neighbours that matter are decided. Returns the entries
    /// visited (debug builds; else 0).
    ///
    /// On a large level the rows of cells are split in two bands decided at once on two threads (`OwnerJob`), the
    /// two rows between them left for after: a band writes its own rows only and reads its rows and the row next to
    /// it, which nobody writes meanwhile. An entry is decided from decided entries alone, and the greedy pass has one
    /// answer, so the owners do not depend on the order or the timing; the entries a band could not decide (those
    /// waiting on the rows between) are finished here with the rows between.
    private static func decideOwners(
        _ grid: ClusterNeighbourGrid, points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>, test: ClusterReach,
        owner: UnsafeMutableBufferPointer<Int32>
    ) -> Int {
        let m = grid.count
        let job = OwnerJob(grid: grid, points: points, test: test, owner: owner)
        guard m >= parallelOwnerCount, let (low, high) = grid.rowBands() else {
            var pending: [Int32] = []
            var visits = job.firstPass(0..<m, pending: &pending)
            visits += job.settle(&pending)
            return visits
        }
        let (a, b) = forkJoin({ job.band(low) }, { job.band(high) })
        var pending = a.pending
        pending.reserveCapacity(a.pending.count + (high.lowerBound - low.upperBound) + b.pending.count)
        for p in low.upperBound..<high.lowerBound { pending.append(Int32(p)) }
        pending.append(contentsOf: b.pending)
        return a.visits + b.visits + job.settle(&pending)
    }

    /// Entries of a level from which `decideOwners` splits its rows over two threads: below it the hand-off costs
    /// more than half the scans.
    static let parallelOwnerCount = 16_384

    /// The owner decisions of `decideOwners` over sorted positions of a grid. Writes go to `owner` at the positions
    /// decided, so jobs over positions whose blocks do not reach each other's rows may run on separate threads.
    private struct OwnerJob: @unchecked Sendable {
        let grid: ClusterNeighbourGrid
        let points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>
        let test: ClusterReach
        let owner: UnsafeMutableBufferPointer<Int32>

        /// Decides position p when the neighbours that matter are decided; returns whether it did.
        @inline(__always)
        func decide(_ p: Int, visits: inout Int) -> Bool {
            // An earlier entry q takes p when p's position as held at the precision is within the radius of q's.
            let r2 = test.radiusSquared
            let s = points[p].slot, px = test.precision.rounded(points[p].x), py = test.precision.rounded(points[p].y)
            var centreSlot = Int32.max, centre = -1, openSlot = Int32.max
            _ = grid.forEachInBlock(around: p) { q in
                #if DEBUG
                visits += 1
                #endif
                // Only earlier entries matter (the slot test also skips p itself).
                let sq = points[q].slot
                guard sq < s, test.distanceSquared(points[q].x, points[q].y, px, py) <= r2 else {
                    return false
                }
                let o = owner[q]
                if o < 0 {
                    if sq < openSlot { openSlot = sq }
                } else if o == Int32(q), sq < centreSlot {
                    centreSlot = sq
                    centre = q
                }
                return false
            }
            // An undecided earlier neighbour before the earliest centre may still become the owner.
            if openSlot < centreSlot { return false }
            owner[p] = Int32(centre >= 0 ? centre : p)
            return true
        }

        /// Tries every position of `positions` once, appending those left undecided to `pending`; returns the visits.
        func firstPass(_ positions: Range<Int>, pending: inout [Int32]) -> Int {
            var visits = 0
            for p in positions where !decide(p, visits: &visits) { pending.append(Int32(p)) }
            return visits
        }

        /// Passes over `pending` while a pass decides something; returns the visits. With every other position
        /// decided or in `pending` it empties it (the earliest undecided entry can always be decided).
        func settle(_ pending: inout [Int32]) -> Int {
            var visits = 0
            while !pending.isEmpty {
                var kept = 0
                for k in pending.indices where !decide(Int(pending[k]), visits: &visits) {
                    pending[kept] = pending[k]
                    kept += 1
                }
                if kept == pending.count { break }
                pending.removeLast(pending.count - kept)
            }
            return visits
        }

        /// A band's first pass and settling: the positions it leaves undecided, and the visits.
        func band(_ positions: Range<Int>) -> (pending: [Int32], visits: Int) {
            var pending: [Int32] = []
            var visits = firstPass(positions, pending: &pending)
            visits += settle(&pending)
            return (pending, visits)
        }
    }
}
