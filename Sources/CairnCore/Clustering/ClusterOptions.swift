/// How a `ClusterIndex` groups points, with the units and defaults of Mapbox's supercluster.
public struct ClusterOptions: Hashable, Sendable {
    /// The highest zoom a `ClusterIndex` may be built for; keeps cluster ids within 5 bits of zoom.
    public static let zoomLimit = 24

    /// Cluster radius in pixels (of a tile `extent` pixels wide).
    public var radiusPixels: Double
    /// Tile extent in pixels: the radius is relative to it.
    public var extent: Double
    /// The lowest zoom at which clusters are built.
    public var minZoom: Int
    /// The highest zoom at which clusters are built; above it points stand alone (identical ones stay together).
    public var maxZoom: Int
    /// The least total count a group needs to become a cluster.
    public var minPoints: Int
    /// Numeric attributes aggregated on each cluster (sum, min, max, mean).
    public var numericAttributes: [String]
    /// A category attribute counted per value on each cluster (e.g. `category` → how many events per sport).
    public var categoryAttribute: String?
    /// How precisely projected positions are held while clustering: `.float32` (the default) as supercluster holds them.
    public var precision: ClusterPrecision
    /// Whether points on both sides of the antimeridian (179.99° and -179.99°) are neighbours (the default). Off,
    /// they never cluster together, as in supercluster, whose map Cairn then reproduces but for two documented
    /// differences: points at identical coordinates are one entry, and longitude 180 is taken as -180 (one
    /// meridian), where supercluster keeps it on the east edge.
    public var wrapsAntimeridian: Bool

    /// Creates options; the defaults are supercluster's (`radius` 40, `extent` 512, zooms 0–16, `minPoints` 2).
    /// - Throws: `ClusterOptionsError` when a value is out of range.
    /// - Complexity: O(1).
    public init(
        radiusPixels: Double = 40,
        extent: Double = 512,
        minZoom: Int = 0,
        maxZoom: Int = 16,
        minPoints: Int = 2,
        numericAttributes: [String] = [],
        categoryAttribute: String? = nil,
        precision: ClusterPrecision = .float32,
        wrapsAntimeridian: Bool = true
    ) throws(ClusterOptionsError) {
        guard radiusPixels.isFinite, radiusPixels > 0 else { throw .invalidRadius(radiusPixels) }
        guard extent.isFinite, extent > 0 else { throw .invalidExtent(extent) }
        guard (0...Self.zoomLimit).contains(minZoom), (0...Self.zoomLimit).contains(maxZoom), minZoom <= maxZoom else {
            throw .invalidZooms(minZoom: minZoom, maxZoom: maxZoom)
        }
        guard minPoints >= 1 else { throw .invalidMinPoints(minPoints) }
        self.radiusPixels = radiusPixels
        self.extent = extent
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minPoints = minPoints
        self.numericAttributes = numericAttributes
        self.categoryAttribute = categoryAttribute
        self.precision = precision
        self.wrapsAntimeridian = wrapsAntimeridian
    }

    /// supercluster's defaults.
    public static let standard = ClusterOptions(unchecked: ())

    private init(unchecked: Void) {
        radiusPixels = 40
        extent = 512
        minZoom = 0
        maxZoom = 16
        minPoints = 2
        numericAttributes = []
        categoryAttribute = nil
        precision = .float32
        wrapsAntimeridian = true
    }

    /// The neighbourhood radius at `zoom` in unit-square (Web Mercator) units: `radius / (extent * 2^zoom)`.
    /// - Complexity: O(1).
    public func unitRadius(zoom: Int) -> Double {
        radiusPixels / (extent * Double(1 << zoom))
    }
}

