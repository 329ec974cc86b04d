import CairnCore

/// Writes a PMTiles 3 archive: the tiles' bytes go to a scratch file beside the path as they come (in tile id
/// order, so the archive is clustered), identical tiles are stored once (a run of consecutive ids with the same
/// bytes is one directory entry), and `commit(metadata:)` writes the header, the directories, the JSON metadata and
/// the tiles under a temporary name, then renames it over the path.
///
/// Identical tiles are found by a 64-bit hash of their bytes and confirmed by comparing the bytes themselves (read
/// back from the scratch file), so a hash collision costs a read, never a wrong tile. Memory holds the directory
/// entries and the hash table, not the tiles.
///
/// Reference: the PMTiles 3 specification (protomaps/PMTiles, spec/v3/spec.md).
public final class PMTilesWriter: TileArchiveWriter {
    /// The archive's path, as given.
    public let path: String
    private let data: ScratchFile
    private var entries: [PMTilesEntry] = []
    /// Stored contents by hash: offset and length in the data section.
    private var contents: [UInt64: [(offset: UInt64, length: UInt32)]] = [:]
    private var contentCount = 0
    private var addressed: UInt64 = 0
    private var last: (tile: TileAddress, id: UInt64)?

    /// A writer for `path`, its tile data on a scratch file beside it.
    /// - Throws: `TileArchiveError.file` when the scratch file cannot be made (a folder that does not exist or
    ///   cannot be written).
    /// - Complexity: O(1).
    public init(path: String) throws(TileArchiveError) {
        guard let data = ScratchFile(nextTo: path) else {
            throw .file(path: path, operation: "creating a scratch file beside it", message: "the folder cannot be written")
        }
        self.path = path
        self.data = data
    }

    /// Adds one tile (see `TileArchiveWriter.append`).
    /// - Complexity: O(n) in the tile's bytes, plus a read of an earlier tile with the same hash.
    public func append(_ tile: TileAddress, gzippedBytes bytes: [UInt8]) throws(TileArchiveError) {
        guard !bytes.isEmpty else { throw .emptyTile(tile) }
        let id = tile.pmtilesTileID
        if let last, id <= last.id { throw .tilesOutOfOrder(previous: last.tile, next: tile) }
        last = (tile, id)
        addressed += 1
        let hash = bytes.withUnsafeBytes { byteHash($0) }
        if let stored = try storedCopy(of: bytes, hash: hash) {
            if let previous = entries.last, previous.offset == stored.offset, previous.tileID + UInt64(previous.runLength) == id {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(PMTilesEntry(tileID: id, offset: stored.offset, length: stored.length, runLength: 1))
            }
            return
        }
        let offset: Int
        do {
            offset = try bytes.withUnsafeBytes { try data.append($0) }
        } catch {
            throw scratchFailure(error)
        }
        let stored = (offset: UInt64(offset), length: UInt32(bytes.count))
        contents[hash, default: []].append(stored)
        contentCount += 1
        entries.append(PMTilesEntry(tileID: id, offset: stored.offset, length: stored.length, runLength: 1))
    }

    /// Where `bytes` are already stored, if they are.
    private func storedCopy(of bytes: [UInt8], hash: UInt64) throws(TileArchiveError) -> (offset: UInt64, length: UInt32)? {
        guard let candidates = contents[hash] else { return nil }
        var earlier = [UInt8](repeating: 0, count: bytes.count)
        for candidate in candidates where Int(candidate.length) == bytes.count {
            do {
                _ = try earlier.withUnsafeMutableBytes { try data.read(at: Int(candidate.offset), into: $0) }
            } catch {
                throw scratchFailure(error)
            }
            if earlier == bytes { return candidate }
        }
        return nil
    }

