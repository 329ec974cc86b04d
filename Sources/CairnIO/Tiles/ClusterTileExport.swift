import CairnCore
import Dispatch

/// Writes every tile of a range of zooms that holds a cluster, a point or a piece of a shape into a tile archive: the
/// same bytes, tile for tile, as `ClusterVectorTileWriter.encodeTile(z:x:y:)` gives (what `cairn cluster --tile
/// --format mvt` writes; the server's `/tiles/{z}/{x}/{y}.mvt` sends the same layers with its cluster ids offset by
/// the state's epoch), gzip-compressed.
///
/// Tiles are found per zoom from the entries the hierarchy shows there (`ClusterIndex.occupiedTiles(zoom:)`) and the
/// tiles the shapes reach (`TileShapes.coveredTiles`: those their edges cross and, for polygons, those wholly inside,
/// by a scanline per row, not every tile of a shape's extent; a covered tile that rounds to nothing encodes empty and
/// is not written), not by asking all 4^z tiles; they are written in PMTiles tile id order (zoom, then the Hilbert
/// curve), which both archive formats accept and PMTiles needs. Encoding and compression run on two threads in batches, while the calling
/// thread writes each finished batch in order.
public struct ClusterTileExport: Sendable {
    /// The clusters.
    public let index: ClusterIndex
    /// The features the index was built from, in the same order.
    public let features: [Feature]
    /// The lines and polygons of `features`.
    public let shapes: TileShapes
    /// The layers' extent: tile units per side.
    public let extent: UInt32
    /// Tiles encoded per batch: large enough that the threads' hand-off is rare, small enough for a smooth
    /// progress report.
    static let batchSize = 256

    /// An export of `index`'s tiles and `features`' shapes, `extent` units per tile side.
    /// - Throws: `VectorTileError.extentOutOfRange` for an extent outside 1...`ClusterVectorTileWriter.maxExtent`.
    /// - Complexity: O(n + v) for n features and the v vertices of their shapes.
    public init(index: ClusterIndex, features: [Feature],
                extent: UInt32 = ClusterVectorTileWriter.defaultExtent) throws(VectorTileError) {
        _ = try ClusterVectorTileWriter(index: index, features: features, extent: extent)
        self.index = index
        self.features = features
        self.shapes = TileShapes(features: features)
        self.extent = extent
    }

