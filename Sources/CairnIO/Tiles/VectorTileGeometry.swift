/// A feature's geometry as MVT 2.1 encodes it (section 4.3): its type and the command integers, each position a
/// zig-zag delta from the cursor, which starts at (0, 0) for every feature.
///
/// Points and multipoints are built here; lines and polygons in `VectorTileGeometry+Lines` (`lineString(_:)`,
/// `polygon(_:)`: MoveTo, LineTo and ClosePath over the same `append(_:_:cursor:to:)` cursor writer, repeated
/// vertices and degenerate parts dropped, rings wound as MVT 2.1 says). Clipping to the tile plus its buffer happens
/// before, in `TileShapes` and `TileShapeClipper`.
public struct VectorTileGeometry: Hashable, Sendable {
    /// What the commands draw.
    public let type: VectorTileGeometryType
    /// Command and parameter integers, as written to the feature's packed `geometry` field.
    public let commands: [UInt32]

    /// A geometry from its type and command integers, for callers that encode their own (no check is made).
    /// - Complexity: O(1).
    public init(type: VectorTileGeometryType, commands: [UInt32]) {
        self.type = type
        self.commands = commands
    }

    /// One point: MoveTo(1) and its (x, y), as deltas from (0, 0).
    /// - Throws: `VectorTileError.coordinateOutOfRange` beyond ±(2^31 - 1).
    /// - Complexity: O(1).
    public static func point(_ p: VectorTilePoint) throws(VectorTileError) -> VectorTileGeometry {
        try multiPoint(CollectionOfOne(p))
    }

    /// Several points in one feature: one MoveTo with their count, each point a delta from the one before.
    /// - Throws: `VectorTileError.emptyGeometry` for no points, `.tooManyPoints` above 2^29 - 1, and
    ///   `.coordinateOutOfRange` when a step between points is beyond ±(2^31 - 1).
    /// - Complexity: O(n) in the points.
    public static func multiPoint(_ points: some Collection<VectorTilePoint>) throws(VectorTileError) -> VectorTileGeometry {
        guard !points.isEmpty else { throw .emptyGeometry }
        guard points.count <= VectorTileCommand.maxCount else { throw .tooManyPoints(points.count) }
        var commands: [UInt32] = []
        commands.reserveCapacity(1 + 2 * points.count)
        var cursor = VectorTilePoint(x: 0, y: 0)
        try append(.moveTo, points, cursor: &cursor, to: &commands)
        return VectorTileGeometry(type: .point, commands: commands)
    }

    /// Appends `command` repeated once per point of `points` (a count the caller has checked), each point as its
    /// zig-zag delta from the cursor, which ends on the last point: the one writer every geometry type shares.
    /// - Complexity: O(n).
    static func append(_ command: VectorTileCommand, _ points: some Collection<VectorTilePoint>,
                       cursor: inout VectorTilePoint, to commands: inout [UInt32]) throws(VectorTileError) {
        commands.append(command.integer(count: points.count))
        for p in points {
            // The spec's range is symmetric: -(2^31 - 1)...(2^31 - 1); Int32.min is outside it.
            let (wideX, overflowX) = p.x.subtractingReportingOverflow(cursor.x)
            let (wideY, overflowY) = p.y.subtractingReportingOverflow(cursor.y)
            guard !overflowX, !overflowY, let dx = Int32(exactly: wideX), let dy = Int32(exactly: wideY),
                  dx != .min, dy != .min else { throw .coordinateOutOfRange(p) }
            commands.append(ProtobufWire.zigZag(dx))
            commands.append(ProtobufWire.zigZag(dy))
            cursor = p
        }
    }
}
