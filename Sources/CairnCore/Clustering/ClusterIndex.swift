/// Map clustering with the semantics of Mapbox's supercluster: a hierarchy of greedy clusters, one level per zoom.
///
/// Points are projected to Web Mercator, rounded to Float as supercluster holds them (`ClusterPrecision`). From
/// `maxZoom` down to `minZoom`, each level clusters the level one zoom above it: its entries are visited in that
/// level's order (the input order at the top); an entry not yet taken gathers the untaken entries within
/// `radius / (extent * 2^zoom)` (unit-square units) and, when their total count reaches `minPoints`, they become one
/// cluster at their weighted centroid, in the origin's place in the order; otherwise the entry and then the entries
/// it gathered go on to the next level, those in supercluster's k-d tree order (`ClusterKDOrder`).
///
/// Beyond supercluster: neighbourhoods wrap across the antimeridian (unless `wrapsAntimeridian` is off); points at
/// identical coordinates are grouped before clustering, so they never split, even above `maxZoom` (`expansionZoom`
/// says `.identicalPoints`); clusters carry aggregates (sum/min/max/mean of numeric attributes, counts per category)
/// and an extent, which makes grid clustering exact and fast; edits (`insert`, `remove`, `move`) give exactly what a
/// rebuild over the same points in the same order gives.
///
/// Storage is flat: one table of entries (points and clusters of every zoom, each alive over a range of zooms)
/// and a query tree over it: packed R-trees over runs of entries of equal creation zoom and first zoom shown, so a
/// query at one zoom reads almost nothing of other zooms, plus a small overlay of the entries edits have changed.
///
/// Reference: V. Agafonkin, supercluster (https://github.com/mapbox/supercluster), the algorithm this follows.
public struct ClusterIndex: Sendable {
    /// The options the index was built with.
    public let options: ClusterOptions
    /// The input points, in input order.
    var points: ClusterPoints { didSet { forgetBlockGrids() } }
    /// The built hierarchy.
    var hierarchy: ClusterHierarchy { didSet { forgetBlockGrids() } }
    /// The low levels' block grids, built by the first query of each (`forEachPart`); dropped by any change.
    private var blockGrids = ClusterBlockGrids()
    /// How long the last build of every level took: a batch of edits that has cost as much goes on by rebuilding.
    var lastBuildDuration: Duration = .zero

    /// Clusters bare coordinates.
    /// - Complexity: O(n) expected per zoom for n points (a grid per zoom; points nothing lies near are skipped).
    public init(coordinates: [Coordinate], options: ClusterOptions = .standard) {
        self.options = options
        points = ClusterPoints(coordinates: coordinates, options: options)
        (hierarchy, lastBuildDuration) = Self.build(points, options: options)
    }

    /// Clusters features at their locations, aggregating the attributes the options name.
    /// - Complexity: O(n log n) expected for n features.
    public init(features: [Feature], options: ClusterOptions = .standard) {
        self.options = options
        points = ClusterPoints(features: features, options: options)
        (hierarchy, lastBuildDuration) = Self.build(points, options: options)
    }

    /// Clusters points already projected (a subset of another index's input).
    init(points: ClusterPoints, options: ClusterOptions) {
        self.options = options
        self.points = points
        (hierarchy, lastBuildDuration) = Self.build(points, options: options)
    }

    /// The hierarchy over `points`, and how long building it took.
    /// - Complexity: O(n log n) expected.
    static func build(_ points: ClusterPoints, options: ClusterOptions) -> (ClusterHierarchy, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let hierarchy = ClusterHierarchy(points: points, options: options)
        return (hierarchy, clock.now - start)
    }

    /// The number of input points.
    public var count: Int { points.count }

    /// The coordinate of the input point at `index`.
    /// - Complexity: O(1).
    public func coordinate(ofPoint index: Int) -> Coordinate { points.coordinates[index] }

    /// The number of clusters over all zooms (groups of identical points included).
    public var clusterCount: Int { hierarchy.clusterCount }

    /// Bytes held by the index's arrays (points, entries, tree, aggregates), for memory reports.
    /// - Complexity: O(1).
    public var memoryBytes: Int { points.memoryBytes + hierarchy.memoryBytes }

    /// The highest level with a block grid: up to zoom 7 a viewport holds many entries per 128-pixel cell (the
    /// grids cost 2^(2·level+2) cells each, 65,536 at 7); above it the tree's search reads little.
    public static let blockLevelLimit = 7

    /// A change to the points or the hierarchy: the grids built for the old ones no longer hold (a copy of the
    /// index that shares them keeps them).
    private mutating func forgetBlockGrids() {
        if !isKnownUniquelyReferenced(&blockGrids) || blockGrids.isUsed { blockGrids = ClusterBlockGrids() }
    }

    /// The block grid of `level`, built at its first use, or nil above `blockLevelLimit`.
    func blockGrid(level: Int) -> ClusterLevelGrid? {
        guard level >= 0, level <= Self.blockLevelLimit else { return nil }
        return blockGrids.grid(level: level) { ClusterLevelGrid(hierarchy: hierarchy, level: level) }
    }

    /// The level a query at `zoom` reads: zooms below `minZoom` read `minZoom`, above `maxZoom` read `maxZoom + 1`.
    func level(forZoom zoom: Int) -> Int {
        max(options.minZoom, min(zoom, options.maxZoom + 1))
    }
}
