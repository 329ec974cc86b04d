import CairnCore

/// Writes a map tile of clusters (`ClusterIndex.tile(z:x:y:)`) as a Mapbox Vector Tile: the same features as
/// `ClusterWriter.encodeTile`'s JSON, in two layers, and the features' lines and polygons in a third.
///
/// - `clusters`: one point feature per cluster; its `id` is the cluster id (plus `clusterIDOffset`), and its
///   properties are `cluster` (true), `cluster_id` (the same id), `point_count`, `point_count_abbreviated` (a number
///   below 1,000, else text such as `1.2k`, as supercluster gives it), `expansion_zoom` (the zoom at which it
///   splits; a group of identical points, which never splits, has none and carries `identical_points` true instead,
///   since a vector tile has no null), then the aggregates: `NAME_sum`, and `NAME_min`, `NAME_max`, `NAME_mean`
///   when a point carries NAME; `NAME_counts` as JSON text (`{"football":2,"tennis":1}`), since a tile value cannot
///   be a map (vt-pbf and tippecanoe write nested values the same way).
/// - `points`: one point feature per unclustered input feature, with `kind`, `radiusMeters`, the time fields and the
///   attributes as the JSON tile has them (strings, numbers by `VectorTileValue.number(_:)`, booleans; times as ISO
///   8601 text; string sets as JSON array text). A feature id written in plain decimal that fits 64 bits (`"42"`,
///   not `"042"`, `"4.0"` or `"park-1"`) becomes the feature's `id`; any other id goes in an `id` property instead,
///   as text, since a tile's feature id can only be an unsigned number and `"007"` read back as 7 would name another
///   feature. (Import gives no attribute the name `id`, so the property cannot clash.)
/// - `shapes`: every feature whose shape is a line, polygon or multipoint (`TileShapes`) and meets the tile plus its
///   buffer, drawn as that shape clipped to it (`TileShapeClipper`), with the `points` layer's id and properties.
///   Such a feature also stays in `clusters` and `points` at its representative point (`Feature.location`), so
///   the pins and counts are `/clusters`' and a map can label or open a park where its pin is.
///
/// Positions are in units of the layer extent (`extent`, 4096 by default, the spec's), computed from each entry's
/// exact Web Mercator position (`ClusterTileFeature.tileFractionX`), not from the JSON tile's integers, and rounded
/// once, halves up. An entry in the buffer around the tile (the clustering's radius: `radiusPixels / extent` of a
/// tile, whatever the layer extent) keeps its position beyond 0...extent (negative west and north of the tile), so a
/// cluster near a tile's edge is at the same place, with the same id, in both tiles: exactly one extent apart. On
/// the world tile (zoom 0) a cluster near the antimeridian is drawn at both edges, as in the JSON tile: two features
/// with one id, the id being what a client passes back to open it. Empty layers are left out; a tile with nothing
/// in it is zero bytes.
public struct ClusterVectorTileWriter {
    /// The index the clusters come from (for expansion zooms and aggregates).
    public let index: ClusterIndex
    /// The features the index was built from, in the same order (points are indices into it).
    public let features: [Feature]
    /// The lines and polygons of `features`, drawn in the `shapes` layer.
    public let shapes: TileShapes
    /// Added to every cluster id written, as `ClusterWriter.clusterIDOffset`: 0 for the CLI, the hierarchy's epoch
    /// for the server.
    public let clusterIDOffset: UInt64
    /// The layers' extent: tile units per side.
    public let extent: UInt32

    /// The name of the layer of clusters.
    public static let clustersLayerName = "clusters"
    /// The name of the layer of single points.
    public static let pointsLayerName = "points"
    /// The name of the layer of lines and polygons.
    public static let shapesLayerName = "shapes"
    /// The layer extent unless one is asked for: MVT 2.1's default.
    public static let defaultExtent: UInt32 = 4096
    /// The largest layer extent: positions in the buffer (at most one tile beyond the tile, since the radius is at
    /// most the clustering's extent) then stay within a geometry parameter's ±(2^31 - 1).
    public static let maxExtent: UInt32 = 1 << 30

    /// A writer for tiles of `index`, built from `features`, drawing `shapes` (of the same features), writing cluster
    /// ids plus `clusterIDOffset`, `extent` units per tile side.
    /// - Throws: `VectorTileError.extentOutOfRange` unless `extent` is in 1...`maxExtent`.
    /// - Complexity: O(1).
    public init(index: ClusterIndex, features: [Feature], shapes: TileShapes = .none, clusterIDOffset: UInt64 = 0,
                extent: UInt32 = defaultExtent) throws(VectorTileError) {
        guard extent >= 1, extent <= Self.maxExtent else { throw .extentOutOfRange(Int(extent)) }
        self.index = index
        self.features = features
        self.shapes = shapes
        self.clusterIDOffset = clusterIDOffset
        self.extent = extent
    }

