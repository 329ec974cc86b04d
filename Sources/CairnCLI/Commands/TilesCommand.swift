import ArgumentParser
import CairnCore
import CairnIO
#if canImport(Glibc)
import Glibc
#endif

/// `cairn tiles`: every non-empty cluster tile of a range of zooms, written to one MBTiles or PMTiles archive for
/// maps served from a file host, with no server.
struct TilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiles",
        abstract: "Write the cluster tiles of a range of zooms to an MBTiles or PMTiles archive, for static hosting.",
        discussion: """
            Writes every tile from --min-zoom to --max-zoom that holds a cluster, a point or part of a line or \
            polygon (empty tiles are left out), each the same bytes as cluster --tile Z/X/Y --format mvt with the same options, gzip-compressed \
            in the archive. The format is told by the name: .mbtiles (SQLite, MBTiles 1.3, TMS rows) or .pmtiles \
            (PMTiles 3, for HTTP range requests). The archive is written beside its path and renamed when complete; \
            an existing file is replaced only with --force. Tiles at --max-zoom still hold that zoom's clusters \
            (map SDKs overzoom them). Progress on stderr on a terminal; a one-line summary at the end.
            """
    )

    @Option(help: ArgumentHelp("The archive to write: a name ending in .mbtiles or .pmtiles.", valueName: "path"))
    var out: String

    @Flag(help: "Replace the archive when it exists.")
    var force = false

    @Option(name: .customLong("tile-extent"), parsing: .unconditional, help: ArgumentHelp("""
        The vector tiles' units per side (default 4096, MVT's); --extent stays the clustering's.
        """, valueName: "n"))
    var tileExtent: Int = Int(ClusterVectorTileWriter.defaultExtent)

    @OptionGroup var clustering: ClusteringOptions

    @OptionGroup var store: StoreOptions

    @OptionGroup var filters: FilterOptions

    func validate() throws {
        do {
            _ = try TileArchiveFormat(path: out)
        } catch {
            throw ValidationError("--out: \(error)")
        }
        try clustering.checkCountBy()
        try clustering.checkRanges()
        guard ClusterVectorTileWriter.layerExtent(tileExtent) != nil else {
            throw ValidationError("--tile-extent is a vector tile's units per side, a whole number from 1 to \(ClusterVectorTileWriter.maxExtent), got \(tileExtent)")
        }
    }

    func run() throws {
        var guarded = OutputPathCheck()
        guarded.store(store.path)
        try guarded.check(out, option: "--out")
        // lstat returns 0 when something (a file, a link, even a dangling one) is at the path.
        var status = stat()
        if !force, lstat(out, &status) == 0 {
            throw CLIError("--out \(out) exists: give --force to replace it, or another name")
        }
        let options = try clustering.clusterOptions()
        let clock = ContinuousClock()
        let start = clock.now
        let features = try ClusterCommand.storeFeatures(store, matching: try filters.filter())
        guard !features.isEmpty else {
            throw CLIError("no features to write as tiles: the store at \(store.path) holds none\(filters.kinds.isEmpty && filters.conditions.isEmpty ? "" : " that --kind and --where accept"); nothing was written")
        }
        let index = ClusterIndex(features: features, options: options)
        let export: ClusterTileExport
        let archive: any TileArchiveWriter
        do {
            export = try ClusterTileExport(index: index, features: features, extent: UInt32(tileExtent))
            archive = try openTileArchive(path: out)
        } catch {
            throw CLIError("--out \(out): \(error)")
        }
        let zooms = clustering.minZoom...clustering.maxZoom
        let progress = TileProgress(enabled: Terminal.standardErrorIsTerminal)
        let summary: TileExportSummary
        do {
            summary = try export.write(zooms: zooms, to: archive) { progress.update($0) }
            progress.finish()
            try archive.commit(metadata: export.metadata(name: "cairn", zooms: zooms))
        } catch {
            archive.discard()
            progress.finish()
            throw CLIError("--out \(out): \(error); nothing was written")
        }
        let elapsed = clock.now - start
        var written = stat()
        let bytes = stat(out, &written) == 0 ? Int64(written.st_size) : 0
        Terminal.printError("wrote \(Terminal.grouped(summary.tiles)) tiles of zooms \(zooms.lowerBound)-\(zooms.upperBound) (\(Terminal.grouped(features.count)) points) to \(out): \(Terminal.bytes(bytes)) in \(Terminal.duration(elapsed))")
    }
}
