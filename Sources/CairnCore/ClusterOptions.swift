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
        categoryAttribute: String? = nil
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
    }

    /// The neighbourhood radius at `zoom` in unit-square (Web Mercator) units: `radius / (extent * 2^zoom)`.
    /// - Complexity: O(1).
    public func unitRadius(zoom: Int) -> Double {
        radiusPixels / (extent * Double(1 << zoom))
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
