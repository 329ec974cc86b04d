/// One named layer of a vector tile, encoded as features are appended (MVT 2.1, section 4.1).
///
/// Each feature is written to the layer's bytes when it is appended; its property names and values go through two
/// tables, so that every distinct name (`keys`) and every distinct value (`values`, equal when their bytes are) is
/// stored once in the layer and a feature holds only pairs of indices (`tags`). The layer is written with `version`
/// 2 first, as the spec asks, then `name`, the features, `keys`, `values` and `extent`.
public struct VectorTileLayer: Sendable {
    /// The layer's name, unique within its tile (`clusters`, `points`).
    public let name: String
    /// Tile units per side: 4096 by default, the spec's default and the common choice; positions from 0 to `extent`
    /// lie on the tile, beyond on its buffer.
    public let extent: UInt32
    /// How many features were appended.
    public private(set) var featureCount = 0

    /// The encoded `features` fields (field 2), in order.
    private var featureBytes: [UInt8] = []
    /// The encoded `keys` fields (field 3) and each key's index.
    private var keyBytes: [UInt8] = []
    private var keyIndices: [String: UInt32] = [:]
    /// The encoded `values` fields (field 4) and each value's index.
    private var valueBytes: [UInt8] = []
    private var valueIndices: [VectorTileValue: UInt32] = [:]
    /// A value message while it is built, kept to save an allocation per new value.
    private var scratch: [UInt8] = []

    /// The MVT major version these layers follow (2.1 is written as 2).
    public static let version: UInt64 = 2

    /// An empty layer named `name`, `extent` units per side.
    /// - Throws: `VectorTileError.invalidExtent` for an extent of 0.
    /// - Complexity: O(1).
    public init(name: String, extent: UInt32 = 4096) throws(VectorTileError) {
        guard extent > 0 else { throw .invalidExtent(extent) }
        self.name = name
        self.extent = extent
    }

    /// Whether no feature was appended (a tile leaves such a layer out).
    /// - Complexity: O(1).
    public var isEmpty: Bool { featureCount == 0 }

    /// How many distinct property names the layer holds.
    /// - Complexity: O(1).
    public var keyCount: Int { keyIndices.count }

    /// How many distinct property values the layer holds.
    /// - Complexity: O(1).
    public var valueCount: Int { valueIndices.count }

    /// Appends `feature`: its id (when it has one), its tags, its geometry type and commands.
    /// - Complexity: O(p + g) for p properties and g command integers, amortised (a name or value seen before is
    ///   one hash lookup).
    public mutating func append(_ feature: VectorTileFeature) {
        var tags: [UInt32] = []
        tags.reserveCapacity(feature.properties.count * 2)
        for (key, value) in feature.properties {
            tags.append(index(ofKey: key))
            tags.append(index(ofValue: value))
        }
        append(id: feature.id, tags: tags, geometry: feature.geometry)
    }

    /// Appends one feature from its parts (what `append(_:)` does after interning the properties).
    private mutating func append(id: UInt64?, tags: [UInt32], geometry: VectorTileGeometry) {
        let tagsSize = ProtobufWire.packedSize(tags), geometrySize = ProtobufWire.packedSize(geometry.commands)
        var size = 2 // type: key and a one-byte enum
        if let id { size += 1 + ProtobufWire.varintSize(id) }
        if !tags.isEmpty { size += ProtobufWire.lengthDelimitedSize(payload: tagsSize) }
        if !geometry.commands.isEmpty { size += ProtobufWire.lengthDelimitedSize(payload: geometrySize) }
        // Sizes are known up front, so the feature is written straight into the layer (no message buffer to copy).
        ProtobufWire.appendKey(field: 2, wireType: ProtobufWire.lengthDelimited, to: &featureBytes)
        ProtobufWire.appendVarint(UInt64(size), to: &featureBytes)
        if let id {
            ProtobufWire.appendKey(field: 1, wireType: ProtobufWire.varint, to: &featureBytes)
            ProtobufWire.appendVarint(id, to: &featureBytes)
        }
        ProtobufWire.appendPackedField(2, tags, to: &featureBytes)
        ProtobufWire.appendKey(field: 3, wireType: ProtobufWire.varint, to: &featureBytes)
        ProtobufWire.appendVarint(UInt64(geometry.type.rawValue), to: &featureBytes)
        ProtobufWire.appendPackedField(4, geometry.commands, to: &featureBytes)
        featureCount += 1
    }

    /// The index of `key` in the layer's keys, adding it the first time.
    private mutating func index(ofKey key: String) -> UInt32 {
        if let found = keyIndices[key] { return found }
        let next = UInt32(keyIndices.count)
        keyIndices[key] = next
        var key = key
        key.withUTF8 { ProtobufWire.appendBytesField(3, $0, to: &keyBytes) }
        return next
    }

    /// The index of `value` in the layer's values, adding it the first time.
    private mutating func index(ofValue value: VectorTileValue) -> UInt32 {
        if let found = valueIndices[value] { return found }
        let next = UInt32(valueIndices.count)
        valueIndices[value] = next
        scratch.removeAll(keepingCapacity: true)
        value.appendMessage(to: &scratch)
        ProtobufWire.appendBytesField(4, scratch, to: &valueBytes)
        return next
    }

    /// The layer message's bytes (without the tile's field key and length).
    /// - Complexity: O(n) in the layer's bytes.
    func appendMessage(to out: inout [UInt8]) {
        ProtobufWire.appendKey(field: 15, wireType: ProtobufWire.varint, to: &out)
        ProtobufWire.appendVarint(Self.version, to: &out)
        var name = name
        name.withUTF8 { ProtobufWire.appendBytesField(1, $0, to: &out) }
        out.append(contentsOf: featureBytes)
        out.append(contentsOf: keyBytes)
        out.append(contentsOf: valueBytes)
        ProtobufWire.appendKey(field: 5, wireType: ProtobufWire.varint, to: &out)
        ProtobufWire.appendVarint(UInt64(extent), to: &out)
    }

    /// The size of `appendMessage`'s output, so the tile can write the length before the layer.
    /// - Complexity: O(1).
    var messageSize: Int {
        1 + ProtobufWire.varintSize(Self.version) // field 15's key takes one byte: (15 << 3) < 128
            + ProtobufWire.lengthDelimitedSize(payload: name.utf8.count)
            + featureBytes.count + keyBytes.count + valueBytes.count
            + 1 + ProtobufWire.varintSize(UInt64(extent))
    }
}
