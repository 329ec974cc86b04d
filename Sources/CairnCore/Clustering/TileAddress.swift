/// A map tile in the XYZ scheme of web maps: its zoom, its column `x` counted from the west (the antimeridian) and
/// its row `y` counted from the north, each in 0..<2^zoom.
public struct TileAddress: Hashable, Sendable {
    /// The zoom, 0...`maxZoom`.
    public let zoom: Int
    /// The column, from 0 at the west edge of the world.
    public let x: Int
    /// The row, from 0 at the north edge of the world (MBTiles' TMS rows count from the south instead).
    public let y: Int

    /// The deepest zoom a tile address holds: `ClusterIndex.tile(z:x:y:)` answers up to it.
    public static let maxZoom = 30

    /// The tile at `zoom`, `x`, `y`, or nil when the zoom is outside 0...`maxZoom` or a column or row is outside
    /// 0..<2^zoom.
    /// - Complexity: O(1).
    public init?(zoom: Int, x: Int, y: Int) {
        guard (0...Self.maxZoom).contains(zoom), (0..<(1 << zoom)).contains(x), (0..<(1 << zoom)).contains(y) else {
            return nil
        }
        self.init(checkedZoom: zoom, x: x, y: y)
    }

    /// A tile whose parts the caller has checked.
    init(checkedZoom zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }
}
