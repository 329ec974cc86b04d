/// Which points can take part in the greedy pass at each zoom, decided once before building a `ClusterIndex`.
///
/// A point that nothing lies near is carried unchanged from one level to the next: it takes nothing and nothing takes
/// it. At the top zooms that is almost every point, so the builder only visits the points that may have a neighbour
/// (and every cluster). The test is a bound: a cluster formed at zoom z' holds its points within 4·r(z') of its
/// centroid (its centroid is within r(z') of its centre entry, its children within r(z') of the centre, and theirs,
/// formed one zoom up with half the radius, within 2·r(z') of their own centroids). The entries of the level above
/// zoom z were formed at zooms above z, so they hold their points within 2·r(z); a point with a neighbour at zoom z
/// therefore has another point within 3·r(z). A point whose nearest other point is farther than that is carried.
/// With float32 positions (`ClusterPrecision`) an entry takes another whose rounded position is within r, so each
/// step of that chain may stretch by the rounding s: at k zooms below `maxZoom` the bound is 3·r(z) + (2k + 1)·s.
///
/// The nearest other point is bounded from below on a grid: a point alone in its 3×3 block of cells has none nearer
/// than a cell; blocks holding too many points are looked at again on a finer grid, and points still crowded at the
/// finest grid that matters count as always active.
struct ClusterActivation {
    /// Points by the zoom from which they take part (highest first), ascending within a zoom.
    private(set) var points: [UInt32] = []
    /// Per zoom, where its points start in `points` (zoom z's run is `start[z]..<start[z + 1]`, reading zooms
    /// downwards: index `maxZoom - z`).
    private var start: [Int] = []
    /// Points that may share their position with another one (ascending).
    private(set) var maybeIdentical: [Int] = []
    private let maxZoom: Int

    /// Most other points looked at around one point before its block is looked at again on a finer grid.
    static let blockBudget = 48

    /// Decides, for every point, the highest zoom at which it may have a neighbour.
    /// - Complexity: O(n) expected for n points not crowded beyond the finest grid; crowded points cost a sort.
    init(positions: [ClusterPosition], options: ClusterOptions) {
        let n = positions.count
        maxZoom = options.maxZoom
        let zooms = options.maxZoom - options.minZoom + 1
        // A point joins at the highest zoom whose threshold its bound does not exceed.
        let thresholds = (0..<zooms).map { k in
            Self.threshold(radius: options.unitRadius(zoom: options.maxZoom - k), roundingReach: options.precision.roundingReach,
                           zoomsBelowMax: k)
        }
        let bound = Self.nearestBounds(positions, finest: thresholds[0])
        var zoomIndex = [UInt8](repeating: UInt8.max, count: n)
        var counts = [Int](repeating: 0, count: zooms + 1)
        for i in 0..<n {
            let b = bound[i]
            if b == 0 { maybeIdentical.append(i) }
            guard !(b > thresholds[zooms - 1]) else { continue } // near nothing even at the lowest zoom
            var k = 0
            while k < zooms, b > thresholds[k] { k += 1 }
            guard k < zooms else { continue }
            zoomIndex[i] = UInt8(k)
            counts[k + 1] += 1
        }
        for k in 0..<zooms { counts[k + 1] += counts[k] }
        start = counts
        points = [UInt32](repeating: 0, count: counts[zooms])
        var next = counts
        for i in 0..<n where zoomIndex[i] != UInt8.max {
            let k = Int(zoomIndex[i])
            points[next[k]] = UInt32(i)
            next[k] += 1
        }
    }

    /// The points that start taking part at `zoom`, ascending.
    func joining(atZoom zoom: Int) -> ArraySlice<UInt32> {
        let k = maxZoom - zoom
        guard k >= 0, k + 1 < start.count else { return [] }
        return points[start[k]..<start[k + 1]]
    }

    /// The nearest-point distance up to which a point may have a neighbour at a zoom of radius `radius`,
    /// `zoomsBelowMax` zooms below `maxZoom`, with positions rounded by up to `roundingReach`:
    /// 3·radius + (2·zoomsBelowMax + 1)·roundingReach, with room for rounding in centroids and distances.
    static func threshold(radius: Double, roundingReach: Double = 0, zoomsBelowMax: Int = 0) -> Double {
        3 * radius * (1 + 1e-6) + 1e-12 + Double(2 * zoomsBelowMax + 1) * roundingReach
    }

