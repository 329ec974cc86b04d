/// One feature of a vector-tile layer: an optional id, a geometry, and properties in the order given.
public struct VectorTileFeature: Hashable, Sendable {
    /// The feature's `id` field (MVT 2.1: unsigned 64-bit, should be unique in its layer), or nil for none.
    public var id: UInt64?
    /// What is drawn.
    public var geometry: VectorTileGeometry
    /// Name and value pairs; the layer stores each distinct name and value once and the feature their indices.
    /// A name given twice is written twice (readers keep the last): give each once.
    public var properties: [(key: String, value: VectorTileValue)]

    /// A feature with `geometry`, an optional `id` and `properties` in order.
    /// - Complexity: O(1).
    public init(id: UInt64?, geometry: VectorTileGeometry, properties: [(key: String, value: VectorTileValue)] = []) {
        self.id = id
        self.geometry = geometry
        self.properties = properties
    }

    public static func == (a: VectorTileFeature, b: VectorTileFeature) -> Bool {
        a.id == b.id && a.geometry == b.geometry && a.properties.elementsEqual(b.properties) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(geometry)
        hasher.combine(properties.count)
        for (key, value) in properties {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}
