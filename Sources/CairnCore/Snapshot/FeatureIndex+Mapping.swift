extension FeatureIndex {
    /// The index held by a checked snapshot file, read in place: the point and circle trees are views of the file's
    /// sections and features are decoded only when read (`features[i]`), so opening costs no decoding and no copy.
    ///
    /// What is verified when: `SnapshotFile` verified the header, the length, the section table and the block
    /// checksums when it opened the file. This initialiser verifies the blocks of the point tree (every query but
    /// `containing` reads it) and checks the sections' lengths and every item number the point queries use as an
    /// index (O(n) integer comparisons), so no read can leave the file; the circle tree gets the same checks at the
    /// first `containing` (`MappedCircleCheck`). A feature's bytes are verified when it is first decoded;
    /// damage found then is reported by `snapshotDamage`, and an answer read from the index must then be discarded
    /// (`StoreIndex.answer` rebuilds and answers again). It trusts the checksummed values themselves (k-d order,
    /// coordinate ranges, attribute contents): a file forged with matching checksums can give wrong answers, never
    /// a crash. `FeatureIndex(snapshot:)` checks every value.
    /// - Throws: `SnapshotError` (`.checksumMismatch`, `.missingSection` or `.invalidContent`).
    /// - Complexity: O(t) for t bytes of the point tree, plus O(n) integer checks; no allocation per feature.
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
        // Views only: the circle sections are checked by the first query that reads them (`MappedCircleCheck`).
        let circleTags = ["CIDS", "CCRD", "CVAL", "CMAX", "CITM"].map(SnapshotFormat.tag)
        let circleIds = try file.view(circleTags[0], of: UInt32.self, count: circleCount, verifyingNow: false)
        let centers = try file.view(circleTags[1], of: Double.self, count: 2 * circleCount, verifyingNow: false)
        let circles = try file.view(circleTags[2], of: Double.self, count: 3 * circleCount, verifyingNow: false)
        let radii = try file.view(circleTags[3], of: Double.self,
                                  count: CircleIndex.nodeCount(points: circleCount, bucketSize: circleBucketSize),
                                  verifyingNow: false)
        let circleItems = try file.view(circleTags[4], of: UInt32.self, count: circleCount, verifyingNow: false)
        let circleCheck = MappedCircleCheck(file: file, tags: circleTags, circleIds: circleIds, circleItems: circleItems,
                                            featureCount: count)

        let table = try MappedFeatureTable(file, count: count, pointCoordinates: coordinates)
        self.init(features: FeatureList(mapped: table),
                  points: PointIndex(ids: ids, coordinates: coordinates, bucketSize: bucketSize),
                  circleItems: circleItems,
                  circles: CircleIndex(centers: PointIndex(ids: circleIds, coordinates: centers, bucketSize: circleBucketSize),
                                       circles: circles, nodeMaxRadiusMeters: radii),
                  circleCheck: circleCheck)
    }

    /// Whether every value of `buffer` is below `limit`.
    static func allBelow(_ buffer: IndexBuffer<UInt32>, _ limit: Int) -> Bool {
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
    public var snapshotDamage: SnapshotError? { features.snapshotDamage ?? circleCheck?.damage }
}