    /// Per point, a lower bound on the distance to the nearest other point (0 when it may be identical to one or
    /// is nearer to one than `finest`). `parallel` false keeps every round on this thread (tests compare both).
    static func nearestBounds(_ positions: [ClusterPosition], finest: Double, parallel: Bool = true) -> [Double] {
        let n = positions.count
        var bound = [Double](repeating: 0, count: n)
        guard n > 1 else {
            if n == 1 { bound[0] = .infinity }
            return bound
        }
        // First grid: a few points per 3×3 block on average.
        var side = 1
        while side < 1 << 30, side * side < 3 * n { side *= 2 }
        let finestSquared = finest * finest
        // Points still without a bound, and the points on the grid: those, and every point that may lie within a
        // cell of one of them (a point whose exact nearest distance is below a cell).
        var open = [Bool](repeating: true, count: n)
        var members: [Int32] = []
        var all = true
        while true {
            let cell = 1 / Double(side)
            let grid = ClusterNeighbourGrid(count: all ? n : members.count, side: side, radius: cell) { k in
                let i = all ? k : Int(members[k])
                return ClusterNeighbourGrid.Point(x: positions[i].x, y: positions[i].y, slot: Int32(i), weight: 1, entry: UInt32(i))
            }
            let crowded = grid.points.withUnsafeBufferPointer { points in
                open.withUnsafeMutableBufferPointer { open in
                    bound.withUnsafeMutableBufferPointer { bound in
                        let job = BoundJob(grid: grid, points: points, open: open, bound: bound, finestSquared: finestSquared)
                        // Each position writes its own point's bound only: the halves write disjoint memory, so the
                        // bounds are the one loop's whatever the timing.
                        guard parallel, grid.count >= parallelCount else { return job.run(0..<grid.count) }
                        let half = grid.count / 2
                        let (a, b) = forkJoin({ job.run(0..<half) }, { job.run(half..<grid.count) })
                        return a || b
                    }
                }
            }
            // On cells no wider than the finest threshold, any bound would be below it: crowded points stay at 0.
            guard crowded, side < 1 << 27, 1 / Double(side * 8) > finest else { break }
            side *= 8
            let finer = 1 / Double(side)
            members = (0..<Int32(n)).filter { open[Int($0)] || bound[Int($0)] < finer }
            all = false
        }
        return bound
    }

    /// Points on a round's grid from which its positions are bounded on two threads: below it the hand-off costs
    /// more than half the loop.
    static let parallelCount = 16_384

    /// One round of `nearestBounds` on `grid` (its slots are the points) over a range of its sorted positions:
    /// bounds the open points alone enough in their block, closes those nearer than the finest threshold to another,
    /// and returns whether any stays crowded. Reads and writes are unchecked: slots and positions come from the
    /// grid. A position writes its own point's `open` and `bound` only, so ranges may run on separate threads.
    private struct BoundJob: @unchecked Sendable {
        let grid: ClusterNeighbourGrid
        let points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>
        let open: UnsafeMutableBufferPointer<Bool>
        let bound: UnsafeMutableBufferPointer<Double>
        let finestSquared: Double

        func run(_ positions: Range<Int>) -> Bool {
            boundBlocks(grid, positions: positions, points: points, open: open, bound: bound, finestSquared: finestSquared)
        }
    }

    /// `BoundJob.run`.
    private static func boundBlocks(
        _ grid: ClusterNeighbourGrid, positions: Range<Int>, points: UnsafeBufferPointer<ClusterNeighbourGrid.Point>,
        open: UnsafeMutableBufferPointer<Bool>, bound: UnsafeMutableBufferPointer<Double>, finestSquared: Double
    ) -> Bool {
        var crowded = false
        let alone = 1 / Double(grid.side) * (1 - 1e-9)
        for p in positions {
            let point = Int(points[p].slot)
            guard open[point] else { continue }
            let px = points[p].x, py = points[p].y
            var best = Double.infinity
            var seen = 0
            let stopped = grid.forEachInBlock(around: p) { q in
                if q == p { return false }
                seen += 1
                if seen > blockBudget { return true }
                let d = ClusterNeighbourGrid.distanceSquared(px, py, points[q].x, points[q].y)
                if d < best { best = d }
                return best <= finestSquared
            }
            if !stopped {
                bound[point] = min(best.squareRoot(), alone)
                open[point] = false
            } else if best <= finestSquared {
                open[point] = false // near enough to count at every zoom: bound 0
            } else {
                crowded = true // look again on a finer grid
            }
        }
        return crowded
    }
}
