import Foundation

/// How grid clustering groups points on screen.
public struct GridClusterOptions: Hashable, Sendable {
    /// Cell width and height, in screen pixels.
    public var cellSizePixels: Double
    /// Whether a second pass merges clusters whose circles (one cell across) overlap.
    public var mergeOverlapping: Bool
    /// Whether `ClusterIndex.gridClusters` may read a large viewport on two threads (the answer is the same either
    /// way); false keeps every query on its caller's thread, for servers that already run one query per core.
    public var parallel: Bool

    /// Creates options (KingPin's defaults: 60-pixel cells, no merge pass; two threads for large viewports).
    /// - Throws: `GridClusteringError.invalidCellSize` unless the size is a finite number of pixels, at least 1.
    /// - Complexity: O(1).
    public init(cellSizePixels: Double = 60, mergeOverlapping: Bool = false, parallel: Bool = true) throws(GridClusteringError) {
        guard cellSizePixels.isFinite, cellSizePixels >= 1 else { throw .invalidCellSize(cellSizePixels) }
        self.cellSizePixels = cellSizePixels
        self.mergeOverlapping = mergeOverlapping
        self.parallel = parallel
    }

    /// 60-pixel cells, no merge pass, two threads for large viewports.
    public static let standard = GridClusterOptions(unchecked: ())
    private init(unchecked: Void) {
        cellSizePixels = 60
        mergeOverlapping = false
        parallel = true
    }
}
