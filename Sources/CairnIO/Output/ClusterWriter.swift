import CairnCore

/// Writes clustering results as GeoJSON with supercluster's properties, the same bytes for every front end.
///
/// Clusters carry `cluster: true`, `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom` and the
/// aggregates of the index's options (`NAME_sum`, `NAME_min`, `NAME_max`, `NAME_mean`, `NAME_counts`); single points
/// are written as their feature (`FeatureEncoding.geoJSON`). Collections put one feature per line. Every answer is
/// written as UTF-8 into one byte buffer (no `String` per feature): the `encode…` forms return it (an HTTP body), the
/// `write…` forms hand it to a sink.
public struct ClusterWriter {
    /// The index the clusters come from (for expansion zooms and aggregates).
    public let index: ClusterIndex
    /// The features the index was built from, in the same order (points are indices into it).
    public let features: [Feature]
    /// Added to every cluster id written: 0 for the CLI (ids as `ClusterID` gives them); the server adds its
    /// hierarchy's epoch in the bits above 32, so that an id from before an edit is told from every id after it.
    public let clusterIDOffset: UInt64
    /// Where `encodeClusters` finds and keeps the features it writes (nil: encode every one).
    public let cache: ClusterFeatureFragments?

    /// A writer for results of `index`, built from `features`, writing cluster ids plus `clusterIDOffset`, reusing
    /// the features kept in `cache` (which must belong to this index and offset).
    /// - Complexity: O(1).
    public init(index: ClusterIndex, features: [Feature], clusterIDOffset: UInt64 = 0, cache: ClusterFeatureFragments? = nil) {
        self.index = index
        self.features = features
        self.clusterIDOffset = clusterIDOffset
        self.cache = cache
    }

