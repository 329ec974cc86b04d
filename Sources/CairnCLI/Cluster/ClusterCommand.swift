import ArgumentParser
import CairnCore
import CairnIO

/// How `cairn cluster` groups points.
enum ClusterMode: String, ExpressibleByArgument, CaseIterable {
    /// Zoom-level hierarchy with supercluster's semantics.
    case hierarchy
    /// One cluster per screen cell of the viewport (KingPin style).
    case grid
}

extension ClusterPrecision: ExpressibleByArgument {}

/// `cairn cluster`: map clusters of the store's features or of a file.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Map clusters of points for a box and zoom, as GeoJSON with supercluster's properties.",
        discussion: """
            Clusters carry cluster: true, cluster_id, point_count, point_count_abbreviated, expansion_zoom and the \
            aggregates asked for (--sum, --count-by); single points keep their own properties. Open a cluster with \
            --expand ID (the zoom at which it splits), --children ID or --leaves ID, using the same data and options. \
            --tile Z/X/Y prints one tile in supercluster's getTile shape (tile-pixel coordinates). Reads the store \
            (--db) or a file (--input).
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The box shown, in degrees (default: the whole world).", valueName: "west,south,east,north"))
    var bbox: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("""
        The map zoom (0-24; the hierarchy's levels are clamped to its zooms). Grid mode: sizes the viewport in \
        --extent-pixel tiles instead of --width and --height.
        """, valueName: "z"))
    var zoom: Int?

    @Option(help: "hierarchy: supercluster's zoom levels; grid: one cluster per screen cell of the viewport.")
    var mode: ClusterMode = .hierarchy

    @Option(parsing: .unconditional, help: ArgumentHelp("Cluster radius in pixels.", valueName: "px"))
    var radius: Double = 40

    @Option(parsing: .unconditional, help: ArgumentHelp("Tile extent in pixels (the radius is relative to it).", valueName: "n"))
    var extent: Double = 512

    @Option(name: .customLong("min-points"), parsing: .unconditional, help: ArgumentHelp("The least points a cluster holds.", valueName: "n"))
    var minPoints: Int = 2

    @Option(name: .customLong("min-zoom"), parsing: .unconditional, help: ArgumentHelp("The lowest zoom clustered.", valueName: "z"))
    var minZoom: Int = 0

    @Option(name: .customLong("max-zoom"), parsing: .unconditional, help: ArgumentHelp("The highest zoom clustered (at most 24).", valueName: "z"))
    var maxZoom: Int = 16

    @Option(name: .customLong("sum"), help: ArgumentHelp("A numeric attribute to aggregate (sum, min, max, mean); repeatable.", valueName: "attribute"))
    var sums: [String] = []

    @Option(name: .customLong("count-by"), help: ArgumentHelp("A category attribute counted per value on each cluster (or 'kind'); one.", valueName: "attribute"))
    var countBy: [String] = []

    @Option(help: "How projected positions are held: float32 as supercluster holds them, or float64.")
    var precision: ClusterPrecision = .float32

    @Flag(inversion: .prefixedNo, help: "Cluster across the antimeridian (--no-wrap: never, as supercluster does).")
    var wrap = true

    @Option(name: .customLong("cell-size"), parsing: .unconditional, help: ArgumentHelp("Grid mode: cell size in pixels (default 60).", valueName: "px"))
    var cellSize: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Grid mode: viewport width in pixels (default 1024).", valueName: "px"))
    var width: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Grid mode: viewport height in pixels (default 768).", valueName: "px"))
    var height: Int?

    @Flag(help: "Grid mode: merge clusters whose circles overlap.")
    var merge = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Print the zoom at which this cluster splits.", valueName: "cluster-id"), transform: OptionRange.unsigned)
    var expand: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Print this cluster's children (one zoom above it).", valueName: "cluster-id"), transform: OptionRange.unsigned)
    var children: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Print this cluster's points.", valueName: "cluster-id"), transform: OptionRange.unsigned)
    var leaves: UInt64?

    @Option(help: ArgumentHelp("""
        Print map tile Z/X/Y as supercluster's getTile does: its clusters and points within the radius of its edges, \
        in pixels of --extent (type 1, geometry [[x, y]], tags).
        """, valueName: "z/x/y"))
    var tile: String?

    @Option(parsing: .unconditional, help: "With --leaves: at most this many points.")
    var limit: Int = 100

    @Option(parsing: .unconditional, help: "With --leaves: skip this many points first.")
    var offset: Int = 0

    @Option(help: ArgumentHelp("Read points from this file instead of the store.", valueName: "path"))
    var input: String?

    @Option(name: .customLong("input-format"), help: "The input file's format (default: from its name).")
    var inputFormat: InputFormat?

    @OptionGroup var query: QueryOptions

    func validate() throws {
        guard query.format == .geojson else { throw ValidationError("cairn cluster prints GeoJSON only; drop --format") }
        let opened = [expand, children, leaves].compactMap { $0 }.count + (tile == nil ? 0 : 1)
        guard opened <= 1 else { throw ValidationError("give at most one of --expand, --children, --leaves and --tile") }
        if tile != nil, mode == .grid || zoom != nil || bbox != nil {
            throw ValidationError("--tile Z/X/Y names its own zoom and box: drop --zoom, --bbox and --mode grid")
        }
        if let tile { _ = try Self.tileAddress(tile) }
        if opened == 0, zoom == nil, mode == .hierarchy {
            throw ValidationError("give --zoom Z (or open a cluster with --expand, --children or --leaves ID)")
        }
        if mode == .grid, zoom != nil, width != nil || height != nil {
            throw ValidationError("grid mode: size the viewport with --width and --height or with --zoom, not both")
        }
        guard countBy.count <= 1 else {
            throw ValidationError("--count-by takes one attribute, got \(countBy.count): \(countBy.joined(separator: ", "))")
        }
        if let zoom { try OptionRange.check("--zoom", zoom, in: 0...ClusterOptions.zoomLimit) }
        try OptionRange.checkPositive("--radius", radius)
        try OptionRange.checkPositive("--extent", extent)
        try OptionRange.check("--min-points", minPoints, atLeast: 1)
        try OptionRange.check("--min-zoom", minZoom, in: 0...ClusterOptions.zoomLimit)
        try OptionRange.check("--max-zoom", maxZoom, in: minZoom...ClusterOptions.zoomLimit)
        if let cellSize { try OptionRange.check("--cell-size", cellSize, atLeast: 1) }
        if let width { try OptionRange.check("--width", width, in: 1...Viewport.maxSidePixels) }
        if let height { try OptionRange.check("--height", height, in: 1...Viewport.maxSidePixels) }
        try OptionRange.check("--limit", limit, atLeast: 0)
        try OptionRange.check("--offset", offset, atLeast: 0)
        if mode == .hierarchy, cellSize != nil || width != nil || height != nil || merge {
            throw ValidationError("--cell-size, --width, --height and --merge are for --mode grid")
        }
    }

    func run() throws {
        let options: ClusterOptions
        do {
            options = try ClusterOptions(radiusPixels: radius, extent: extent, minZoom: minZoom, maxZoom: maxZoom, minPoints: minPoints,
                                         numericAttributes: sums, categoryAttribute: countBy.first, precision: precision,
                                         wrapsAntimeridian: wrap)
        } catch {
            throw ValidationError("\(error)")
        }
        let clock = ContinuousClock()
        let start = clock.now
        let features = try loadFeatures()
        let loaded = clock.now
        let index = ClusterIndex(features: features, options: options)
        let built = clock.now
        let sink = try query.out.map { try OutputSink(path: $0) } ?? OutputSink.standardOutput()
        defer { sink.flush() }
        let printer = ClusterPrinter(index: index, features: features, sink: sink)
        if let tile {
            let (z, x, y) = try Self.tileAddress(tile)
            printer.tile(index.tile(z: z, x: x, y: y))
        } else if let raw = expand ?? children ?? leaves {
            guard let id = ClusterID(rawValue: raw) else { throw CLIError("\(raw) is not a cluster id") }
            do {
                if expand != nil {
                    let expansion = try index.expansionZoom(of: id)
                    switch expansion {
                    case .zoom(let z): sink.write("{\"cluster_id\":\(raw),\"expansion_zoom\":\(z)}\n")
                    case .identicalPoints: sink.write("{\"cluster_id\":\(raw),\"expansion_zoom\":null,\"identical_points\":true}\n")
                    }
                } else if children != nil {
                    printer.collection(try index.children(of: id))
                } else {
                    printer.collection(try index.leaves(of: id, limit: limit, offset: offset).map {
                        ClusterNode(content: .point($0), coordinate: index.coordinate(ofPoint: $0), pointCount: 1)
                    })
                }
            } catch {
                throw CLIError("\(error); use the same data and clustering options as the query that gave the id")
            }
        } else {
            let box = try parseBox()
            switch mode {
            case .hierarchy:
                // validate() required --zoom in this mode.
                printer.collection(index.clusters(in: box, zoom: zoom ?? 0))
            case .grid:
                let viewport: Viewport
                let gridOptions: GridClusterOptions
                do {
                    viewport = try gridViewport(box)
                    gridOptions = try GridClusterOptions(cellSizePixels: cellSize ?? 60, mergeOverlapping: merge)
                } catch {
                    throw ValidationError("\(error)")
                }
                printer.grid(index.gridClusters(in: viewport, options: gridOptions))
            }
        }
        if query.explain {
            Terminal.printError("explain: \(Terminal.grouped(features.count)) points loaded in \(Terminal.duration(loaded - start)), clustered in \(Terminal.duration(built - loaded)) (\(Terminal.grouped(index.clusterCount)) clusters over all zooms)")
        }
    }

    /// The zoom, column and row of a tile address `z/x/y`, each in range.
    static func tileAddress(_ text: String) throws -> (z: Int, x: Int, y: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
            throw ValidationError("--tile takes z/x/y, three whole numbers such as 3/4/2, got '\(text)'")
        }
        guard (0...ClusterOptions.zoomLimit).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else {
            throw ValidationError("--tile \(text): z must be 0 to \(ClusterOptions.zoomLimit), and x and y 0 to 2^z - 1")
        }
        return (z, x, y)
    }

    /// The grid viewport: `box` at --width × --height pixels, or at --zoom in --extent-pixel tiles.
    func gridViewport(_ box: BoundingBox) throws -> Viewport {
        guard let zoom else { return try Viewport(box: box, widthPixels: width ?? 1024, heightPixels: height ?? 768) }
        do {
            return try Viewport(box: box, zoom: Double(zoom), tileSizePixels: extent)
        } catch .invalidSize(let w, let h) {
            throw ValidationError("""
                grid mode: --bbox at --zoom \(zoom) is \(w)x\(h) pixels of \(Int(extent))-pixel tiles; a side must be 1 to \
                \(Viewport.maxSidePixels): choose another zoom, or give --width and --height
                """)
        }
    }

    func parseBox() throws -> BoundingBox {
        guard let bbox else { return .world }
        let v = try parseNumbers(bbox, count: 4, option: "--bbox", shape: "west,south,east,north")
        do {
            return try BoundingBox(west: v[0], south: v[1], east: v[2], north: v[3])
        } catch {
            throw ValidationError("--bbox: \(error)")
        }
    }

    /// The features to cluster, from `--input` or the store, passing `--kind`/`--where`.
    func loadFeatures() throws -> [Feature] {
        let filter = try query.filter()
        var features: [Feature] = []
        if let input {
            let reader = try openFeatureReader(path: input, format: inputFormat, options: ImportOptions())
            var rejected = 0
            while let record = try reader.next() {
                switch record {
                case .feature(let feature, _): if filter.acceptsAll || filter.matches(feature) { features.append(feature) }
                case .rejected(let rejection):
                    // The first few by line and reason; the rest counted.
                    if rejected < 10 { Terminal.printError("warning: \(rejection); left out") }
                    rejected += 1
                }
            }
            if rejected > 10 { Terminal.printError("warning: \(Terminal.grouped(rejected)) rows of \(input) in all were not valid features and are left out") }
        } else {
            // The store's index: its mapped snapshot while current (decoding is cheaper than reading SQLite rows).
            for feature in try query.loadIndex().features where filter.acceptsAll || filter.matches(feature) {
                features.append(feature)
            }
        }
        return features
    }
}

/// Writes clustering results as GeoJSON.
struct ClusterPrinter {
    let index: ClusterIndex
    let features: [Feature]
    let sink: OutputSink

    /// supercluster's abbreviation: 1234 → "1.2k", 12345 → "12k"; below 1000 the number itself.
    static func abbreviated(_ count: Int) -> String {
        if count >= 10_000 { return "\"\(Int((Double(count) / 1000).rounded()))k\"" }
        if count >= 1000 {
            let tenths = (Double(count) / 100).rounded() / 10
            return "\"\(tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths))k\""
        }
        return String(count)
    }

    /// Writes `opening`, then each text as an element of the JSON array it opens, one per line, then closes it.
    private func writeFeatures(opening: String, _ texts: some Sequence<String>) {
        sink.write(opening)
        for (n, text) in texts.enumerated() { sink.write((n == 0 ? "\n" : ",\n") + text) }
        sink.write("\n]}\n")
    }

    /// A feature collection of hierarchy nodes.
    func collection(_ nodes: [ClusterNode]) {
        writeFeatures(opening: Self.collectionOpening, nodes.lazy.map(feature))
    }

    /// A feature collection of grid clusters: a lone point as itself, a cluster with its pixel position.
    func grid(_ clusters: [GridCluster]) {
        writeFeatures(opening: Self.collectionOpening, clusters.lazy.map { cluster in
            if cluster.pointCount == 1, case .point(let i) = cluster.members.first { return FeatureEncoding.geoJSON(features[i]) }
            let props = clusterProperties(id: nil, count: cluster.pointCount)
                + ["\"pixel_x\":\(TextEscaping.jsonNumber((cluster.pixelX * 10).rounded() / 10))",
                   "\"pixel_y\":\(TextEscaping.jsonNumber((cluster.pixelY * 10).rounded() / 10))"]
                + aggregateProperties(cluster.members)
            return point(cluster.coordinate, properties: props)
        })
    }

    private static let collectionOpening = "{\"type\":\"FeatureCollection\",\"features\":["

    /// Tile features in supercluster's getTile shape: clusters with its four tags (and id), points with their
    /// properties (and id).
    func tile(_ features: [ClusterTileFeature]) {
        writeFeatures(opening: "{\"features\":[", features.lazy.map { f in
            let geometry = "\"type\":1,\"geometry\":[[\(f.tileX),\(f.tileY)]]"
            switch f.node.content {
            case .point(let i):
                return "{\(geometry),\"tags\":\(FeatureEncoding.properties(self.features[i])),\"id\":\(TextEscaping.jsonString(self.features[i].id))}"
            case .cluster(let id):
                let tags = clusterProperties(id: id, count: f.node.pointCount) + aggregateProperties([f.node.content])
                return "{\(geometry),\"tags\":{\(tags.joined(separator: ","))},\"id\":\(id.rawValue)}"
            }
        })
    }

    /// The properties map clients read on a cluster: `cluster`, `cluster_id` (when it has one), `point_count`,
    /// `point_count_abbreviated`.
    func clusterProperties(id: ClusterID?, count: Int) -> [String] {
        ["\"cluster\":true"] + (id.map { ["\"cluster_id\":\($0.rawValue)"] } ?? [])
            + ["\"point_count\":\(count)", "\"point_count_abbreviated\":\(Self.abbreviated(count))"]
    }

    func feature(_ node: ClusterNode) -> String {
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
            return point(node.coordinate, properties: props, id: id.rawValue)
        }
    }

    /// `NAME_sum`, `NAME_min`, `NAME_max`, `NAME_mean` per numeric attribute and `NAME_counts` for the category,
    /// over the given entries together.
    func aggregateProperties(_ nodes: [ClusterNode.Content]) -> [String] {
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

    func point(_ c: Coordinate, properties: [String], id: UInt64? = nil) -> String {
        let idText = id.map { ",\"id\":\($0)" } ?? ""
        return "{\"type\":\"Feature\"\(idText),\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(TextEscaping.jsonNumber(c.longitude)),\(TextEscaping.jsonNumber(c.latitude))]},\"properties\":{\(properties.joined(separator: ","))}}"
    }
}
