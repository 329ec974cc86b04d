import ArgumentParser
import CairnCore
import CairnIO
#if canImport(Glibc)
import Glibc
#endif

/// How `cairn cluster` groups points.
enum ClusterMode: String, ExpressibleByArgument, CaseIterable {
    /// Zoom-level hierarchy with supercluster's semantics.
    case hierarchy
    /// One cluster per screen cell of the viewport (KingPin style).
    case grid
}

extension ClusterPrecision: ExpressibleByArgument {}

/// What `cairn cluster` writes: GeoJSON (supercluster's shapes), or with `--tile` a Mapbox Vector Tile.
enum ClusterFormat: String, ExpressibleByArgument, CaseIterable {
    /// A GeoJSON FeatureCollection (or supercluster's tile shape with --tile).
    case geojson
    /// With --tile only: the tile as a Mapbox Vector Tile 2.1 (binary protobuf, layers `clusters`, `points` and
    /// `shapes`).
    case mvt
}

/// `cairn cluster`: map clusters of the store's features or of a file.
struct ClusterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cluster",
        abstract: "Map clusters of points for a box and zoom, as GeoJSON with supercluster's properties.",
        discussion: """
            Clusters carry cluster: true, cluster_id, point_count, point_count_abbreviated, expansion_zoom and the \
            aggregates asked for (--sum, --count-by); single points keep their own properties. Open a cluster with \
            --expand ID (the zoom at which it splits), --children ID or --leaves ID, using the same data and options. \
            --tile Z/X/Y prints one tile in supercluster's getTile shape (tile-pixel coordinates); with --format mvt it \
            writes the same tile as a Mapbox Vector Tile (layers clusters and points, and shapes: the lines and \
            polygons that cross the tile, clipped to it). Reads the store (--db) or a \
            file (--input).
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The box shown, in degrees (default: the whole world).", valueName: "west,south,east,north"))
    var bbox: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("""
        The map zoom, 0-24; a fractional zoom (12.5, as map SDKs report while zooming) uses the level below, as \
        supercluster does (the hierarchy's levels are clamped to its zooms). Grid mode: sizes the viewport in \
        --extent-pixel tiles at that zoom instead of --width and --height.
        """, valueName: "z"))
    var zoom: Double?

    @Option(help: "hierarchy: supercluster's zoom levels; grid: one cluster per screen cell of the viewport.")
    var mode: ClusterMode = .hierarchy

    @OptionGroup var clustering: ClusteringOptions

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

    @OptionGroup var store: StoreOptions

    @OptionGroup var filters: FilterOptions

    @Option(help: ArgumentHelp("""
        geojson; or with --tile, mvt: the tile as a Mapbox Vector Tile 2.1 (binary, so --out FILE.mvt or a \
        redirect; --tile-extent is the layers' extent).
        """, valueName: "format"))
    var format: ClusterFormat = .geojson

    @Option(name: .customLong("tile-extent"), parsing: .unconditional, help: ArgumentHelp("""
        With --format mvt: the vector tile's units per side (default 4096, MVT's); --extent stays the clustering's.
        """, valueName: "n"))
    var tileExtent: Int = Int(ClusterVectorTileWriter.defaultExtent)

    @Option(help: ArgumentHelp("Write the clusters to this file instead of standard output (a name ending in .gz is written gzip-compressed).", valueName: "path"))
    var out: String?

    @Flag(help: "Print on stderr how long loading and clustering took.")
    var explain = false

    // Accepted as before, when cluster shared the query options; clusters are built from the store's rows.
    @Flag(name: .customLong("no-snapshot"), help: .hidden)
    var noSnapshot = false

    func validate() throws {
        let opened = [expand, children, leaves].compactMap { $0 }.count + (tile == nil ? 0 : 1)
        guard opened <= 1 else { throw ValidationError("give at most one of --expand, --children, --leaves and --tile") }
        if tile != nil, mode == .grid || zoom != nil || bbox != nil {
            throw ValidationError("--tile Z/X/Y names its own zoom and box: drop --zoom, --bbox and --mode grid")
        }
        if let tile { _ = try Self.tileAddress(tile) }
        if format == .mvt {
            guard tile != nil else {
                throw ValidationError("--format mvt writes one map tile: give --tile Z/X/Y (clusters of a box or zoom, --expand, --children and --leaves are written as GeoJSON)")
            }
        }
        guard ClusterVectorTileWriter.layerExtent(tileExtent) != nil else {
            throw ValidationError("--tile-extent is a vector tile's units per side, a whole number from 1 to \(ClusterVectorTileWriter.maxExtent), got \(tileExtent)")
        }
        if opened == 0, zoom == nil, mode == .hierarchy {
            throw ValidationError("give --zoom Z (or open a cluster with --expand, --children or --leaves ID)")
        }
        if mode == .grid, zoom != nil, width != nil || height != nil {
            throw ValidationError("grid mode: size the viewport with --width and --height or with --zoom, not both")
        }
        try clustering.checkCountBy()
        if let zoom { try OptionRange.check("--zoom", zoom, in: 0...Double(ClusterOptions.zoomLimit)) }
        try clustering.checkRanges()
        if let cellSize { try OptionRange.check("--cell-size", cellSize, atLeast: 1) }
        if let width { try OptionRange.check("--width", width, in: 1...Viewport.maxSidePixels) }
        if let height { try OptionRange.check("--height", height, in: 1...Viewport.maxSidePixels) }
        try OptionRange.check("--limit", limit, atLeast: 0)
        try OptionRange.check("--offset", offset, atLeast: 0)
        if mode == .hierarchy, cellSize != nil || width != nil || height != nil || merge {
            throw ValidationError("--cell-size, --width, --height and --merge are for --mode grid")
        }
    }

    @Option(name: .customLong("t-srs"), help: OutputCoordinateSystem.help)
    var outputSystem: String?

    func run() throws {
        if tile != nil, outputSystem != nil {
            throw ValidationError("--t-srs does not apply to --tile (a tile's positions are tile pixels)")
        }
        let transform = try OutputCoordinateSystem.transform(outputSystem)
        var guarded = OutputPathCheck()
        if let input { guarded.input(input, option: "--input") } else { guarded.store(store.path) }
        try guarded.check(out, option: "--out")
        try Self.refuseBinaryOnTerminal(format: format, out: out, standardOutputIsTerminal: isatty(1) == 1)
        let options = try clustering.clusterOptions()
        let clock = ContinuousClock()
        let start = clock.now
        let features = try loadFeatures()
        let loaded = clock.now
        let index = ClusterIndex(features: features, options: options)
        let built = clock.now
        let sink = try OutputSink.forOption(out)
        let writer = ClusterWriter(index: index, features: features)
        if let tile {
            let (z, x, y) = try Self.tileAddress(tile)
            switch format {
            case .geojson:
                writer.writeTile(index.tile(z: z, x: x, y: y), to: sink)
            case .mvt:
                do {
                    try ClusterVectorTileWriter(index: index, features: features, shapes: TileShapes(features: features),
                                                extent: UInt32(tileExtent)).writeTile(z: z, x: x, y: y, to: sink)
                } catch {
                    throw CLIError("--tile \(tile) --format mvt: \(error)")
                }
            }
        } else if let raw = expand ?? children ?? leaves {
            guard let id = ClusterID(rawValue: raw) else { throw CLIError("\(raw) is not a cluster id") }
            do {
                if expand != nil {
                    ClusterWriter.writeExpansion(try index.expansionZoom(of: id), of: id, to: sink)
                } else if children != nil {
                    writer.writeCollection(try index.children(of: id), transform: transform, to: sink)
                } else {
                    writer.writeCollection(try index.leaves(of: id, limit: limit, offset: offset).map {
                        ClusterNode(content: .point($0), coordinate: index.coordinate(ofPoint: $0), pointCount: 1)
                    }, transform: transform, to: sink)
                }
            } catch {
                throw CLIError("\(error); use the same data and clustering options as the query that gave the id")
            }
        } else {
            let box = try parseBox()
            switch mode {
            case .hierarchy:
                // validate() required --zoom in this mode.
                writer.writeCollection(index.clusters(in: box, zoom: Int((zoom ?? 0).rounded(.down))), transform: transform, to: sink)
            case .grid:
                let viewport: Viewport
                let gridOptions: GridClusterOptions
                do {
                    viewport = try gridViewport(box)
                    gridOptions = try GridClusterOptions(cellSizePixels: cellSize ?? 60, mergeOverlapping: merge)
                } catch {
                    throw ValidationError("\(error)")
                }
                writer.writeGrid(index.gridClusters(in: viewport, options: gridOptions), transform: transform, to: sink)
            }
        }
        try sink.close()
        if explain {
            Terminal.printError("explain: \(Terminal.grouped(features.count)) points loaded in \(Terminal.duration(loaded - start)), clustered in \(Terminal.duration(built - loaded)) (\(Terminal.grouped(index.clusterCount)) clusters over all zooms)")
        }
    }

    /// Refuses to write a vector tile (binary protobuf) to standard output when it is a terminal, where the bytes
    /// would garble the screen and help no one; a file (`--out`) or a redirect is fine.
    static func refuseBinaryOnTerminal(format: ClusterFormat, out: String?, standardOutputIsTerminal: Bool) throws {
        guard format == .mvt, out == nil || out == "-", standardOutputIsTerminal else { return }
        throw CLIError("--format mvt writes a binary vector tile, not for a terminal: give --out FILE.mvt, or redirect standard output to a file or a pipe")
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
            return try Viewport(box: box, zoom: zoom, tileSizePixels: clustering.extent)
        } catch .invalidSize(let w, let h) {
            throw ValidationError("""
                grid mode: --bbox at --zoom \(zoom) is \(w)x\(h) pixels of \(Int(clustering.extent))-pixel tiles; a side must be 1 to \
                \(Viewport.maxSidePixels): choose another zoom, or give --width and --height
                """)
        }
    }

    func parseBox() throws -> BoundingBox {
        guard let bbox else { return .world }
        return try validating { () throws(QueryArgumentError) in try QueryArgument.box(bbox, argument: "--bbox") }
    }

    /// The features to cluster, from `--input` or the store, passing `--kind`/`--where`.
    func loadFeatures() throws -> [Feature] {
        let filter = try filters.filter()
        var features: [Feature] = []
        if let input {
            var rejected = 0
            try openFeatureReader(path: input, format: inputFormat, options: ImportOptions()).forEachRecord { feature in
                if filter.acceptsAll || filter.matches(feature) { features.append(feature) }
            } rejected: { rejection in
                // The first few by line and reason; the rest counted.
                if rejected < 10 { Terminal.printError("warning: \(rejection); left out") }
                rejected += 1
            }
            if rejected > 10 { Terminal.printError("warning: \(Terminal.grouped(rejected)) rows of \(input) in all were not valid features and are left out") }
        } else {
            features = try Self.storeFeatures(store, matching: filter)
        }
        return features
    }

    /// The store's features that `filter` accepts, in the store's order (`cairn tiles` reads the same).
    static func storeFeatures(_ store: StoreOptions, matching filter: FeatureFilter) throws -> [Feature] {
        var features: [Feature] = []
        if store.isPostgres {
            return try store.postgresFeatures().filter { filter.acceptsAll || filter.matches($0) }
        }
        let opened = try store.open(create: false)
        try opened.forEachFeature { feature in
            if filter.acceptsAll || filter.matches(feature) { features.append(feature) }
        }
        return features
    }
}
