extension FeatureIndex {
    /// The index held by a checked snapshot file, read in place: the point and circle trees are views of the file's
    /// sections and features are decoded only when read (`features[i]`), so opening costs no decoding and no copy.
    ///
    /// What is verified when: `SnapshotFile` verified the header, the length, the section table and the block
    /// checksums when it opened the file. This initialiser verifies the blocks of the point and circle trees (every
    /// query reads them) and checks the sections' lengths and every item number the queries use as an index (O(n)
    /// integer comparisons), so no read can leave the file. A feature's bytes are verified when it is first decoded;
    /// damage found then is reported by `snapshotDamage`, and an answer read from the index must then be discarded
    /// (`StoreIndex.answer` rebuilds and answers again). It trusts the checksummed values themselves (k-d order,
    /// coordinate ranges, attribute contents): a file forged with matching checksums can give wrong answers, never
    /// a crash. `FeatureIndex(snapshot:)` checks every value.
    /// - Throws: `SnapshotError` (`.checksumMismatch`, `.missingSection` or `.invalidContent`).
    /// - Complexity: O(t) for t bytes of trees, plus O(n) integer checks; no allocation per feature.
    public init(mapping file: SnapshotFile) throws(SnapshotError) {
        func invalid(_ section: String, _ detail: String) -> SnapshotError {
            SnapshotError(path: file.path, reason: .invalidContent(section: section, detail: detail))
        }
        var pointHeader = try file.reader(SnapshotFormat.tag("PIDX"))
        let count = Int(try pointHeader.uint32()), bucketSize = Int(try pointHeader.uint32())
        try pointHeader.expectEnd()
        guard bucketSize >= 2 else { throw invalid("PIDX", "bucket size \(bucketSize) is below 2") }
        let ids = try file.view(SnapshotFormat.tag("PIDS"), of: UInt32.self, count: count)
        let coordinates = try file.view(SnapshotFormat.tag("PCRD"), of: Double.self, count: 2 * count)
        guard FeatureIndex.allBelow(ids, count) else { throw invalid("PIDS", "an item is not below the count \(count)") }

        var circleHeader = try file.reader(SnapshotFormat.tag("CTRE"))
        let circleCount = Int(try circleHeader.uint32()), circleBucketSize = Int(try circleHeader.uint32())
        try circleHeader.expectEnd()
        guard circleBucketSize >= 2, circleCount <= count else {
            throw invalid("CTRE", "\(circleCount) circles of bucket size \(circleBucketSize) for \(count) features")
        }
        let circleIds = try file.view(SnapshotFormat.tag("CIDS"), of: UInt32.self, count: circleCount)
        let centers = try file.view(SnapshotFormat.tag("CCRD"), of: Double.self, count: 2 * circleCount)
        let circles = try file.view(SnapshotFormat.tag("CVAL"), of: Double.self, count: 3 * circleCount)
        let radii = try file.view(SnapshotFormat.tag("CMAX"), of: Double.self,
                                  count: CircleIndex.nodeCount(points: circleCount, bucketSize: circleBucketSize))
        let circleItems = try file.view(SnapshotFormat.tag("CITM"), of: UInt32.self, count: circleCount)
        guard FeatureIndex.allBelow(circleIds, circleCount) else { throw invalid("CIDS", "a circle is not below the count \(circleCount)") }
        guard FeatureIndex.allBelow(circleItems, count) else { throw invalid("CITM", "a feature is not below the count \(count)") }

        let table = try MappedFeatureTable(file, count: count, pointCoordinates: coordinates)
        self.init(features: FeatureList(mapped: table),
                  points: PointIndex(ids: ids, coordinates: coordinates, bucketSize: bucketSize),
                  circleItems: circleItems,
                  circles: CircleIndex(centers: PointIndex(ids: circleIds, coordinates: centers, bucketSize: circleBucketSize),
                                       circles: circles, nodeMaxRadiusMeters: radii))
    }

    /// Whether every value of `buffer` is below `limit`.
    private static func allBelow(_ buffer: IndexBuffer<UInt32>, _ limit: Int) -> Bool {
        buffer.withUnsafeBufferPointer { values in
            // One pass with the largest value: no early exit, so the loop vectorises.
            var largest: UInt32 = 0
            for value in values { largest = max(largest, value) }
            return values.isEmpty || Int(largest) < limit
        }
    }

    /// The first damage found so far in the blocks of the snapshot this index reads in place (see
    /// `init(mapping:)`), or nil: nil always for an index in memory. When set, answers read from the index may be
    /// wrong and must be discarded.
    /// - Complexity: O(1).
    public var snapshotDamage: SnapshotError? { features.snapshotDamage }
}