    /// Writes the archive and renames it over the path (see `TileArchiveWriter.commit`).
    /// - Complexity: O(n) in the tiles' bytes and entries.
    public func commit(metadata: TileArchiveMetadata) throws(TileArchiveError) {
        guard !entries.isEmpty else { throw .noTiles(path: path) }
        let (root, leaves) = try PMTilesDirectory.build(entries, headerBytes: PMTilesHeader.byteCount)
        let json = Array(metadataJSON(metadata).utf8)
        guard let metadataBytes = json.withUnsafeBytes({ GzipWriter.compressed($0, level: 6) }) else { throw .compressionFailed }
        let rootOffset = UInt64(PMTilesHeader.byteCount)
        let metadataOffset = rootOffset + UInt64(root.count)
        let leavesOffset = metadataOffset + UInt64(metadataBytes.count)
        let dataOffset = leavesOffset + UInt64(leaves.count)
        let header = PMTilesHeader(
            rootOffset: rootOffset, rootLength: UInt64(root.count),
            metadataOffset: metadataOffset, metadataLength: UInt64(metadataBytes.count),
            leavesOffset: leavesOffset, leavesLength: UInt64(leaves.count),
            dataOffset: dataOffset, dataLength: UInt64(data.byteCount),
            addressedTiles: addressed, tileEntries: UInt64(entries.count), tileContents: UInt64(contentCount),
            minZoom: UInt8(clamping: metadata.minZoom), maxZoom: UInt8(clamping: metadata.maxZoom),
            west: metadata.bounds.west, south: metadata.bounds.south, east: metadata.bounds.east, north: metadata.bounds.north,
            centerZoom: UInt8(clamping: metadata.center.zoom), centerLongitude: metadata.center.longitude,
            centerLatitude: metadata.center.latitude)
        let file: OutputFile
        do {
            file = try OutputFile(path: path)
        } catch {
            throw .file(path: path, operation: "opening a temporary file beside it", message: "\(error)")
        }
        do {
            for section in [header.encoded(), root, metadataBytes, leaves] {
                try section.withUnsafeBytes { try file.write($0) }
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            var offset = 0
            while offset < data.byteCount {
                let count = min(chunk.count, data.byteCount - offset)
                let read: Int
                do {
                    read = try chunk.withUnsafeMutableBytes {
                        try data.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: $0[..<count]))
                    }
                } catch {
                    file.discard()
                    throw scratchFailure(error)
                }
                try chunk.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[..<read])) }
                guard read > 0 else {
                    file.discard()
                    throw TileArchiveError.file(path: path, operation: "reading a scratch file", message: "it ended early")
                }
                offset += read
            }
            try file.commit()
        } catch let error as InputError {
            file.discard()
            throw .file(path: path, operation: "writing", message: "\(error)")
        } catch let error as TileArchiveError {
            throw error
        } catch {
            file.discard()
            throw .file(path: path, operation: "writing", message: "\(error)")
        }
    }

    /// A scratch file's failure (a full disk) as an archive error naming the path.
    private func scratchFailure(_ error: any Error) -> TileArchiveError {
        guard let failure = error as? ScratchFile.Failure else {
            return .file(path: path, operation: "using a scratch file", message: "\(error)")
        }
        return .file(path: path, operation: failure.operation, message: failure.message)
    }

    /// The scratch file goes when the writer does; there is no other temporary file before `commit`.
    public func discard() {}

    /// The JSON metadata: the name, the format, the zooms and bounds as TileJSON has them, and `vector_layers`.
    private func metadataJSON(_ metadata: TileArchiveMetadata) -> String {
        "{\"name\":\(TextEscaping.jsonString(metadata.name)),\"format\":\"pbf\",\"type\":\"overlay\","
            + "\"minzoom\":\"\(metadata.minZoom)\",\"maxzoom\":\"\(metadata.maxZoom)\","
            + "\"bounds\":\"\(metadata.boundsText)\",\"center\":\"\(metadata.centerText)\","
            + "\"vector_layers\":\(metadata.vectorLayersJSON)}"
    }
}
