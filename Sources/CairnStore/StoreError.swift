import GRDB

/// Why the store refused a file, a query or a write. Every case names the database file.
public enum StoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file exists but is not an SQLite database (SQLite said `SQLITE_NOTADB`).
    case notADatabase(path: String)
    /// The file is an SQLite database, but not one Cairn made (or one made by a newer Cairn).
    case notACairnStore(path: String, reason: String)
    /// The file could not be opened or created (missing folder, no permission, ...).
    case cannotOpen(path: String, message: String)
    /// SQLite failed while doing `operation`; `code` is SQLite's extended result code.
    case sqlite(path: String, operation: String, code: Int32, message: String)
    /// A stored row could not be read back as a valid feature (edited by hand, or damaged).
    case invalidRow(path: String, id: String, reason: String)
    /// A query's bounding box is not a valid box of WGS84 degrees.
    case invalidBox(west: Double, south: Double, east: Double, north: Double, reason: String)
    /// A `FeatureStoreWriter` was used after the `write` call that handed it out had returned.
    case writerClosed(path: String)
    /// Another writer (another process, or another `FeatureStore` on the same file) still held the store after this
    /// one had waited `waitedSeconds` for it (see `FeatureStore.init(path:writerWaitSeconds:onWaitingForWriter:)`).
    case busy(path: String, operation: String, waitedSeconds: Double)
    /// A file the store writes beside its database (a scratch file of a large write) could not be written or read.
    case io(path: String, operation: String, message: String)

    public var description: String {
        switch self {
        case .notADatabase(let path):
            "\(path): not a Cairn store (the file is not an SQLite database)"
        case .notACairnStore(let path, let reason):
            "\(path): not a Cairn store (\(reason))"
        case .cannotOpen(let path, let message):
            "\(path): cannot open the database: \(message)"
        case .sqlite(let path, let operation, let code, let message):
            "\(path): \(operation) failed: \(message) (SQLite code \(code))"
        case .invalidRow(let path, let id, let reason):
            "\(path): stored feature '\(id)' is invalid: \(reason)"
        case .invalidBox(let west, let south, let east, let north, let reason):
            "bounding box \(west),\(south),\(east),\(north) (west,south,east,north): \(reason)"
        case .writerClosed(let path):
            "\(path): the writer was used after its write transaction ended; use it only inside the `write` closure"
        case .io(let path, let operation, let message):
            "\(path): \(operation) failed: \(message)"
        case .busy(let path, let operation, let waitedSeconds):
            "\(path): \(operation) gave up: another writer still held the store after \(Self.secondsText(waitedSeconds)) s "
                + "of waiting; try again when it has finished, or wait longer"
        }
    }

    /// `60` for 60.0, `0.5` for 0.5.
    private static func secondsText(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }

    /// Wraps a GRDB error raised while doing `operation` on the file at `path`.
    static func wrapping(_ error: DatabaseError, path: String, operation: String) -> StoreError {
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return .notADatabase(path: path)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return .cannotOpen(path: path, message: message)
        default:
            return .sqlite(path: path, operation: operation, code: error.extendedResultCode.rawValue, message: message)
        }
    }
}