    /// The layer extent a front end was given (`--tile-extent`, `extent=`), or nil when it is not a whole number
    /// in 1...`maxExtent`.
    /// - Complexity: O(1).
    public static func layerExtent(_ value: Int) -> UInt32? {
        guard value >= 1, value <= Int(maxExtent) else { return nil }
        return UInt32(value)
    }

    /// Tile (z, x, y)'s bytes: the `clusters` layer, the `points` layer and the `shapes` layer, each left out when
    /// empty; zero bytes for a tile with nothing in it or an address outside the world.
    /// - Throws: `VectorTileError.coordinateOutOfRange` for a position beyond a geometry parameter's range, which
    ///   these tiles never hold, or `.tooManyPoints` for a line or ring of over 2^29 vertices.
    /// - Complexity: O(log e + k·a) for k entries of a properties each, plus O(log p + v) for p shape parts and
    ///   the v vertices of the shapes the tile shows.
    public func encodeTile(z: Int, x: Int, y: Int) throws(VectorTileError) -> [UInt8] {
        try encodeTile(z: z, x: x, y: y, scanningShapes: false)
    }

    /// `encodeTile(z:x:y:)`, finding the tile's shapes through their index or, for tests, by testing every shape.
    func encodeTile(z: Int, x: Int, y: Int, scanningShapes: Bool) throws(VectorTileError) -> [UInt8] {
        var tile = VectorTileEncoder()
        let (clusters, points) = try pointLayers(index.tile(z: z, x: x, y: y))
        try tile.append(clusters)
        try tile.append(points)
        if !shapes.isEmpty, TileAddress(zoom: z, x: x, y: y) != nil {
            try tile.append(shapesLayer(z: z, x: x, y: y, scanning: scanningShapes))
        }
        return tile.encoded()
    }

    /// The tile's bytes for entries already found (`ClusterIndex.tile(z:x:y:)`), without shapes: the `clusters`
    /// layer, then the `points` layer, each left out when empty.
    /// - Throws: as `encodeTile(z:x:y:)`.
    /// - Complexity: O(n·a) for n entries and a properties each.
    public func encodeTile(_ tileFeatures: [ClusterTileFeature]) throws(VectorTileError) -> [UInt8] {
        var tile = VectorTileEncoder()
        let (clusters, points) = try pointLayers(tileFeatures)
        try tile.append(clusters)
        try tile.append(points)
        return tile.encoded()
    }

    /// The `clusters` and `points` layers of `tileFeatures`, at their exact positions scaled to `extent`.
    private func pointLayers(_ tileFeatures: [ClusterTileFeature]) throws(VectorTileError) -> (VectorTileLayer, VectorTileLayer) {
        var clusters = try VectorTileLayer(name: Self.clustersLayerName, extent: extent)
        var points = try VectorTileLayer(name: Self.pointsLayerName, extent: extent)
        let size = Double(extent)
        for f in tileFeatures {
            // Scaled from the exact position and rounded once (a power-of-two extent scales exactly).
            let position = VectorTilePoint(x: TileShapeClipper.rounded(f.tileFractionX * size),
                                           y: TileShapeClipper.rounded(f.tileFractionY * size))
            let geometry = try VectorTileGeometry.point(position)
            switch f.node.content {
            case .cluster(let id):
                clusters.append(VectorTileFeature(id: id.rawValue + clusterIDOffset, geometry: geometry,
                                                  properties: clusterProperties(id, count: f.node.pointCount)))
            case .point(let i):
                let feature = features[i]
                let numericID = Self.numericID(feature.id)
                points.append(VectorTileFeature(id: numericID, geometry: geometry,
                                                properties: Self.pointProperties(feature, idProperty: numericID == nil)))
            }
        }
        return (clusters, points)
    }

    /// The `shapes` layer of tile (z, x, y): each shape that meets the tile plus the clusters' buffer, clipped to it.
    private func shapesLayer(z: Int, x: Int, y: Int, scanning: Bool) throws(VectorTileError) -> VectorTileLayer {
        var layer = try VectorTileLayer(name: Self.shapesLayerName, extent: extent)
        let bufferTiles = index.options.radiusPixels / index.options.extent
        let found = scanning ? shapes.shapesByScan(z: z, x: x, y: y, bufferTiles: bufferTiles)
                             : shapes.shapes(z: z, x: x, y: y, bufferTiles: bufferTiles)
        for (s, shift) in found {
            let feature = features[shapes.featureIndices[s]]
            guard let shape = feature.shape,
                  let geometry = try shapes.geometry(ofShape: s, shape: shape, z: z, x: x, y: y, shift: shift,
                                                     bufferTiles: bufferTiles, extent: extent) else { continue }
            let numericID = Self.numericID(feature.id)
            layer.append(VectorTileFeature(id: numericID, geometry: geometry,
                                           properties: Self.pointProperties(feature, idProperty: numericID == nil)))
        }
        return layer
    }

