import CairnCore

/// Writes a map tile of clusters (`ClusterIndex.tile(z:x:y:)`) as a Mapbox Vector Tile: the same features, at the
/// same tile positions, as `ClusterWriter.encodeTile`'s JSON, in two layers.
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
///
/// Positions are in units of the clustering's tile extent (`ClusterOptions.extent`, 512 by default as in
/// supercluster), which becomes the layers' `extent`: the integers are those of the JSON tile, with no second
/// rounding, and map SDKs scale each layer by its own extent. An entry in the buffer around the tile keeps its
/// position beyond 0...extent (negative west and north of the tile), so a cluster near a tile's edge is at the same
/// place, with the same id, in both tiles. On the world tile (zoom 0) a cluster near the antimeridian is drawn at
/// both edges, as in the JSON tile: two features with one id, the id being what a client passes back to open it.
/// Empty layers are left out; a tile with nothing in it is zero bytes.
public struct ClusterVectorTileWriter {
    /// The index the clusters come from (for expansion zooms and aggregates).
    public let index: ClusterIndex
    /// The features the index was built from, in the same order (points are indices into it).
    public let features: [Feature]
    /// Added to every cluster id written, as `ClusterWriter.clusterIDOffset`: 0 for the CLI, the hierarchy's epoch
    /// for the server.
    public let clusterIDOffset: UInt64
    /// The layers' extent: the clustering's tile extent as a whole number.
    public let extent: UInt32

    /// The name of the layer of clusters.
    public static let clustersLayerName = "clusters"
    /// The name of the layer of single points.
    public static let pointsLayerName = "points"
    /// The largest clustering extent written as a layer extent: positions in the buffer (at most one extent beyond
    /// the tile, since the radius is at most the extent) then stay within a geometry parameter's ±(2^31 - 1).
    public static let maxExtent: UInt32 = 1 << 30

    /// A writer for tiles of `index`, built from `features`, writing cluster ids plus `clusterIDOffset`.
    /// - Throws: `VectorTileError.clusterExtentNotWhole` unless the index's extent is a whole number in
    ///   1...`maxExtent` (the default 512 is).
    /// - Complexity: O(1).
    public init(index: ClusterIndex, features: [Feature], clusterIDOffset: UInt64 = 0) throws(VectorTileError) {
        guard let extent = Self.layerExtent(forClusterExtent: index.options.extent) else {
            throw .clusterExtentNotWhole(index.options.extent)
        }
        self.index = index
        self.features = features
        self.clusterIDOffset = clusterIDOffset
        self.extent = extent
    }

    /// The layer extent for clusters built with tile extent `extent`: the same number when it is whole and in
    /// 1...`maxExtent`, else nil (a front end checks its option with it before clustering).
    /// - Complexity: O(1).
    public static func layerExtent(forClusterExtent extent: Double) -> UInt32? {
        guard let whole = UInt32(exactly: extent), whole >= 1, whole <= maxExtent else { return nil }
        return whole
    }

    /// The tile's bytes: the `clusters` layer, then the `points` layer, each left out when empty.
    /// - Throws: `VectorTileError.coordinateOutOfRange` for a position beyond a geometry parameter's range, which
    ///   tiles of `ClusterIndex.tile(z:x:y:)` never hold.
    /// - Complexity: O(n·a) for n entries and a properties each.
    public func encodeTile(_ tileFeatures: [ClusterTileFeature]) throws(VectorTileError) -> [UInt8] {
        var clusters = try VectorTileLayer(name: Self.clustersLayerName, extent: extent)
        var points = try VectorTileLayer(name: Self.pointsLayerName, extent: extent)
        for f in tileFeatures {
            let geometry = try VectorTileGeometry.point(VectorTilePoint(x: f.tileX, y: f.tileY))
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
        var tile = VectorTileEncoder()
        try tile.append(clusters)
        try tile.append(points)
        return tile.encoded()
    }

    /// Writes `encodeTile(_:)`'s bytes to `sink`.
    /// - Throws: as `encodeTile(_:)`.
    /// - Complexity: O(n·a).
    public func writeTile(_ tileFeatures: [ClusterTileFeature], to sink: some ByteSink) throws(VectorTileError) {
        sink.write(try encodeTile(tileFeatures))
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
