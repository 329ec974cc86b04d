import CairnCore

/// Writes clustering results as GeoJSON with supercluster's properties, the same bytes for every front end.
///
/// Clusters carry `cluster: true`, `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom` and the
/// aggregates of the index's options (`NAME_sum`, `NAME_min`, `NAME_max`, `NAME_mean`, `NAME_counts`); single points
/// are written as their feature (`FeatureEncoding.geoJSON`). Collections put one feature per line.
public struct ClusterWriter {
    /// The index the clusters come from (for expansion zooms and aggregates).
    public let index: ClusterIndex
    /// The features the index was built from, in the same order (points are indices into it).
    public let features: [Feature]
    /// Added to every cluster id written: 0 for the CLI (ids as `ClusterID` gives them); the server adds its
    /// hierarchy's epoch in the bits above 32, so that an id from before an edit is told from every id after it.
    public let clusterIDOffset: UInt64

    /// A writer for results of `index`, built from `features`, writing cluster ids plus `clusterIDOffset`.
    /// - Complexity: O(1).
    public init(index: ClusterIndex, features: [Feature], clusterIDOffset: UInt64 = 0) {
        self.index = index
        self.features = features
        self.clusterIDOffset = clusterIDOffset
    }

    /// supercluster's abbreviation: 1234 → "1.2k", 12345 → "12k"; below 1000 the number itself.
    /// - Complexity: O(1).
    public static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\"\(Int((Double(count) / 1000).rounded()))k\"" }
        if count >= 1000 {
            let tenths = (Double(count) / 100).rounded() / 10
            return "\"\(tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths))k\""
        }
        return String(count)
    }

    /// A FeatureCollection of hierarchy nodes (clusters of a zoom, a cluster's children or leaves).
    /// - Complexity: O(n·a) for n nodes and a aggregates.
    public func writeCollection(_ nodes: [ClusterNode], to sink: some ByteSink) {
        writeFeatures(opening: Self.collectionOpening, nodes.lazy.map(feature), to: sink)
    }

    /// A FeatureCollection of grid clusters: a lone point as itself, a cluster with its pixel position
    /// (`pixel_x`, `pixel_y`, to a tenth of a pixel).
    /// - Complexity: O(n·a).
    public func writeGrid(_ clusters: [GridCluster], to sink: some ByteSink) {
        writeFeatures(opening: Self.collectionOpening, clusters.lazy.map { cluster in
            if cluster.pointCount == 1, case .point(let i) = cluster.members.first { return FeatureEncoding.geoJSON(features[i]) }
            let props = clusterProperties(id: nil, count: cluster.pointCount)
                + ["\"pixel_x\":\(TextEscaping.jsonNumber((cluster.pixelX * 10).rounded() / 10))",
                   "\"pixel_y\":\(TextEscaping.jsonNumber((cluster.pixelY * 10).rounded() / 10))"]
                + aggregateProperties(cluster.members)
            return point(cluster.coordinate, properties: props)
        }, to: sink)
    }

    /// Tile features in supercluster's getTile shape: `{"features":[...]}` with clusters carrying its four tags (and
    /// id), points their properties (and id), positions in tile pixels (`type` 1, `geometry` `[[x, y]]`).
    /// - Complexity: O(n·a).
    public func writeTile(_ tileFeatures: [ClusterTileFeature], to sink: some ByteSink) {
        writeFeatures(opening: "{\"features\":[", tileFeatures.lazy.map { f in
            let geometry = "\"type\":1,\"geometry\":[[\(f.tileX),\(f.tileY)]]"
            switch f.node.content {
            case .point(let i):
                return "{\(geometry),\"tags\":\(FeatureEncoding.properties(features[i])),\"id\":\(TextEscaping.jsonString(features[i].id))}"
            case .cluster(let id):
                let tags = clusterProperties(id: id, count: f.node.pointCount) + aggregateProperties([f.node.content])
                return "{\(geometry),\"tags\":{\(tags.joined(separator: ","))},\"id\":\(id.rawValue + clusterIDOffset)}"
            }
        }, to: sink)
    }

    /// One line: the zoom at which cluster `id` splits, `{"cluster_id":ID,"expansion_zoom":Z}`, or for a cluster of
    /// identical points `"expansion_zoom":null,"identical_points":true`; the id written plus `clusterIDOffset`.
    /// - Complexity: O(1).
    public static func writeExpansion(_ expansion: ClusterExpansion, of id: ClusterID, clusterIDOffset: UInt64 = 0, to sink: some ByteSink) {
        let written = id.rawValue + clusterIDOffset
        switch expansion {
        case .zoom(let z): sink.write("{\"cluster_id\":\(written),\"expansion_zoom\":\(z)}\n")
        case .identicalPoints: sink.write("{\"cluster_id\":\(written),\"expansion_zoom\":null,\"identical_points\":true}\n")
        }
    }

    private static let collectionOpening = "{\"type\":\"FeatureCollection\",\"features\":["

    /// Writes `opening`, then each text as an element of the JSON array it opens, one per line, then closes it.
    private func writeFeatures(opening: String, _ texts: some Sequence<String>, to sink: some ByteSink) {
        sink.write(opening)
        for (n, text) in texts.enumerated() { sink.write((n == 0 ? "\n" : ",\n") + text) }
        sink.write("\n]}\n")
    }

    /// The properties clients read on a cluster: `cluster`, `cluster_id` (when it has one), `point_count`,
    /// `point_count_abbreviated`.
    private func clusterProperties(id: ClusterID?, count: Int) -> [String] {
        ["\"cluster\":true"] + (id.map { ["\"cluster_id\":\($0.rawValue + clusterIDOffset)"] } ?? [])
            + ["\"point_count\":\(count)", "\"point_count_abbreviated\":\(Self.abbreviated(count))"]
    }

    private func feature(_ node: ClusterNode) -> String {
        switch node.content {
        case .point(let i):
            return FeatureEncoding.geoJSON(features[i])
        case .cluster(let id):
            var props = clusterProperties(id: id, count: node.pointCount)
            switch (try? index.expansionZoom(of: id)) ?? .zoom(0) {
            case .zoom(let z): props.append("\"expansion_zoom\":\(z)")
            case .identicalPoints: props += ["\"expansion_zoom\":null", "\"identical_points\":true"]
            }
            props += aggregateProperties([node.content])
            return point(node.coordinate, properties: props, id: id.rawValue + clusterIDOffset)
        }
    }

    /// `NAME_sum`, `NAME_min`, `NAME_max`, `NAME_mean` per numeric attribute and `NAME_counts` for the category,
    /// over the given entries together.
    private func aggregateProperties(_ nodes: [ClusterNode.Content]) -> [String] {
        let options = index.options
        guard !options.numericAttributes.isEmpty || options.categoryAttribute != nil else { return [] }
        let all = nodes.compactMap { try? index.aggregates(of: $0) }
        var props: [String] = []
        for name in options.numericAttributes {
            let parts = all.compactMap { $0.numeric[name] }
            let count = parts.reduce(0) { $0 + $1.count }
            let sum = parts.reduce(0) { $0 + $1.sum }
            props.append("\(TextEscaping.jsonString(name + "_sum")):\(TextEscaping.jsonNumber(sum))")
            if count > 0 {
                let lo = parts.compactMap(\.min).min() ?? 0, hi = parts.compactMap(\.max).max() ?? 0
                props.append("\(TextEscaping.jsonString(name + "_min")):\(TextEscaping.jsonNumber(lo))")
                props.append("\(TextEscaping.jsonString(name + "_max")):\(TextEscaping.jsonNumber(hi))")
                props.append("\(TextEscaping.jsonString(name + "_mean")):\(TextEscaping.jsonNumber(sum / Double(count)))")
            }
        }
        if let category = options.categoryAttribute {
            var counts: [String: Int] = [:]
            for a in all { counts.merge(a.categories, uniquingKeysWith: +) }
            let body = counts.keys.sorted().map { "\(TextEscaping.jsonString($0)):\(counts[$0] ?? 0)" }.joined(separator: ",")
            props.append("\(TextEscaping.jsonString(category + "_counts")):{\(body)}")
        }
        return props
    }

    private func point(_ c: Coordinate, properties: [String], id: UInt64? = nil) -> String {
        let idText = id.map { ",\"id\":\($0)" } ?? ""
        return "{\"type\":\"Feature\"\(idText),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(TextEscaping.jsonNumber(c.longitude)),\(TextEscaping.jsonNumber(c.latitude))]},\"properties\":{\(properties.joined(separator: ","))}}"
    }
}