/// How precisely a `ClusterIndex` holds projected (Web Mercator, unit-square) positions while clustering.
///
/// supercluster rounds each input point's projection to a 32-bit float and keeps every level's positions in a
/// 32-bit KDBush; a neighbour search starts from an entry's 64-bit position and tests the others' 32-bit ones. A
/// float32 step is about 6e-8 of the world (about 2 m at the equator, 2 pixels of a 512-pixel tile at zoom 16), a
/// few per cent of the radius at high zooms, so the rounding changes which groups form; `.float32` reproduces it.
public enum ClusterPrecision: String, Hashable, Sendable, CaseIterable {
    /// supercluster's: points' projections rounded to float32; an entry (at its 64-bit position) takes the others
    /// whose float32-rounded positions lie within the radius. A cluster's centroid is the 64-bit mean of its children's
    /// positions as held (rounded for points, 64-bit for clusters).
    case float32
    /// Every position and distance in 64-bit doubles (a float64 supercluster).
    case float64

    /// A projected coordinate as this precision holds it.
    /// - Complexity: O(1).
    @inline(__always)
    func rounded(_ v: Double) -> Double {
        self == .float32 ? Double(Float(v)) : v
    }

    /// An upper bound on the distance (unit-square units) between a position in [0, 1]² and its rounded self:
    /// float32 rounds each coordinate by at most half a step of 2^-24, so by under 2^-24 in all.
    var roundingReach: Double { self == .float32 ? 0x1p-24 : 0 }
}

/// The test by which an entry takes another while a `ClusterIndex` is built or edited: the other's position, as
/// the precision holds it, within the radius of the entry's own 64-bit position; the shorter way round the
/// antimeridian when the options wrap it.
struct ClusterReach {
    let precision: ClusterPrecision
    let wrapsAntimeridian: Bool
    /// The radius of the zoom, squared (unit-square units).
    let radiusSquared: Double

    init(options: ClusterOptions, zoom: Int) {
        precision = options.precision
        wrapsAntimeridian = options.wrapsAntimeridian
        let r = options.unitRadius(zoom: zoom)
        radiusSquared = r * r
    }

    /// Squared distance between two positions, the shorter way round when wrapping.
    /// - Complexity: O(1).
    @inline(__always)
    func distanceSquared(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        guard !wrapsAntimeridian else { return ClusterNeighbourGrid.distanceSquared(x1, y1, x2, y2) }
        let dx = x1 - x2, dy = y1 - y2
        return dx * dx + dy * dy
    }

    /// Whether an entry at the 64-bit position (cx, cy) takes one at (x, y).
    /// - Complexity: O(1).
    @inline(__always)
    func takes(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) -> Bool {
        distanceSquared(cx, cy, precision.rounded(x), precision.rounded(y)) <= radiusSquared
    }

    /// The x of `other` shifted by a whole turn when that brings it nearer to `x` across the antimeridian (when
    /// wrapping): where a cluster's centroid takes it.
    /// - Complexity: O(1).
    @inline(__always)
    func unwrap(_ other: Double, near x: Double) -> Double {
        guard wrapsAntimeridian else { return other }
        let d = other - x
        return d > 0.5 ? other - 1 : (d < -0.5 ? other + 1 : other)
    }
}

/// Why clustering options were refused.
public enum ClusterOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The radius is not a positive finite number of pixels.
    case invalidRadius(Double)
    /// The extent is not a positive finite number of pixels.
    case invalidExtent(Double)
    /// The zooms are outside 0...24 or the minimum is above the maximum.
    case invalidZooms(minZoom: Int, maxZoom: Int)
    /// `minPoints` is below 1.
    case invalidMinPoints(Int)

    public var description: String {
        switch self {
        case .invalidRadius(let r): "cluster radius must be a positive number of pixels, got \(r)"
        case .invalidExtent(let e): "tile extent must be a positive number of pixels, got \(e)"
        case .invalidZooms(let lo, let hi): "zooms must satisfy 0 <= min-zoom (\(lo)) <= max-zoom (\(hi)) <= \(ClusterOptions.zoomLimit)"
        case .invalidMinPoints(let n): "min-points must be at least 1, got \(n)"
        }
    }
}
