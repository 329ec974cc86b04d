import CairnCore
import Foundation
import GRDB

/// A summary of a store: what `cairn info` prints.
public struct StoreInfo: Hashable, Sendable {
    /// How many features of one kind are stored.
    public struct KindCount: Hashable, Sendable {
        /// The kind.
        public let kind: FeatureKind
        /// How many features of that kind are stored (may be 0).
        public let count: Int
    }

    /// The smallest box, in degrees, holding every stored location (a plain box: `minLongitude <= maxLongitude`).
    public struct Bounds: Hashable, Sendable {
        /// The southernmost latitude.
        public let minLatitude: Double
        /// The northernmost latitude.
        public let maxLatitude: Double
        /// The westernmost longitude.
        public let minLongitude: Double
        /// The easternmost longitude.
        public let maxLongitude: Double
    }

    /// The number of stored features.
    public let featureCount: Int
    /// One entry per kind, all six, in `FeatureKind.allCases` order.
    public let countsByKind: [KindCount]
    /// The box around every location; nil for an empty store.
    public let bounds: Bounds?
    /// The size on disk of the database file plus its write-ahead log (`-wal`), in bytes.
    public let fileSizeBytes: Int64

    /// The number of features of `kind`.
    /// - Complexity: O(1) (six kinds).
    public func count(of kind: FeatureKind) -> Int {
        countsByKind.first { $0.kind == kind }?.count ?? 0
    }
}

extension FeatureStore {
    /// Counts per kind, the bounding box of all locations and the file size, from one consistent snapshot.
    /// - Complexity: O(N): one pass over the kind index and one over the table.
    public func info() throws -> StoreInfo {
        let (perKind, total, bounds) = try read("reading store info") { db in
            var perKind: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT kind, COUNT(*) FROM feature GROUP BY kind")
            while let row = try rows.next() {
                if let kind: String = row[0] { perKind[kind] = row[1] }
            }
            let box = try Row.fetchOne(db, sql: """
                SELECT COUNT(*), MIN(latitude), MAX(latitude), MIN(longitude), MAX(longitude) FROM feature
                """)
            var bounds: StoreInfo.Bounds?
            if let box, let minLatitude: Double = box[1], let maxLatitude: Double = box[2],
               let minLongitude: Double = box[3], let maxLongitude: Double = box[4] {
                bounds = StoreInfo.Bounds(
                    minLatitude: minLatitude, maxLatitude: maxLatitude,
                    minLongitude: minLongitude, maxLongitude: maxLongitude)
            }
            let total: Int = box?[0] ?? 0
            return (perKind, total, bounds)
        }
        return StoreInfo(
            featureCount: total,
            countsByKind: FeatureKind.allCases.map { StoreInfo.KindCount(kind: $0, count: perKind[$0.rawValue] ?? 0) },
            bounds: bounds,
            fileSizeBytes: fileSize(path) + fileSize(path + "-wal"))
    }
}

/// The size of the file at `path` in bytes, 0 when it does not exist.
private func fileSize(_ path: String) -> Int64 {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
          let size = attributes[.size] as? NSNumber
    else { return 0 }
    return size.int64Value
}
