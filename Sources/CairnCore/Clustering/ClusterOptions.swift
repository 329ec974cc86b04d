/// How a `ClusterIndex` groups points, with the units and defaults of Mapbox's supercluster.
public struct ClusterOptions: Hashable, Sendable {
    /// The highest zoom a `ClusterIndex` may be built for; keeps cluster ids within 5 bits of zoom.
    public static let zoomLimit = 24

    /// Cluster radius in pixels (of a tile `extent` pixels wide), at most `extent`: a radius of the extent is the map's
    /// whole width at zoom 0, and a wider one would only make the lowest zooms costlier.
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
    /// - Throws: `ClusterOptionsError` when a value is out of range, or the radius exceeds the extent.
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
        guard radiusPixels <= extent else { throw .radiusBeyondExtent(radius: radiusPixels, extent: extent) }
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
