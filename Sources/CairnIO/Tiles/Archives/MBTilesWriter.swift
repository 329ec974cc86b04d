import CairnCore
import Foundation
import GRDB

/// Writes an MBTiles 1.3 archive: an SQLite database (through GRDB) with a `metadata` table (name, format `pbf`,
/// zooms, bounds, centre, `json` with `vector_layers`) and a `tiles` table whose rows count from the south (TMS:
/// row = 2^zoom - 1 - y), every tile in one transaction.
///
/// The database is written under a temporary name beside the path (`PATH.tmp-PID-RANDOM`, the name `OutputFile`
/// uses) without a rollback journal or syncs, since a failure removes the whole file anyway, and renamed over the
/// path by `commit(metadata:)`.
///
/// Reference: MBTiles 1.3 (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md).
public final class MBTilesWriter: TileArchiveWriter {
    /// The archive's path, as given.
    public let path: String
    private let temporaryPath: String
    private var queue: DatabaseQueue?
    private var tileCount = 0

    /// A writer for `path`: creates the temporary database and its tables and begins the transaction.
    /// - Throws: `TileArchiveError.file` with SQLite's message when the database cannot be created.
    /// - Complexity: O(1).
    public init(path: String) throws(TileArchiveError) {
        self.path = path
        temporaryPath = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        do {
            var configuration = Configuration()
            configuration.label = "cairn-mbtiles"
            // The one transaction spans every `append`: GRDB must let it stay open between accesses.
            configuration.allowsUnsafeTransactions = true
            configuration.prepareDatabase { db in
                // A failed export removes the file: no journal and no syncs are needed until the rename.
                try db.execute(sql: "PRAGMA journal_mode = OFF")
                try db.execute(sql: "PRAGMA synchronous = OFF")
            }
            let queue = try DatabaseQueue(path: temporaryPath, configuration: configuration)
            self.queue = queue
            try queue.inDatabase { db in
                try db.execute(sql: """
                    CREATE TABLE metadata (name TEXT, value TEXT);
                    CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                    BEGIN;
                    """)
            }
        } catch {
            discard()
            throw .file(path: path, operation: "creating an SQLite database beside it", message: Self.message(error))
        }
    }

    /// Adds one tile's row (see `TileArchiveWriter.append`).
    /// - Complexity: O(log n) for n tiles (SQLite's b-tree).
    public func append(_ tile: TileAddress, gzippedBytes bytes: [UInt8]) throws(TileArchiveError) {
        guard !bytes.isEmpty else { throw .emptyTile(tile) }
        guard let queue else { throw .file(path: path, operation: "adding a tile", message: "the archive was discarded") }
        do {
            try queue.inDatabase { db in
                let insert = try db.cachedStatement(
                    sql: "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?, ?, ?, ?)")
                try insert.execute(arguments: [tile.zoom, tile.x, (1 << tile.zoom) - 1 - tile.y, Data(bytes)])
            }
            tileCount += 1
        } catch {
            throw .file(path: path, operation: "adding tile \(tile.zoom)/\(tile.x)/\(tile.y)", message: Self.message(error))
        }
    }

    /// Writes the metadata rows and the index, commits, closes and renames the database over the path.
    /// - Complexity: O(n log n) for the index over n tiles.
    public func commit(metadata: TileArchiveMetadata) throws(TileArchiveError) {
        guard let queue else { throw .file(path: path, operation: "committing", message: "the archive was discarded") }
        guard tileCount > 0 else {
            discard()
            throw .noTiles(path: path)
        }
        let rows: [(String, String)] = [
            ("name", metadata.name), ("format", "pbf"), ("type", "overlay"), ("version", "1"),
            ("minzoom", "\(metadata.minZoom)"), ("maxzoom", "\(metadata.maxZoom)"),
            ("bounds", metadata.boundsText), ("center", metadata.centerText),
            ("json", "{\"vector_layers\":\(metadata.vectorLayersJSON)}"),
        ]
        do {
            try queue.inDatabase { db in
                for (name, value) in rows {
                    try db.execute(sql: "INSERT INTO metadata (name, value) VALUES (?, ?)", arguments: [name, value])
                }
                // The index the spec names; built once at the end, faster than kept up row by row.
                try db.execute(sql: """
                    CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
                    CREATE UNIQUE INDEX name ON metadata (name);
                    COMMIT;
                    """)
            }
            try queue.close()
            self.queue = nil
        } catch {
            discard()
            throw .file(path: path, operation: "writing the SQLite database", message: Self.message(error))
        }
        // rename(2) returns 0 on success, else -1 with errno.
        guard rename(temporaryPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw .file(path: path, operation: "renaming the finished archive over it", message: reason)
        }
    }

    /// Closes the database and removes the temporary file.
    public func discard() {
        try? queue?.close()
        queue = nil
        unlink(temporaryPath)
    }

    /// SQLite's own message for a GRDB error, else the error's text.
    private static func message(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error)" }
        return "\(error)"
    }
}
