import CairnCore

/// Features encoded as the `feature` table stores them (the attributes as `AttributeJSON`, the shape as WKB), ready
/// for `FeatureStoreWriter.upsert(_:written:)` to bind: so that the encoding can run on another thread than the
/// write transaction's (an import encodes on its reading thread), and a `Feature`'s dictionary and strings are freed
/// where they were made.
///
/// One growing byte buffer holds every row's id, attributes and geometry, and one array the rows' fixed columns: no
/// allocation per row once the buffers have grown.
public struct EncodedFeatureBatch: Sendable {
    /// One row's fixed columns and where its bytes are in `bytes`: the id, then the attributes JSON, then the WKB.
    struct Row {
        let kind: FeatureKind
        let latitude: Double
        let longitude: Double
        let radiusMeters: Double?
        let startSeconds: Double?
        let endSeconds: Double?
        /// Offsets into `bytes`: the id is `start..<idEnd`, the attributes `idEnd..<attributesEnd`, the geometry's
        /// WKB `attributesEnd..<end`.
        let start: Int
        let idEnd: Int
        let attributesEnd: Int
        let end: Int
        /// Whether the feature has a shape (an empty WKB range otherwise).
        let hasShape: Bool
    }

    private(set) var rows: [Row] = []
    private(set) var bytes: [UInt8] = []

    /// An empty batch.
    /// - Complexity: O(1).
    public init() {}

    /// The number of features.
    /// - Complexity: O(1).
    public var count: Int { rows.count }

    /// Whether the batch holds no feature.
    /// - Complexity: O(1).
    public var isEmpty: Bool { rows.isEmpty }

    /// Appends `feature`, encoded.
    /// - Complexity: O(a log a + s): sorting its a attribute names, then linear in the encoded size s.
    public mutating func append(_ feature: Feature) {
        let start = bytes.count
        var id = feature.id
        id.withUTF8 { bytes.append(contentsOf: $0) }
        let idEnd = bytes.count
        AttributeJSON.encode(feature.attributes, into: &bytes)
        let attributesEnd = bytes.count
        feature.shape?.appendWKB(to: &bytes)
        rows.append(Row(kind: feature.kind, latitude: feature.location.latitude, longitude: feature.location.longitude,
                        radiusMeters: feature.radiusMeters, startSeconds: feature.timeWindow?.start.secondsSince1970,
                        endSeconds: feature.timeWindow?.end.secondsSince1970, start: start, idEnd: idEnd,
                        attributesEnd: attributesEnd, end: bytes.count, hasShape: feature.shape != nil))
    }

    /// The id of the feature at `position`.
    /// - Complexity: O(n) in the id's length.
    public func id(at position: Int) -> String {
        let row = rows[position]
        return String(decoding: bytes[row.start..<row.idEnd], as: UTF8.self)
    }

    /// Removes every feature, keeping the buffers' capacity.
    /// - Complexity: O(n).
    public mutating func removeAll() {
        rows.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }
}