    /// Writes `encodeTile(z:x:y:)`'s bytes to `sink`.
    /// - Throws: as `encodeTile(z:x:y:)`.
    /// - Complexity: as `encodeTile(z:x:y:)`.
    public func writeTile(z: Int, x: Int, y: Int, to sink: some ByteSink) throws(VectorTileError) {
        sink.write(try encodeTile(z: z, x: x, y: y))
    }

    /// A feature id that is a canonical decimal `UInt64` (digits only, no leading zero but in `0` itself), else nil.
    /// - Complexity: O(n) in the id's length.
    public static func numericID(_ id: String) -> UInt64? {
        let utf8 = id.utf8
        guard let first = utf8.first, first != UInt8(ascii: "0") || utf8.count == 1,
              utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt64(id) // nil past 2^64 - 1
    }

    /// supercluster's abbreviation as a tile value: the count itself below 1,000, else text of thousands (to a
    /// tenth below 10,000): 1234 → `1.2k`, 12345 → `12k`.
    /// - Complexity: O(1).
    public static func abbreviatedValue(_ count: Int) -> VectorTileValue {
        guard count >= 1000 else { return .number(Double(count)) }
        var text: [UInt8] = []
        if count >= 10_000 {
            TextEscaping.appendInteger(Int64((Double(count) / 1000).rounded()), to: &text)
        } else {
            TextEscaping.appendJSONNumber((Double(count) / 100).rounded() / 10, to: &text) // 2.0 is written 2
        }
        text.append(UInt8(ascii: "k"))
        return .string(String(decoding: text, as: UTF8.self))
    }

    /// A cluster's properties: its tags, expansion zoom and aggregates.
    private func clusterProperties(_ id: ClusterID, count: Int) -> [(key: String, value: VectorTileValue)] {
        var properties: [(key: String, value: VectorTileValue)] = [
            ("cluster", .bool(true)),
            ("cluster_id", .uint(id.rawValue + clusterIDOffset)),
            ("point_count", .number(Double(count))),
            ("point_count_abbreviated", Self.abbreviatedValue(count)),
        ]
        switch (try? index.expansionZoom(of: id)) ?? .zoom(0) {
        case .zoom(let z): properties.append(("expansion_zoom", .number(Double(z))))
        case .identicalPoints: properties.append(("identical_points", .bool(true)))
        }
        let options = index.options
        guard !options.numericAttributes.isEmpty || options.categoryAttribute != nil,
              let aggregates = try? index.aggregates(of: .cluster(id)) else { return properties }
        for name in options.numericAttributes {
            let summary = aggregates.numeric[name]
            properties.append((name + "_sum", .number(summary?.sum ?? 0)))
            guard let summary, summary.count > 0 else { continue }
            properties.append((name + "_min", .number(summary.min ?? 0)))
            properties.append((name + "_max", .number(summary.max ?? 0)))
            properties.append((name + "_mean", .number(summary.sum / Double(summary.count))))
        }
        if let category = options.categoryAttribute {
            var json: [UInt8] = [UInt8(ascii: "{")]
            for (n, key) in aggregates.categories.keys.sorted().enumerated() {
                if n > 0 { json.append(UInt8(ascii: ",")) }
                TextEscaping.appendJSONString(key, to: &json)
                json.append(UInt8(ascii: ":"))
                TextEscaping.appendInteger(Int64(aggregates.categories[key] ?? 0), to: &json)
            }
            json.append(UInt8(ascii: "}"))
            properties.append((category + "_counts", .string(String(decoding: json, as: UTF8.self))))
        }
        return properties
    }

    /// A single point's properties: `id` when it is not numeric, then what the JSON tile's tags hold.
    private static func pointProperties(_ feature: Feature, idProperty: Bool) -> [(key: String, value: VectorTileValue)] {
        var properties: [(key: String, value: VectorTileValue)] = []
        properties.reserveCapacity(feature.attributes.count + 4)
        if idProperty { properties.append(("id", .string(feature.id))) }
        properties.append(("kind", .string(feature.kind.rawValue)))
        if let radius = feature.radiusMeters { properties.append(("radiusMeters", .number(radius))) }
        if let window = feature.timeWindow {
            if feature.kind == .sighting {
                properties.append(("time", .string(window.start.iso8601)))
            } else {
                properties.append(("startTime", .string(window.start.iso8601)))
                properties.append(("endTime", .string(window.end.iso8601)))
            }
        }
        for name in feature.attributes.keys.sorted() {
            guard let value = feature.attributes[name] else { continue }
            properties.append((name, tileValue(value)))
        }
        return properties
    }

    /// An attribute as a tile value: text, number and bool as themselves, a time as ISO 8601 text, a string set as
    /// JSON array text.
    private static func tileValue(_ value: AttributeValue) -> VectorTileValue {
        switch value {
        case .string(let s): return .string(s)
        case .number(let n): return .number(n)
        case .bool(let b): return .bool(b)
        case .time(let t): return .string(t.iso8601)
        case .stringSet:
            var json: [UInt8] = []
            FeatureEncoding.appendJSONValue(value, to: &json)
            return .string(String(decoding: json, as: UTF8.self))
        }
    }
}