    /// Writes the tiles of `zooms` to `archive` (not committed: the caller adds the metadata), calling `progress`
    /// after each batch.
    /// - Throws: `TileArchiveError` when a tile cannot be encoded or written; what was written stays uncommitted.
    /// - Complexity: O(t·a) for t tiles of a entries, plus O(k log k) per zoom for its k shown entries.
    public func write(zooms: ClosedRange<Int>, to archive: some TileArchiveWriter,
                      progress: (TileExportProgress) -> Void = { _ in }) throws(TileArchiveError) -> TileExportSummary {
        var summary = TileExportSummary(tilesPerZoom: [], tileBytes: 0)
        var written = 0
        for zoom in zooms {
            var occupied = index.occupiedTiles(zoom: zoom)
            if !shapes.isEmpty {
                let bufferTiles = index.options.radiusPixels / index.options.extent
                occupied = Array(shapes.coveredTiles(zoom: zoom, bufferTiles: bufferTiles).union(occupied))
            }
            let tiles = occupied.map { ($0.pmtilesTileID, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
            var done = 0
            var start = 0
            while start < tiles.count {
                let batch = Array(tiles[start..<min(start + Self.batchSize, tiles.count)])
                for (position, result) in encode(batch) {
                    let bytes = try result.get()
                    // A covered tile where a shape's sliver rounded to nothing is empty: it is not written.
                    guard !bytes.isEmpty else { continue }
                    try archive.append(batch[position], gzippedBytes: bytes)
                    done += 1
                    written += 1
                    summary.tileBytes += bytes.count
                }
                start += batch.count
                progress(TileExportProgress(zoom: zoom, tilesDoneInZoom: done, tilesInZoom: tiles.count,
                                            tilesWritten: written, tileBytes: summary.tileBytes))
            }
            summary.tilesPerZoom.append(done)
        }
        return summary
    }

    /// The tiles of `batch` encoded and gzip-compressed on two threads (alternate tiles each, since neighbouring
    /// tiles cost alike), in batch order. An empty tile gives no bytes.
    private func encode(_ batch: [TileAddress]) -> [(Int, Result<[UInt8], TileArchiveError>)] {
        let parts = [TileEncodingBatch(), TileEncodingBatch()]
        let index = self.index, features = self.features, shapes = self.shapes, extent = self.extent
        DispatchQueue.concurrentPerform(iterations: parts.count) { part in
            // The extent was checked in init, so the writer cannot fail here; a failure would be reported per tile.
            let writer = try? ClusterVectorTileWriter(index: index, features: features, shapes: shapes, extent: extent)
            var out: [(position: Int, bytes: Result<[UInt8], TileArchiveError>)] = []
            out.reserveCapacity(batch.count / parts.count + 1)
            for position in stride(from: part, to: batch.count, by: parts.count) {
                let tile = batch[position]
                out.append((position, Self.encode(tile, with: writer)))
            }
            parts[part].tiles = out
        }
        var merged = parts[0].tiles + parts[1].tiles
        merged.sort { $0.position < $1.position }
        return merged.map { ($0.position, $0.bytes) }
    }

    /// One tile's vector tile bytes, gzip-compressed (empty for a tile with nothing in it).
    private static func encode(_ tile: TileAddress, with writer: ClusterVectorTileWriter?) -> Result<[UInt8], TileArchiveError> {
        guard let writer else { return .failure(.encoding(tile, .extentOutOfRange(0))) }
        do {
            let bytes = try writer.encodeTile(z: tile.zoom, x: tile.x, y: tile.y)
            guard !bytes.isEmpty else { return .success([]) }
            guard let gzipped = bytes.withUnsafeBytes({ GzipWriter.compressed($0, level: 6) }) else {
                return .failure(.compressionFailed)
            }
            return .success(gzipped)
        } catch {
            return .failure(.encoding(tile, error))
        }
    }

    /// The archive's metadata for `zooms`: named `name`, bounded by the features' extent (the Web Mercator world
    /// when there are none), centred on it at the lowest zoom, with the `clusters` layer's fields (the aggregates
    /// the options ask for included) and the `points` layer's (the attributes the features carry, with their
    /// types; a name with values of several types lists them), which the `shapes` layer shares when there is one.
    /// - Complexity: O(n·a) for n features of a attributes.
    public func metadata(name: String, zooms: ClosedRange<Int>) -> TileArchiveMetadata {
        var west = 180.0, south = 90.0, east = -180.0, north = -90.0
        var types: [String: Set<String>] = [:]
        var hasRadius = false, hasWindow = false, hasTime = false, hasTextID = false
        for feature in features {
            west = min(west, feature.location.longitude)
            east = max(east, feature.location.longitude)
            south = min(south, feature.location.latitude)
            north = max(north, feature.location.latitude)
            hasRadius = hasRadius || feature.radiusMeters != nil
            if feature.timeWindow != nil {
                if feature.kind == .sighting { hasTime = true } else { hasWindow = true }
            }
            hasTextID = hasTextID || ClusterVectorTileWriter.numericID(feature.id) == nil
            for (key, value) in feature.attributes { types[key, default: []].insert(Self.fieldType(value)) }
        }
        if features.isEmpty { (west, south, east, north) = (-180, -85.051129, 180, 85.051129) }
        var clusterFields = ["cluster": "Boolean", "cluster_id": "Number", "point_count": "Number",
                             "point_count_abbreviated": "Number or String", "expansion_zoom": "Number",
                             "identical_points": "Boolean"]
        for sum in index.options.numericAttributes {
            for suffix in ["_sum", "_min", "_max", "_mean"] { clusterFields[sum + suffix] = "Number" }
        }
        if let category = index.options.categoryAttribute { clusterFields[category + "_counts"] = "String (JSON object)" }
        var pointFields = ["kind": "String"]
        if hasTextID { pointFields["id"] = "String (when the id is not a plain number)" }
        if hasRadius { pointFields["radiusMeters"] = "Number" }
        if hasWindow { (pointFields["startTime"], pointFields["endTime"]) = ("String", "String") }
        if hasTime { pointFields["time"] = "String" }
        for (key, names) in types { pointFields[key] = names.sorted().joined(separator: " or ") }
        return TileArchiveMetadata(
            name: name, minZoom: zooms.lowerBound, maxZoom: zooms.upperBound, bounds: (west, south, east, north),
            center: ((west + east) / 2, (south + north) / 2, zooms.lowerBound),
            layers: [TileArchiveLayer(id: ClusterVectorTileWriter.clustersLayerName, fields: clusterFields),
                     TileArchiveLayer(id: ClusterVectorTileWriter.pointsLayerName, fields: pointFields)]
                + (shapes.isEmpty ? [] : [TileArchiveLayer(id: ClusterVectorTileWriter.shapesLayerName, fields: pointFields)]))
    }

    /// An attribute's type as a tile holds it (`ClusterVectorTileWriter`: times and string sets as text).
    private static func fieldType(_ value: AttributeValue) -> String {
        switch value {
        case .number: "Number"
        case .bool: "Boolean"
        case .string, .time, .stringSet: "String"
        }
    }
}
