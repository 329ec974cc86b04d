/// Writes the snapshot of features handed over one at a time (a store's rows, read in order), without ever holding
/// them all: each feature's table entry is encoded as it arrives (`FeatureTableEncoder`) and, given a path, moved to a
/// scratch file next to it as the table grows; only what the trees need stays in memory (16 bytes of location per
/// feature, 12 more per radius). `finish` builds the trees and returns the snapshot, ready to be written or held.
///
/// The bytes are those of `FeatureIndex(features).snapshotBytes(metadata:)` for the same features in the same order.
///
/// ```swift
/// var writer = FeatureSnapshotWriter(spillingNextTo: path)
/// try store.forEachFeature { writer.append($0) }
/// let file = try writer.finish(metadata: stamp).write(to: path)   // the writer is empty again
/// let index = try FeatureIndex(mapping: file)
/// ```
public struct FeatureSnapshotWriter {
    private var table: FeatureTableEncoder
    /// Every feature's location, in order.
    private var locations: ContiguousArray<Coordinate> = []
    /// The radius of every feature that has one, in order, and that feature's position.
    private var radii: ContiguousArray<Double> = []
    private var circleItems: ContiguousArray<UInt32> = []

    /// A writer whose feature table moves to a scratch file in the folder of `path` as it grows (when the file
    /// can be created; otherwise, and without `path`, it stays in memory).
    /// - Complexity: O(1).
    public init(spillingNextTo path: String? = nil) {
        self.init(spill: path.flatMap { SnapshotSpill(nextTo: $0) })
    }

    /// A writer whose feature table moves to `spill`, when given.
    init(spill: SnapshotSpill?) {
        table = FeatureTableEncoder(spill: spill)
    }

    /// The bytes of the feature table held in memory, not yet moved to the scratch file.
    var tableBytesInMemory: Int { table.bytesInMemory }

    /// The number of features appended.
    /// - Complexity: O(1).
    public var count: Int { locations.count }

    /// Encodes the next feature.
    /// - Complexity: O(a log a) for a attributes; amortised O(1) memory beyond the scratch file's buffers.
    public mutating func append(_ feature: Feature) {
        precondition(locations.count < Int(UInt32.max), "a snapshot holds at most \(UInt32.max) features")
        if let radius = feature.radiusMeters {
            radii.append(radius)
            circleItems.append(UInt32(truncatingIfNeeded: locations.count))
        }
        locations.append(feature.location)
        table.append(feature)
    }

    /// Builds the trees over the features appended and returns the snapshot, with `metadata` stored alongside,
    /// leaving the writer empty. Mutating in place, so that what only encoding needs (the lookup of strings, the
    /// locations) is released before the trees are built, not held by a copy.
    /// - Complexity: O(n log n).
    public mutating func finish(metadata: [String: String] = [:]) -> PreparedSnapshot {
        defer { self = FeatureSnapshotWriter() }
        let featureCount = locations.count
        table.endEncoding()
        let points = PointIndex(locations)
        // The circles' values (latitude, longitude, radius), then the locations are released before their tree.
        let circleValues = IndexBuffer<Double>(count: 3 * radii.count) { values in
            for (circle, item) in circleItems.enumerated() {
                values.initializeElement(at: 3 * circle, to: locations[Int(item)].latitude)
                values.initializeElement(at: 3 * circle + 1, to: locations[Int(item)].longitude)
                values.initializeElement(at: 3 * circle + 2, to: radii[circle])
            }
        }
        let everyFeatureHasARadius = radii.count == featureCount
        locations = []
        radii = []
        let centers: PointIndex
        if everyFeatureHasARadius {
            // The centres are the locations, in the same order: their tree is the point tree (a tree depends only
            // on its input and bucket size, both the same), shared instead of built twice.
            centers = points
        } else {
            centers = PointIndex((0..<circleItems.count).lazy.map { circle in
                Coordinate(uncheckedLatitude: circleValues[3 * circle], longitude: circleValues[3 * circle + 1])
            })
        }
        let circles = CircleIndex(centers: centers, circles: circleValues,
                                  nodeMaxRadiusMeters: CircleIndex.nodeMaxRadii(of: centers, circles: circleValues))
        let items = IndexBuffer(circleItems)
        circleItems = []
        let builder = FeatureIndex.snapshotBuilder(metadata: metadata, table: &table, points: points,
                                                   circleItems: items, circles: circles)
        return PreparedSnapshot(builder: builder, featureCount: featureCount)
    }
}

/// A snapshot computed by `FeatureSnapshotWriter`, not yet put anywhere: write it to a file (and map it), or take
/// its bytes.
public struct PreparedSnapshot {
    private let builder: SnapshotBuilder
    /// The number of features in the snapshot.
    public let featureCount: Int

    init(builder: SnapshotBuilder, featureCount: Int) {
        self.builder = builder
        self.featureCount = featureCount
    }

    /// The file's length in bytes.
    /// - Complexity: O(1).
    public var byteCount: Int { builder.fileBytes }

    /// Writes the snapshot to `path` atomically (a temporary file in the same folder, flushed, then renamed over
    /// `path`; temporary files left by killed writers are removed first) and returns it mapped and checked, ready
    /// for `FeatureIndex(mapping:)`: exactly the bytes written, whatever another writer renames over `path` later.
    /// - Throws: `SnapshotError` with reason `.io` when the file cannot be written or mapped.
    /// - Complexity: O(file bytes), written in pieces (the file is never held whole in memory).
    public func write(to path: String) throws(SnapshotError) -> SnapshotFile {
        SnapshotFileWriter.removeStaleTemporaries(of: path)
        let written = try SnapshotFileWriter.writeAtomically(builder, to: path, mapping: true)
        guard let storage = written.storage else {
            throw SnapshotError(path: path, reason: .io(operation: "map", message: "no mapping"))
        }
        return try SnapshotFile(storage: storage, path: path)
    }

    /// The snapshot's bytes, in memory (for a store that cannot be written, or a write that failed).
    /// - Throws: `SnapshotError` with reason `.io` when the writer's scratch file cannot be read back.
    /// - Complexity: O(file bytes).
    public func bytes() throws(SnapshotError) -> [UInt8] {
        var copy = builder
        return try copy.finish(releasing: false)
    }
}
