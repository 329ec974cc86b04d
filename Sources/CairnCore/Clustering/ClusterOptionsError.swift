/// Why clustering options were refused.
public enum ClusterOptionsError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The radius is not a positive finite number of pixels.
    case invalidRadius(Double)
    /// The extent is not a positive finite number of pixels.
    case invalidExtent(Double)
    /// The radius is wider than the extent: at zoom 0 it would reach beyond the map's whole width.
    case radiusBeyondExtent(radius: Double, extent: Double)
    /// The zooms are outside 0...24 or the minimum is above the maximum.
    case invalidZooms(minZoom: Int, maxZoom: Int)
    /// `minPoints` is below 1.
    case invalidMinPoints(Int)

    public var description: String {
        switch self {
        case .invalidRadius(let r): "cluster radius must be a positive number of pixels, got \(r)"
        case .invalidExtent(let e): "tile extent must be a positive number of pixels, got \(e)"
        case .radiusBeyondExtent(let r, let e):
            "cluster radius (\(r) pixels) must not exceed the tile extent (\(e) pixels): at zoom 0 a radius of the extent is already the map's whole width"
        case .invalidZooms(let lo, let hi): "zooms must satisfy 0 <= min-zoom (\(lo)) <= max-zoom (\(hi)) <= \(ClusterOptions.zoomLimit)"
        case .invalidMinPoints(let n): "min-points must be at least 1, got \(n)"
        }
    }
}
