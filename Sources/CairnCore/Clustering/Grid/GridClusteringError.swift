import Foundation

/// Why grid clustering was refused.
public enum GridClusteringError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A viewport side is not a positive number of pixels.
    case invalidSize(width: Int, height: Int)
    /// The viewport's box has no width or no height on the map.
    case emptyBox(BoundingBox)
    /// The zoom is not a finite number in 0...30.
    case invalidZoom(Double)
    /// The tile size is not a positive finite number of pixels.
    case invalidTileSize(Double)
    /// The cell size is not a positive finite number of pixels.
    case invalidCellSize(Double)

    public var description: String {
        switch self {
        case .invalidSize(let w, let h): "viewport sides must be 1 to \(Viewport.maxSidePixels) pixels, got \(w)x\(h)"
        case .emptyBox(let box): "a viewport's box must have a width and a height on the map (beyond ±85.05° is the map's edge), got \(box)"
        case .invalidZoom(let z): "zoom must be a number from 0 to 30, got \(z)"
        case .invalidTileSize(let s): "tile size must be a positive number of pixels, got \(s)"
        case .invalidCellSize(let s): "cell size must be at least 1 pixel, got \(s)"
        }
    }
}
