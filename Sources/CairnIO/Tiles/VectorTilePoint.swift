/// A position in a vector tile's integer grid: `x` from the tile's west edge, `y` from its north edge (down), in
/// units of the layer's extent (0...extent is the tile; beyond it, the buffer around the tile).
public struct VectorTilePoint: Hashable, Sendable {
    /// Units from the tile's left edge (negative in the buffer west of the tile).
    public var x: Int
    /// Units from the tile's top edge, positive downward (negative in the buffer north of the tile).
    public var y: Int

    /// A position in tile units.
    /// - Complexity: O(1).
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
