/// A Mapbox Vector Tile 2.1 (https://github.com/mapbox/vector-tile-spec/tree/master/2.1): named layers of features,
/// encoded as the protocol-buffer message `Tile` (`application/vnd.mapbox-vector-tile`, files named `.mvt`).
///
/// Build each `VectorTileLayer` by appending features, add the layers here, and take `encoded()`:
/// ```swift
/// var points = try VectorTileLayer(name: "points")
/// points.append(VectorTileFeature(id: 7, geometry: try .point(VectorTilePoint(x: 25, y: 17)),
///                                 properties: [("name", .string("Kaivopuisto")), ("rating", .number(4.5))]))
/// var tile = VectorTileEncoder()
/// try tile.append(points)
/// let bytes = tile.encoded()
/// ```
/// A layer with no features is left out (the spec: a layer SHOULD contain at least one feature), so a tile with
/// nothing in it encodes as zero bytes, the empty `Tile` message, which every decoder reads as no layers; a server
/// answers it with 204 No Content.
public struct VectorTileEncoder: Sendable {
    /// The layers in the order added, empty ones included.
    public private(set) var layers: [VectorTileLayer] = []

    /// An encoder with no layers.
    /// - Complexity: O(1).
    public init() {}

    /// Adds `layer` after those already added.
    /// - Throws: `VectorTileError.duplicateLayerName` when a layer of that name (byte for byte) was added before.
    /// - Complexity: O(l) in the layers already added.
    public mutating func append(_ layer: VectorTileLayer) throws(VectorTileError) {
        guard !layers.contains(where: { $0.name.utf8.elementsEqual(layer.name.utf8) }) else {
            throw .duplicateLayerName(layer.name)
        }
        layers.append(layer)
    }

    /// Whether the tile holds no feature in any layer (it encodes as zero bytes).
    /// - Complexity: O(l).
    public var isEmpty: Bool { layers.allSatisfy(\.isEmpty) }

    /// The tile's bytes: each non-empty layer as a `layers` field (3) of the `Tile` message.
    /// - Complexity: O(n) in the bytes written.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(layers.reduce(0) { $0 + ($1.isEmpty ? 0 : ProtobufWire.lengthDelimitedSize(payload: $1.messageSize)) })
        for layer in layers where !layer.isEmpty {
            ProtobufWire.appendKey(field: 3, wireType: ProtobufWire.lengthDelimited, to: &out)
            ProtobufWire.appendVarint(UInt64(layer.messageSize), to: &out)
            layer.appendMessage(to: &out)
        }
        return out
    }
}