    /// supercluster's abbreviation: 1234 → "1.2k", 12345 → "12k"; below 1000 the number itself.
    /// - Complexity: O(1).
    public static func abbreviated(_ count: Int) -> String {
        var out: [UInt8] = []
        appendAbbreviated(count, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends `abbreviated(count)`: a JSON string of thousands (to a tenth below 10,000), or the number itself.
    private static func appendAbbreviated(_ count: Int, to out: inout [UInt8]) {
        guard count >= 1000 else { return TextEscaping.appendInteger(Int64(count), to: &out) }
        out.append(UInt8(ascii: "\""))
        if count >= 10_000 {
            TextEscaping.appendInteger(Int64((Double(count) / 1000).rounded()), to: &out)
        } else {
            // The number rule writes a whole number of thousands without `.0`, any other tenth as its shortest form.
            TextEscaping.appendJSONNumber((Double(count) / 100).rounded() / 10, to: &out)
        }
        out.append(literal: "k\"")
    }

    /// A FeatureCollection of hierarchy nodes (clusters of a zoom, a cluster's children or leaves); with
    /// `transform` (`--t-srs`), positions in its target system, named in a `crs` member (see `OutputCoordinates`).
    /// - Complexity: O(n·a) for n nodes and a aggregates.
    public func writeCollection(_ nodes: [ClusterNode], transform: CoordinateTransform? = nil, to sink: some ByteSink) {
        sink.write(encodeCollection(nodes, transform: transform))
    }

    /// The bytes `writeCollection(_:transform:to:)` writes.
    /// - Complexity: O(n·a).
    public func encodeCollection(_ nodes: [ClusterNode], transform: CoordinateTransform? = nil) -> [UInt8] {
        let coordinates = transform.map { OutputCoordinates(locations: nodes.map(location), transform: $0) }
        var out = Self.opening(coordinates, capacity: nodes.count), order = AttributeOrder()
        for (n, node) in nodes.enumerated() {
            out.append(literal: n == 0 ? "\n" : ",\n")
            appendFeature(node, position: coordinates?.positions[n], order: &order, to: &out)
        }
        out.append(literal: Self.closing)
        return out
    }

    /// The bytes of `encodeCollection(index.clusters(in: box, zoom: zoom))`, each whole block of a low zoom's grid
    /// (`ClusterIndex.forEachPart`) and each other entry copied from `cache` when it holds it, else encoded and
    /// offered to it (a map's answers repeat most blocks and entries of the answers before them).
    ///
    /// Assembled in two passes, the pieces' bytes found (or made) first and then copied once into a buffer of the
    /// answer's exact size: an answer of a zoom-5 viewport is about 800 entries and 120 KB, and appending them one
    /// by one to a growing array cost more than finding them (a generic append per entry, and the regrowth copies).
    /// A block's bytes are its entries' features joined with ",\n", the separator the answer puts between pieces,
    /// so the bytes are the same whichever pieces were kept.
    /// - Complexity: O(log e + k·a) for k results; O(c + total bytes) for c grid cells met whose blocks and entries
    ///   `cache` holds.
    public func encodeClusters(in box: BoundingBox, zoom: Int) -> [UInt8] {
        // Without a cache the collection is one growing array already: returned as it is, not copied.
        guard cache != nil else { return encodeCollection(index.clusters(in: box, zoom: zoom)) }
        return encodeClusters(in: box, zoom: zoom) { byteCount, fill in
            [UInt8](unsafeUninitializedCapacity: byteCount) { buffer, initialized in
                fill(UnsafeMutableRawBufferPointer(buffer))
                initialized = byteCount
            }
        }
    }

    /// The bytes of `encodeClusters(in:zoom:)` written straight into storage of the caller's: `make` is given the
    /// answer's exact size in bytes and a function that fills that many bytes, and returns the storage holding them
    /// (an HTTP server's own buffer, so that the answer is copied once, from the kept pieces into what is sent).
    /// - Complexity: as `encodeClusters(in:zoom:)`.
    public func encodeClusters<Answer>(in box: BoundingBox, zoom: Int,
                                       into make: (_ byteCount: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> Answer) -> Answer {
        guard let cache else {
            let bytes = encodeCollection(index.clusters(in: box, zoom: zoom))
            return bytes.withUnsafeBytes { source in make(source.count) { $0.copyMemory(from: source) } }
        }
        // Each piece's bytes: kept in `cache` (which outlives this call: `self` holds it), or made into `made`
        // when the cache declined them (its budget spent), as a range since `made` may move while it grows.
        var kept: [UnsafeRawBufferPointer] = [], madeRanges: [(position: Int, bytes: Range<Int>)] = []
        var made: [UInt8] = [], order = AttributeOrder()
        kept.reserveCapacity(256)
        /// The feature of `entry` appended to `out`, from the cache or encoded (and offered to it when `keep`).
        func appendEntry(_ entry: Int, _ node: ClusterNode, keep: Bool, to out: inout [UInt8]) {
            if let bytes = cache.feature(ofEntry: entry) { return out.append(contentsOf: bytes) }
            let start = out.count
            appendFeature(node, position: nil, order: &order, to: &out)
            if keep { cache.keep(out[start...], ofEntry: entry) }
        }
        /// The bytes at `made[start...]` as the next piece: moved into `kept`, else left in `made`.
        func place(madeFrom start: Int, kept bytes: UnsafeRawBufferPointer?) {
            if let bytes {
                made.removeSubrange(start...)
                kept.append(bytes)
            } else {
                madeRanges.append((kept.count, start..<made.count))
                kept.append(UnsafeRawBufferPointer(start: nil, count: 0))
            }
        }
        index.forEachPart(in: box, zoom: zoom, block: { block in
            if let bytes = cache.features(of: block) { return kept.append(bytes) }
            let start = made.count
            var first = true
            index.forEachEntry(in: block) { entry, node in
                if !first { made.append(UInt8(ascii: ",")); made.append(UInt8(ascii: "\n")) }
                first = false
                appendEntry(entry, node, keep: false, to: &made)
            }
            made.withUnsafeBytes { cache.keep(UnsafeRawBufferPointer(rebasing: $0[start...]), of: block) }
            place(madeFrom: start, kept: cache.features(of: block))
        }, entry: { entry, node in
            if let bytes = cache.feature(ofEntry: entry) { return kept.append(bytes) }
            let start = made.count
            appendEntry(entry, node, keep: true, to: &made)
            place(madeFrom: start, kept: cache.feature(ofEntry: entry))
        })
        let count = kept.count
        let separators = count == 0 ? 0 : 2 * count - 1  // "\n" before the first, ",\n" before the others
        let total = Self.collectionOpening.utf8CodeUnitCount + separators + Self.closing.utf8CodeUnitCount
            + kept.reduce(0) { $0 + $1.count } + madeRanges.reduce(0) { $0 + $1.bytes.count }
        return make(total) { buffer in
            precondition(buffer.count >= total, "encodeClusters: room for \(buffer.count) of the answer's \(total) bytes")
            guard var at = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            func copy(_ bytes: UnsafeRawBufferPointer) {
                guard let source = bytes.baseAddress else { return }
                UnsafeMutableRawPointer(at).copyMemory(from: source, byteCount: bytes.count)
                at += bytes.count
            }
            copy(UnsafeRawBufferPointer(start: Self.collectionOpening.utf8Start, count: Self.collectionOpening.utf8CodeUnitCount))
            made.withUnsafeBytes { made in
                var nextMade = 0
                for n in 0..<count {
                    if n > 0 { at.pointee = UInt8(ascii: ","); at += 1 }
                    at.pointee = UInt8(ascii: "\n"); at += 1
                    if nextMade < madeRanges.count, madeRanges[nextMade].position == n {
                        copy(UnsafeRawBufferPointer(rebasing: made[madeRanges[nextMade].bytes]))
                        nextMade += 1
                    } else {
                        copy(kept[n])
                    }
                }
            }
            copy(UnsafeRawBufferPointer(start: Self.closing.utf8Start, count: Self.closing.utf8CodeUnitCount))
        }
    }

    /// Where a node is written: a point at its feature's location, a cluster at its own.
    private func location(_ node: ClusterNode) -> Coordinate {
        if case .point(let i) = node.content { return features[i].location }
        return node.coordinate
    }

    /// A collection's opening, with the `crs` member of an output system.
    private static func opening(_ coordinates: OutputCoordinates?, capacity: Int) -> [UInt8] {
        guard let coordinates else { return opening(collectionOpening, capacity: capacity) }
        var out = opening("{\"type\":\"FeatureCollection\",", capacity: capacity)
        coordinates.appendGeoJSONMember(to: &out)
        out.append(literal: "\"features\":[")
        return out
    }

    /// A FeatureCollection of grid clusters: a lone point as itself, a cluster with its pixel position
    /// (`pixel_x`, `pixel_y`, to a tenth of a pixel).
    /// - Complexity: O(n·a).
    /// With `transform` (`--t-srs`), positions in its target system (see `writeCollection(_:transform:to:)`).
    public func writeGrid(_ clusters: [GridCluster], transform: CoordinateTransform? = nil, to sink: some ByteSink) {
        sink.write(encodeGrid(clusters, transform: transform))
    }

    /// The bytes `writeGrid(_:transform:to:)` writes.
    /// - Complexity: O(n·a).
    public func encodeGrid(_ clusters: [GridCluster], transform: CoordinateTransform? = nil) -> [UInt8] {
        let coordinates = transform.map { transform in
            OutputCoordinates(locations: clusters.map { cluster in
                if cluster.pointCount == 1, case .point(let i) = cluster.members.first { return features[i].location }
                return cluster.coordinate
            }, transform: transform)
        }
        var out = Self.opening(coordinates, capacity: clusters.count), order = AttributeOrder()
        for (n, cluster) in clusters.enumerated() {
            out.append(literal: n == 0 ? "\n" : ",\n")
            let position = coordinates?.positions[n]
            if cluster.pointCount == 1, case .point(let i) = cluster.members.first {
                FeatureEncoding.appendGeoJSON(features[i], distanceMeters: nil, extra: [], position: position, order: &order, to: &out)
                continue
            }
            appendPointOpening(cluster.coordinate, position: position, id: nil, to: &out)
            appendClusterProperties(id: nil, count: cluster.pointCount, to: &out)
            out.append(literal: ",\"pixel_x\":")
            TextEscaping.appendJSONNumber((cluster.pixelX * 10).rounded() / 10, to: &out)
            out.append(literal: ",\"pixel_y\":")
            TextEscaping.appendJSONNumber((cluster.pixelY * 10).rounded() / 10, to: &out)
            appendAggregateProperties(cluster.members, to: &out)
            out.append(literal: "}}")
        }
        out.append(literal: Self.closing)
        return out
    }

    /// Tile features in supercluster's getTile shape: `{"features":[...]}` with clusters carrying its four tags (and
    /// id), points their properties (and id), positions in tile pixels (`type` 1, `geometry` `[[x, y]]`).
    /// - Complexity: O(n·a).
    public func writeTile(_ tileFeatures: [ClusterTileFeature], to sink: some ByteSink) {
        sink.write(encodeTile(tileFeatures))
    }

    /// The bytes `writeTile(_:to:)` writes.
    /// - Complexity: O(n·a).
    public func encodeTile(_ tileFeatures: [ClusterTileFeature]) -> [UInt8] {
        var out = Self.opening("{\"features\":[", capacity: tileFeatures.count), order = AttributeOrder()
        for (n, f) in tileFeatures.enumerated() {
            out.append(literal: n == 0 ? "\n" : ",\n")
            out.append(literal: "{\"type\":1,\"geometry\":[[")
            TextEscaping.appendInteger(Int64(f.tileX), to: &out)
            out.append(UInt8(ascii: ","))
            TextEscaping.appendInteger(Int64(f.tileY), to: &out)
            out.append(literal: "]],\"tags\":")
            switch f.node.content {
            case .point(let i):
                FeatureEncoding.appendProperties(features[i], distanceMeters: nil, extra: [], includeLocation: false,
                                                 order: &order, to: &out)
                out.append(literal: ",\"id\":")
                TextEscaping.appendJSONString(features[i].id, to: &out)
            case .cluster(let id):
                out.append(UInt8(ascii: "{"))
                appendClusterProperties(id: id, count: f.node.pointCount, to: &out)
                appendAggregateProperties(CollectionOfOne(f.node.content), to: &out)
                out.append(literal: "},\"id\":")
                Self.appendUInt64(id.rawValue + clusterIDOffset, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(literal: Self.closing)
        return out
    }

    /// One line: the zoom at which cluster `id` splits, `{"cluster_id":ID,"expansion_zoom":Z}`, or for a cluster of
    /// identical points `"expansion_zoom":null,"identical_points":true`; the id written plus `clusterIDOffset`.
    /// - Complexity: O(1).
    public static func writeExpansion(_ expansion: ClusterExpansion, of id: ClusterID, clusterIDOffset: UInt64 = 0, to sink: some ByteSink) {
        sink.write(encodeExpansion(expansion, of: id, clusterIDOffset: clusterIDOffset))
    }

    /// The bytes `writeExpansion(_:of:clusterIDOffset:to:)` writes.
    /// - Complexity: O(1).
    public static func encodeExpansion(_ expansion: ClusterExpansion, of id: ClusterID, clusterIDOffset: UInt64 = 0) -> [UInt8] {
        var out: [UInt8] = []
        out.append(literal: "{\"cluster_id\":")
        appendUInt64(id.rawValue + clusterIDOffset, to: &out)
        switch expansion {
        case .zoom(let z):
            out.append(literal: ",\"expansion_zoom\":")
            TextEscaping.appendInteger(Int64(z), to: &out)
            out.append(literal: "}\n")
        case .identicalPoints:
            out.append(literal: ",\"expansion_zoom\":null,\"identical_points\":true}\n")
        }
        return out
    }

    private static let collectionOpening: StaticString = "{\"type\":\"FeatureCollection\",\"features\":["
    private static let closing: StaticString = "\n]}\n"

    /// A buffer holding `opening`, with room for about `capacity` features of a few hundred bytes.
    private static func opening(_ opening: StaticString, capacity: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 + capacity * 256)
        out.append(literal: opening)
        return out
    }

    /// A cluster id in decimal (ids with an epoch in their high bits may pass `Int64.max`).
    private static func appendUInt64(_ value: UInt64, to out: inout [UInt8]) {
        if let small = Int64(exactly: value) { return TextEscaping.appendInteger(small, to: &out) }
        out.append(utf8: String(value))
    }

    /// The properties clients read on a cluster: `cluster`, `cluster_id` (when it has one), `point_count`,
    /// `point_count_abbreviated` (no braces).
    private func appendClusterProperties(id: ClusterID?, count: Int, to out: inout [UInt8]) {
        out.append(literal: "\"cluster\":true")
        if let id {
            out.append(literal: ",\"cluster_id\":")
            Self.appendUInt64(id.rawValue + clusterIDOffset, to: &out)
        }
        out.append(literal: ",\"point_count\":")
        TextEscaping.appendInteger(Int64(count), to: &out)
        out.append(literal: ",\"point_count_abbreviated\":")
        Self.appendAbbreviated(count, to: &out)
    }

    private func appendFeature(_ node: ClusterNode, position: OutputPosition?, order: inout AttributeOrder, to out: inout [UInt8]) {
        switch node.content {
        case .point(let i):
            FeatureEncoding.appendGeoJSON(features[i], distanceMeters: nil, extra: [], position: position, order: &order, to: &out)
        case .cluster(let id):
            appendPointOpening(node.coordinate, position: position, id: id.rawValue + clusterIDOffset, to: &out)
            appendClusterProperties(id: id, count: node.pointCount, to: &out)
            switch (try? index.expansionZoom(of: id)) ?? .zoom(0) {
            case .zoom(let z):
                out.append(literal: ",\"expansion_zoom\":")
                TextEscaping.appendInteger(Int64(z), to: &out)
            case .identicalPoints:
                out.append(literal: ",\"expansion_zoom\":null,\"identical_points\":true")
            }
            appendAggregateProperties(CollectionOfOne(node.content), to: &out)
            out.append(literal: "}}")
        }
    }

    /// `,NAME_sum`, `NAME_min`, `NAME_max`, `NAME_mean` per numeric attribute and `NAME_counts` for the category,
    /// over the given entries together (each property led by a comma).
    private func appendAggregateProperties(_ nodes: some Collection<ClusterNode.Content>, to out: inout [UInt8]) {
        let options = index.options
        guard !options.numericAttributes.isEmpty || options.categoryAttribute != nil else { return }
        let all = nodes.compactMap { try? index.aggregates(of: $0) }
        for name in options.numericAttributes {
            var count = 0, sum = 0.0
            var lo: Double?, hi: Double?
            for aggregates in all {
                guard let part = aggregates.numeric[name] else { continue }
                count += part.count
                sum += part.sum
                if let m = part.min { lo = lo.map { Swift.min($0, m) } ?? m }
                if let m = part.max { hi = hi.map { Swift.max($0, m) } ?? m }
            }
            appendProperty(name, suffix: "_sum", sum, to: &out)
            if count > 0 {
                appendProperty(name, suffix: "_min", lo ?? 0, to: &out)
                appendProperty(name, suffix: "_max", hi ?? 0, to: &out)
                appendProperty(name, suffix: "_mean", sum / Double(count), to: &out)
            }
        }
        if let category = options.categoryAttribute {
            var counts: [String: Int] = [:]
            for a in all { counts.merge(a.categories, uniquingKeysWith: +) }
            out.append(UInt8(ascii: ","))
            TextEscaping.appendJSONString(category + "_counts", to: &out)
            out.append(literal: ":{")
            for (n, key) in counts.keys.sorted().enumerated() {
                if n > 0 { out.append(UInt8(ascii: ",")) }
                TextEscaping.appendJSONString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                TextEscaping.appendInteger(Int64(counts[key] ?? 0), to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `,"NAMEsuffix":value`.
    private func appendProperty(_ name: String, suffix: String, _ value: Double, to out: inout [UInt8]) {
        out.append(UInt8(ascii: ","))
        TextEscaping.appendJSONString(name + suffix, to: &out)
        out.append(UInt8(ascii: ":"))
        TextEscaping.appendJSONNumber(value, to: &out)
    }

    /// `{"type":"Feature"[,"id":ID],"geometry":{...},"properties":{` for a point feature; the caller writes the
    /// properties and closes both braces.
    private func appendPointOpening(_ c: Coordinate, position: OutputPosition?, id: UInt64?, to out: inout [UInt8]) {
        out.append(literal: "{\"type\":\"Feature\"")
        if let id {
            out.append(literal: ",\"id\":")
            Self.appendUInt64(id, to: &out)
        }
        out.append(literal: ",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
        TextEscaping.appendJSONNumber(position?.x ?? c.longitude, to: &out)
        out.append(UInt8(ascii: ","))
        TextEscaping.appendJSONNumber(position?.y ?? c.latitude, to: &out)
        out.append(literal: "]},\"properties\":{")
    }
}
